/**
 * The rule that decides whether an event is written, in SQL, for every statement that writes events: the streams
 * take every event (`streams`, a boolean parameter), and otherwise an enabled webhook of the account that takes its
 * type. `account` and `type` are SQL expressions (a column, a parameter, a quoted literal).
 */
export function takenSql(streams: string, account: string, type: string): string {
  return `(${streams}::boolean OR EXISTS (SELECT 1 FROM webhooks w WHERE w.account_id = ${account} AND w.enabled
                                            AND ${type} = ANY (w.events)))`;
}
