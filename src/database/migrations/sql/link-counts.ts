/**
 * The pieces of the functions that keep `link_counts`, shared by the migrations that wrote them (link lists, link
 * count changes). Migrations are history, and PostgreSQL keeps a function's body as it was written: what these
 * return must never change, and a new layout is a new function.
 */

/** The key of `link_counts`: a link's account, space (0 for none), domain and whether it is disabled. */
export const KEY = 'account_id, space_id, domain_id, disabled';

/** The keys of the links in a transition table, with the change each brings to its count. */
export function keysOf(table: string, alias: string, change: string): string {
  return `SELECT ${alias}.account_id, COALESCE(${alias}.space_id, 0) AS space_id, ${alias}.domain_id, ${alias}.disabled,
                 ${change} AS links
            FROM ${table} ${alias}`;
}

/**
 * Adds the changes of `deltas` (rows of KEY and links) to the counts, in key order so that concurrent statements
 * lock the rows they share in the same order, and removes the counts that reach zero (their accounts collected in
 * `emptied`). A query that only reads is taken as a subquery; one that writes (a DELETE ... RETURNING) can only
 * stand in a WITH clause.
 */
export function applyToCounts(deltas: string, as: 'subquery' | 'with'): string {
  const [changes, source] = as === 'with' ? [`changes AS (${deltas}), `, 'changes'] : ['', `(${deltas}) d`];
  return `
    WITH ${changes}delta AS (
      SELECT ${KEY}, sum(links)::int AS links FROM ${source} GROUP BY ${KEY} HAVING sum(links) <> 0
    ), applied AS (
      INSERT INTO link_counts AS c (${KEY}, links)
      SELECT ${KEY}, links FROM delta ORDER BY ${KEY}
      ON CONFLICT (${KEY}) DO UPDATE SET links = c.links + excluded.links
      RETURNING c.account_id, c.links
    )
    SELECT array_agg(DISTINCT account_id) FILTER (WHERE links = 0) INTO emptied FROM applied;
    IF emptied IS NOT NULL THEN
      DELETE FROM link_counts WHERE account_id = ANY (emptied) AND links = 0;
    END IF;`;
}

/** The variable {@link applyToCounts} writes into, declared by the function it stands in. */
export const EMPTIED = 'emptied integer[];';

/** An update moves a link between counts only when its key changed. */
const KEY_CHANGED = [
  ' WHERE (o.account_id, o.space_id, o.domain_id, o.disabled)',
  '       IS DISTINCT FROM (n.account_id, n.space_id, n.domain_id, n.disabled)',
];

/**
 * What a statement's changes to `links` do to the counts, whatever `apply` writes them into: a line each, every
 * line starting with a line break and `margin` (each migration's own, which its function's body keeps).
 */
export function statementChanges(apply: (deltas: string) => string, margin: string): string {
  const lines = (rows: string[]) => rows.map((row) => `\n${margin}${row}`).join('');
  const moved = lines(
    [
      `${keysOf('old_links', 'o', '-1')} JOIN new_links n ON n.id = o.id`,
      ...KEY_CHANGED,
      'UNION ALL',
      `${keysOf('new_links', 'n', '1')} JOIN old_links o ON o.id = n.id`,
      ...KEY_CHANGED,
    ].map((row) => `    ${row}`),
  );
  return lines([
    `IF TG_OP = 'INSERT' THEN`,
    `  ${apply(keysOf('new_links', 'n', '1'))}`,
    `ELSIF TG_OP = 'DELETE' THEN`,
    `  ${apply(keysOf('old_links', 'o', '-1'))}`,
    'ELSE',
    `  ${apply(moved)}`,
    'END IF;',
  ]);
}
