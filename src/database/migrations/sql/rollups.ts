import { createTable } from './tables';
import { linkStatementTrigger, triggerFunction } from './triggers';

/**
 * The rollups that links share (a workspace's, a space's), as the migrations that keep them write them. Migrations
 * are history, and PostgreSQL keeps a function's body as it was written: what these return must never change, and
 * a new layout is a new function.
 */

/** A `click_days` row's value (alias `d`) as the shared rollups key it: a target's own url per link. */
export const SHARED_VALUE = `CASE WHEN d."dimension" = 9 AND d."value" = 0 THEN -d."link_id" ELSE d."value" END`;

/** The key columns of each shared rollup after the account, and the type of each. */
const KEYS = {
  account_click_hours: { columns: ['hour'], types: ['timestamptz'] },
  account_click_days: { columns: ['dimension', 'day', 'value'], types: ['smallint', 'date', 'integer'] },
  space_click_hours: { columns: ['space_id', 'hour'], types: ['integer', 'timestamptz'] },
  space_click_days: {
    columns: ['space_id', 'dimension', 'day', 'value'],
    types: ['integer', 'smallint', 'date', 'integer'],
  },
} as const;
export type SharedRollup = keyof typeof KEYS;

/** Whose clicks a shared rollup sums: an account's links, or those of an account's space. */
export type SharedLevel = 'account' | 'space';

/** A level's rollups: hours, then days, the order in which every writer locks their rows. */
export function rollupsOf(level: SharedLevel): [SharedRollup, SharedRollup] {
  return [`${level}_click_hours`, `${level}_click_days`];
}

/** What keys a level's rows before a link's own columns, selected from a link aliased `l`. */
const OWNERS: Record<SharedLevel, string> = {
  account: 'l."account_id"',
  space: 'l."account_id", COALESCE(l."space_id", 0) AS "space_id"',
};

/** A shared rollup's key: the account, then its own columns, quoted. */
function keyOf(table: SharedRollup): string[] {
  return ['account_id', ...KEYS[table].columns].map((column) => `"${column}"`);
}

/**
 * A shared rollup's table: keyed by the account, then the columns of its links' key after the link; filled up to
 * 90%, as those are. `bigint`: it adds up the clicks of many links.
 */
export function sharedRollupTable(table: SharedRollup): string {
  const { columns, types } = KEYS[table];
  return `${createTable(
    table,
    [
      '"account_id" integer NOT NULL',
      ...columns.map((column, index) => `"${column}" ${types[index]} NOT NULL`),
      '"clicks" bigint NOT NULL',
    ],
    ['account_id', ...columns],
  )} WITH (fillfactor = 90)`;
}

/** The variables that hold the keys of a shared rollup's rows left at zero. */
function emptiedOf(table: SharedRollup): string[] {
  return ['account_id', ...KEYS[table].columns].map((column) => `emptied_${table}_${column}`);
}

/** What the functions that add to a level's rollups declare: the keys of the rows they leave at zero. */
export function emptiedIn(level: SharedLevel): string[] {
  return rollupsOf(level).flatMap((table) =>
    emptiedOf(table).map(
      (name, index) => `${name} ${index === 0 ? 'integer' : KEYS[table].types[index - 1]}[];`,
    ),
  );
}

/**
 * Adds `changes` (a query of the table's key columns and `clicks`) to a shared rollup, in key order as the click
 * statements do so that writers lock shared rows in the same order, then removes the rows it left at zero: two
 * statements of a plpgsql body.
 */
export function addToShared(table: SharedRollup, changes: string): string[] {
  const key = keyOf(table);
  const emptied = emptiedOf(table);
  return [
    `WITH applied AS (
          INSERT INTO "${table}" AS a (${key.join(', ')}, "clicks")
          SELECT ${key.join(', ')}, sum("clicks") FROM (${changes}) c GROUP BY ${key.join(', ')} HAVING sum("clicks") <> 0
           ORDER BY ${key.join(', ')}
          ON CONFLICT (${key.join(', ')}) DO UPDATE SET "clicks" = a."clicks" + excluded."clicks"
          RETURNING ${key.map((column) => `a.${column}`).join(', ')}, a."clicks")
        SELECT ${key.map((column) => `array_agg(${column})`).join(', ')} INTO ${emptied.join(', ')}
          FROM applied WHERE "clicks" = 0;`,
    `DELETE FROM "${table}" a USING unnest(${emptied.join(', ')}) AS e(${key.join(', ')})
         WHERE ${key.map((column) => `a.${column} = e.${column}`).join(' AND ')} AND a."clicks" = 0;`,
  ];
}

/**
 * The function and the trigger that add a row inserted into the `clicks` view to a level's rollups, after
 * `record_click` (triggers run in name order) made its profile and locked its counter row: keyed by what that row
 * names (the columns of their key before the hour). Hours first, then days in dimension order, as batches write them.
 */
export function recordClicksIn(level: SharedLevel): string[] {
  const [hours, days] = rollupsOf(level);
  const hourKey = keyOf(hours);
  const from = hourKey
    .slice(0, -1)
    .map((column) => `c.${column}`)
    .join(', ');
  const fn = `record_click_in_${level}`;
  return [
    `
      CREATE FUNCTION "${fn}"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        profile integer;
      BEGIN
        profile := click_profile_id(NEW."referrer", NEW."country", NEW."city", NEW."continent", NEW."browser",
                                    NEW."operating_system", NEW."device", NEW."language");
        INSERT INTO "${hours}" AS h (${hourKey.join(', ')}, "clicks")
        SELECT ${from}, date_bin('1 hour', NEW."created_at", '2000-01-01 00:00:00+00'), 1
          FROM "link_counters" c WHERE c."link_id" = NEW."link_id"
        ON CONFLICT (${hourKey.join(', ')}) DO UPDATE SET "clicks" = h."clicks" + 1;
        INSERT INTO "${days}" AS d (${keyOf(days).join(', ')}, "clicks")
        SELECT ${from}, pd."dimension", (NEW."created_at" AT TIME ZONE 'UTC')::date, pd."value", 1
          FROM "link_counters" c JOIN "click_profile_dimensions" pd ON pd."profile_id" = profile
         WHERE c."link_id" = NEW."link_id"
         ORDER BY pd."dimension"
        ON CONFLICT (${keyOf(days).join(', ')}) DO UPDATE SET "clicks" = d."clicks" + 1;
        RETURN NEW;
      END
      $$`,
    `
      CREATE TRIGGER "TR_clicks_record_in_${level}" INSTEAD OF INSERT ON "clicks" FOR EACH ROW
      EXECUTE FUNCTION "${fn}"()`,
  ];
}

/**
 * The function, and the statement trigger `trigger` that calls it, that take the rollups of the links a statement
 * deleted out of their level's: named to run before `TR_links_delete_clicks` deletes them.
 */
export function rollupsOutOf(level: SharedLevel, trigger: string): string[] {
  const [hours, days] = rollupsOf(level);
  const fn = `click_rollups_out_of_${level}s`;
  return [
    triggerFunction(
      fn,
      [
        ...addToShared(
          hours,
          `SELECT ${OWNERS[level]}, h."hour", -h."clicks" AS "clicks"
                 FROM "click_hours" h JOIN "deleted_links" l ON l."id" = h."link_id"`,
        ),
        ...addToShared(
          days,
          `SELECT ${OWNERS[level]}, d."dimension", d."day", ${SHARED_VALUE} AS "value", -d."clicks" AS "clicks"
                 FROM "click_days" d JOIN "deleted_links" l ON l."id" = d."link_id"`,
        ),
      ],
      { declare: emptiedIn(level) },
    ),
    linkStatementTrigger(trigger, 'DELETE', 'deleted_links', fn),
  ];
}

/**
 * What reverts a level's rollups: the trigger that moves them with their links (`TR_links_rollups_<level>`), the
 * delete trigger `deleteTrigger`, the view's trigger, each with its function, then the tables.
 */
export function dropShared(level: SharedLevel, deleteTrigger: string): string[] {
  return [
    ...[
      [`TR_links_rollups_${level}`, 'links', `click_rollups_follow_${level}`],
      [deleteTrigger, 'links', `click_rollups_out_of_${level}s`],
      [`TR_clicks_record_in_${level}`, 'clicks', `record_click_in_${level}`],
    ].flatMap(([trigger, table, fn]) => [
      `DROP TRIGGER "${trigger}" ON "${table}"`,
      `DROP FUNCTION "${fn}"()`,
    ]),
    ...rollupsOf(level)
      .reverse()
      .map((table) => `DROP TABLE "${table}"`),
  ];
}
