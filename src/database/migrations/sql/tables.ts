/**
 * Tables as the migrations that share them wrote them. Migrations are history: what these return must never
 * change, and a new layout is a new function.
 */

/**
 * A resource an account names (spaces, pixels): its table, with `columns` (a line each) after the name, and its
 * indexes. Names are unique per account regardless of case, as a person reads them; the account's list reads its
 * rows in id order. Removed with its account.
 */
export function namedResourceTable(table: string, columns: readonly string[]): string[] {
  return [
    numberedTable(
      table,
      [
        '"account_id" integer NOT NULL',
        '"name" character varying(255) NOT NULL',
        ...columns,
        '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
        '"updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
      ],
      { account_id: 'accounts' },
    ),
    `CREATE UNIQUE INDEX "UQ_${table}_account_name" ON "${table}" ("account_id", lower("name"))`,
    `CREATE INDEX "IDX_${table}_account_id" ON "${table}" ("account_id", "id")`,
  ];
}

/** What a row's reference does when the row it names is deleted: removed with it, or left without it. */
export type Reference = string | { table: string; onDelete: 'SET NULL' };

/**
 * `CREATE TABLE` of `table`, as the migrations lay it out: its `columns` (a line each), its primary key `key`, and
 * the references of `references` (column → table) named after the column less its `_id`, each removed with the
 * row it names unless it says otherwise.
 */
export function createTable(
  table: string,
  columns: readonly string[],
  key?: readonly string[],
  references: Record<string, Reference> = {},
): string {
  const constraints = Object.entries(references).map(([column, reference]) => {
    const { table: target, onDelete } =
      typeof reference === 'string' ? { table: reference, onDelete: 'CASCADE' } : reference;
    const name = column.replace(/_id$/, '');
    return `CONSTRAINT "FK_${table}_${name}" FOREIGN KEY ("${column}") REFERENCES "${target}"("id") ON DELETE ${onDelete}`;
  });
  const lines = [
    ...columns,
    ...(key === undefined
      ? []
      : [`CONSTRAINT "PK_${table}" PRIMARY KEY (${key.map((name) => `"${name}"`).join(', ')})`]),
    ...constraints,
  ];
  return `\n      CREATE TABLE "${table}" (\n${lines.map((line) => `        ${line}`).join(',\n')}\n      )`;
}

/** {@link createTable} of rows numbered by a serial `id`, their primary key, ahead of `columns`. */
export function numberedTable(
  table: string,
  columns: readonly string[],
  references: Record<string, Reference> = {},
): string {
  return createTable(table, ['"id" SERIAL NOT NULL', ...columns], ['id'], references);
}

/**
 * The indexes of a table of tokens: a token is found by its hash alone, and its owner's tokens by `owner`'s
 * `columns`.
 */
export function tokenIndexes(table: string, owner: string, columns: readonly string[]): string[] {
  return [
    `CREATE UNIQUE INDEX "UQ_${table}_token_hash" ON "${table}" ("token_hash")`,
    `CREATE INDEX "IDX_${table}_${owner}" ON "${table}" (${columns.map((column) => `"${column}"`).join(', ')})`,
  ];
}

/** `ALTER TABLE` of `table` adding `columns` (a line each), as the migrations lay it out. */
export function addColumns(table: string, columns: readonly string[]): string {
  return `\n      ALTER TABLE "${table}"\n${columns.map((column) => `        ADD ${column}`).join(',\n')}`;
}
