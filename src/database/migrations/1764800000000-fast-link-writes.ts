import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The links quota checked by one call, so that a link create is one statement, its own transaction.
 *
 * `links_within_quota(lock_key, account, max_links, adding)` takes the account's quota lock, then counts what the
 * account holds as a statement of its own: in a volatile function each statement takes a fresh snapshot, so the
 * count sees every transaction that held the lock before, as the lock and the count sent one after the other did.
 * `adding` is what the calling statement inserts, which its statement triggers have not yet added to
 * `link_count_changes`. Past `max_links` it raises SQLSTATE LQ001 with the total as its detail; 0 means no limit.
 *
 * A create used to take five round trips inside its transaction (begin, insert, lock, count, commit), the last
 * three while holding the lock that every other create of the account waits for. Called from the insert itself,
 * the lock is held from there to the commit, with no round trip to the client in between.
 */
export class FastLinkWrites1764800000000 implements MigrationInterface {
  name = 'FastLinkWrites1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION "links_within_quota"(lock_key integer, account integer, max_links integer, adding integer)
      RETURNS integer LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        total integer;
      BEGIN
        IF max_links = 0 THEN
          RETURN NULL;
        END IF;
        PERFORM pg_advisory_xact_lock(lock_key, account);
        SELECT (SELECT COALESCE(sum(c."links"), 0) FROM "link_counts" c WHERE c."account_id" = account)
             + (SELECT COALESCE(sum(x."links"), 0) FROM "link_count_changes" x
                 WHERE x."xid" = pg_current_xact_id() AND x."account_id" = account)
             + adding
          INTO total;
        IF total > max_links THEN
          RAISE EXCEPTION 'account % would hold % links, past its limit of %', account, total, max_links
            USING ERRCODE = 'LQ001', DETAIL = total;
        END IF;
        RETURN total;
      END
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION "links_within_quota"(integer, integer, integer, integer)`);
  }
}
