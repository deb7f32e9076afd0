/**
 * Trigger functions and triggers as the migrations write them. Migrations are history, and PostgreSQL keeps a
 * function's body as it was written: what these return must never change, and a new layout is a new function.
 */

/**
 * A trigger function that runs `body`, one statement a line, and returns NULL: what a statement trigger, or an
 * AFTER trigger, returns. `declare` holds its variables; `replace` redefines one that exists.
 */
export function triggerFunction(
  name: string,
  body: readonly string[],
  { declare = [], replace = false }: { declare?: readonly string[]; replace?: boolean } = {},
): string {
  const variables = declare.length === 0 ? '' : `\n      DECLARE${lines(declare)}`;
  return `
      CREATE ${replace ? 'OR REPLACE ' : ''}FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql AS $$${variables}
      BEGIN${lines(body)}
        RETURN NULL;
      END
      $$`;
}

/** A trigger that hands `fn` the links a statement inserted or deleted, as the table `transition`. */
export function linkStatementTrigger(
  trigger: string,
  event: 'INSERT' | 'DELETE',
  transition: string,
  fn: string,
): string {
  return `
      CREATE TRIGGER "${trigger}" AFTER ${event} ON "links"
      REFERENCING ${event === 'INSERT' ? 'NEW' : 'OLD'} TABLE AS "${transition}" FOR EACH STATEMENT EXECUTE FUNCTION "${fn}"()`;
}

/** The three statement triggers that hand `fn` the links a statement inserted, updated or deleted. */
export function linkStatementTriggers(prefix: string, fn: string): string[] {
  return [
    linkStatementTrigger(`${prefix}_insert`, 'INSERT', 'new_links', fn),
    linkUpdateTrigger(`${prefix}_update`, fn),
    linkStatementTrigger(`${prefix}_delete`, 'DELETE', 'old_links', fn),
  ];
}

/** A trigger that hands `fn` the links a statement updated, as they were (`old_links`) and are (`new_links`). */
export function linkUpdateTrigger(trigger: string, fn: string): string {
  return `
      CREATE TRIGGER "${trigger}" AFTER UPDATE ON "links"
      REFERENCING OLD TABLE AS "old_links" NEW TABLE AS "new_links"
      FOR EACH STATEMENT EXECUTE FUNCTION "${fn}"()`;
}

/**
 * A function and the trigger that calls it, which announce every change to `table` on the channel `visit_cache`
 * under the table's name: each instance drops what it keeps of the table.
 */
export function announceChanges(table: string, fn: string): string[] {
  return [
    triggerFunction(fn, [`PERFORM pg_notify('visit_cache', '${table}');`]),
    `
      CREATE TRIGGER "TR_${table}_announce" AFTER INSERT OR UPDATE OR DELETE ON "${table}"
      FOR EACH STATEMENT EXECUTE FUNCTION "${fn}"()`,
  ];
}

/** Statements of a function's body, a line each, under its BEGIN or DECLARE. */
function lines(statements: readonly string[]): string {
  return statements.map((statement) => `\n        ${statement}`).join('');
}
