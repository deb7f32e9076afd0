/** A pattern for `ILIKE ... ESCAPE '\'` that matches `term` as a literal substring (`%` and `_` included). */
export function substringPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
