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
    `
      CREATE TABLE "${table}" (
        "id" SERIAL NOT NULL,
        "account_id" integer NOT NULL,
        "name" character varying(255) NOT NULL,${columns.map((column) => `\n        ${column},`).join('')}
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_${table}" PRIMARY KEY ("id"),
        CONSTRAINT "FK_${table}_account" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
      )`,
    `CREATE UNIQUE INDEX "UQ_${table}_account_name" ON "${table}" ("account_id", lower("name"))`,
    `CREATE INDEX "IDX_${table}_account_id" ON "${table}" ("account_id", "id")`,
  ];
}
