/**
 * The rows an `UPDATE` or `DELETE ... RETURNING` gave back. TypeORM answers those statements as `[rows, count]`
 * (and any other as the rows): a `RETURNING` read as rows would always seem to have two.
 */
export async function returnedRows<T>(result: Promise<unknown>): Promise<T[]> {
  const value = await result;
  if (Array.isArray(value) && value.length === 2 && Array.isArray(value[0]) && typeof value[1] === 'number') {
    return value[0] as T[];
  }
  return value as T[];
}
