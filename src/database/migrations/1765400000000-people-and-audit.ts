import type { MigrationInterface, QueryRunner } from 'typeorm';
import { addColumns, createTable, numberedTable, tokenIndexes } from './sql/tables';
import { ALL_SCOPES } from './1765000000000-key-scopes';

/** The scopes a full key had before people came (every scope there was): such a key stays full. */
export const FULL_KEY_BEFORE = ALL_SCOPES;

/** The tables whose changes the audit log records, as the type of their target. */
const AUDITED: Record<string, string> = {
  accounts: 'account',
  links: 'link',
  spaces: 'space',
  domains: 'domain',
  pixels: 'pixel',
  api_keys: 'key',
  webhooks: 'webhook',
};

/**
 * People (contract §11): users who sign in, their memberships of workspaces (the accounts) with a role,
 * invitations and password resets (tokens stored hashed), dashboard sessions of users beside those of keys, and
 * the audit log.
 *
 * The audit log is written by triggers, in the transaction of the change, for every change of an audited table made
 * while the transaction names its actor (`shortlink.actor`, set by the service at the transaction's start): the API,
 * the dashboard and the CLI name one; the click writer, title fetches and webhook deliveries do not, and are not
 * audited. A column whose name ends in `_hash`, or `secret`, is shown as "[redacted]", under its name without the
 * suffix (`password_hash` as `password`).
 */
export class PeopleAndAudit1765400000000 implements MigrationInterface {
  name = 'PeopleAndAudit1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      numberedTable('users', [
        '"name" character varying(255) NOT NULL',
        '"email" character varying(255) NOT NULL',
        '"password_hash" character varying(255)',
        '"totp_secret" character varying(64)',
        '"totp_pending_secret" character varying(64)',
        '"totp_last_step" bigint',
        '"recovery_codes" text array NOT NULL DEFAULT \'{}\'',
        '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
        '"updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
      ]),
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_users_email" ON "users" ("email")`);
    await queryRunner.query(
      createTable(
        'memberships',
        [
          '"account_id" integer NOT NULL',
          '"user_id" integer NOT NULL',
          '"role" character varying(16) NOT NULL',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
        ],
        ['account_id', 'user_id'],
        { account_id: 'accounts', user_id: 'users' },
      ),
    );
    await queryRunner.query(`CREATE INDEX "IDX_memberships_user" ON "memberships" ("user_id")`);
    await queryRunner.query(
      numberedTable(
        'invitations',
        [
          '"account_id" integer NOT NULL',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
          '"email" character varying(255)',
          '"role" character varying(16) NOT NULL',
          '"token_hash" character(64) NOT NULL',
          '"expires_at" TIMESTAMP WITH TIME ZONE NOT NULL',
          '"ended_at" TIMESTAMP WITH TIME ZONE',
        ],
        { account_id: 'accounts' },
      ),
    );
    for (const statement of tokenIndexes('invitations', 'account', ['account_id', 'id']))
      await queryRunner.query(statement);
    await queryRunner.query(
      numberedTable(
        'password_resets',
        [
          '"user_id" integer NOT NULL',
          '"token_hash" character(64) NOT NULL',
          '"expires_at" TIMESTAMP WITH TIME ZONE NOT NULL',
          '"used_at" TIMESTAMP WITH TIME ZONE',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
        ],
        { user_id: 'users' },
      ),
    );
    for (const statement of tokenIndexes('password_resets', 'user', ['user_id']))
      await queryRunner.query(statement);
    await queryRunner.query(
      numberedTable(
        'passkeys',
        [
          '"user_id" integer NOT NULL',
          '"credential_id" character varying(1024) NOT NULL',
          '"public_key" bytea NOT NULL',
          '"counter" bigint NOT NULL DEFAULT \'0\'',
          '"transports" text array',
          '"name" character varying(100) NOT NULL',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
          '"last_used_at" TIMESTAMP WITH TIME ZONE',
        ],
        { user_id: 'users' },
      ),
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_passkeys_credential" ON "passkeys" ("credential_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_passkeys_user" ON "passkeys" ("user_id")`);
    // What a sign-in waits on between its two requests: a passkey's challenge, single sign-on's state.
    await queryRunner.query(
      numberedTable(
        'sign_in_challenges',
        [
          '"kind" character varying(16) NOT NULL',
          '"challenge" character varying(128) NOT NULL',
          '"verifier" character varying(128)',
          '"user_id" integer',
          '"expires_at" TIMESTAMP WITH TIME ZONE NOT NULL',
        ],
        { user_id: 'users' },
      ),
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_sign_in_challenges_challenge" ON "sign_in_challenges" ("challenge")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_sign_in_challenges_expires" ON "sign_in_challenges" ("expires_at")`,
    );
    // An owner may require every member to sign in with a second factor.
    await queryRunner.query(`ALTER TABLE "accounts" ADD "require_two_factor" boolean NOT NULL DEFAULT false`);

    // A session is a key's (the dashboard's key sign-in) or a user's in one of their workspaces.
    await queryRunner.query(`ALTER TABLE "api_sessions" ALTER COLUMN "key_id" DROP NOT NULL`);
    await queryRunner.query(
      addColumns('api_sessions', [
        '"user_id" integer',
        '"account_id" integer',
        '"ip" character varying(64)',
        '"user_agent" character varying(255)',
        '"second_factor" boolean NOT NULL DEFAULT false',
        'CONSTRAINT "FK_api_sessions_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE',
        'CONSTRAINT "FK_api_sessions_account" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE',
      ]),
    );
    await queryRunner.query(`CREATE INDEX "IDX_api_sessions_user" ON "api_sessions" ("user_id")`);

    // Full keys stay full: they gain the scopes that came with people.
    await queryRunner.query(
      `UPDATE "api_keys" SET "scopes" = "scopes" || ARRAY['members.read', 'members.write', 'audit.read']
        WHERE "scopes" @> $1::text[]`,
      [FULL_KEY_BEFORE],
    );

    await queryRunner.query(
      createTable(
        'audit_log',
        [
          '"id" BIGSERIAL NOT NULL',
          '"account_id" integer NOT NULL',
          '"action" character varying(64) NOT NULL',
          '"actor_type" character varying(16) NOT NULL',
          '"actor_id" integer',
          '"actor_name" character varying(255)',
          '"target_type" character varying(32) NOT NULL',
          '"target_id" integer',
          '"changes" jsonb NOT NULL',
          '"ip" character varying(64)',
          '"created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
        ],
        ['id'],
      ),
    );
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_account" ON "audit_log" ("account_id", "id")`);
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_created" ON "audit_log" ("created_at")`);

    // TG_ARGV[0]: the target's type. Columns the service keeps up by itself (counters, last use, deliveries) are
    // not changes of anyone's.
    await queryRunner.query(`
      CREATE FUNCTION "audit_change"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        actor jsonb := nullif(current_setting('shortlink.actor', true), '')::jsonb;
        old_row jsonb := CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) ELSE '{}'::jsonb END;
        new_row jsonb := CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) ELSE '{}'::jsonb END;
        row_data jsonb := CASE WHEN TG_OP = 'DELETE' THEN old_row ELSE new_row END;
        verb text := CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'updated' ELSE 'deleted' END;
        changed jsonb;
      BEGIN
        IF actor IS NULL THEN RETURN NULL; END IF;
        SELECT coalesce(jsonb_object_agg(
                 regexp_replace(f.key, '_hash$', ''),
                 CASE WHEN f.key LIKE '%\\_hash' OR f.key = 'secret'
                      THEN jsonb_build_array(
                             CASE WHEN old_row->f.key IS NULL OR old_row->f.key = 'null' THEN NULL ELSE '"[redacted]"'::jsonb END,
                             CASE WHEN new_row->f.key IS NULL OR new_row->f.key = 'null' THEN NULL ELSE '"[redacted]"'::jsonb END)
                      ELSE jsonb_build_array(old_row->f.key, new_row->f.key) END), '{}'::jsonb)
          INTO changed
          FROM (SELECT key FROM jsonb_object_keys(old_row || new_row) AS key) f
         WHERE (old_row->f.key) IS DISTINCT FROM (new_row->f.key)
           AND f.key NOT IN ('id', 'account_id', 'created_at', 'updated_at', 'last_used_at', 'failures',
                             'failing_since', 'last_status', 'last_delivery_at', 'prefix');
        IF TG_OP = 'UPDATE' THEN
          IF changed = '{}'::jsonb THEN RETURN NULL; END IF;
          -- A key is revoked, not deleted: its revocation is its deletion.
          IF changed ? 'revoked_at' AND old_row->>'revoked_at' IS NULL THEN verb := 'deleted'; END IF;
        END IF;
        INSERT INTO "audit_log" ("account_id", "action", "actor_type", "actor_id", "actor_name", "target_type",
                                 "target_id", "changes", "ip")
        VALUES (CASE WHEN TG_TABLE_NAME = 'accounts' THEN (row_data->>'id')::int ELSE (row_data->>'account_id')::int END,
                TG_ARGV[0] || '.' || verb, actor->>'type', (actor->>'id')::int, actor->>'name', TG_ARGV[0],
                (row_data->>'id')::int, changed, actor->>'ip');
        RETURN NULL;
      END $$`);
    for (const [table, target] of Object.entries(AUDITED)) {
      await queryRunner.query(
        `CREATE TRIGGER "audit_${table}" AFTER INSERT OR UPDATE OR DELETE ON "${table}"
           FOR EACH ROW WHEN (coalesce(current_setting('shortlink.actor', true), '') <> '')
           EXECUTE FUNCTION "audit_change"('${target}')`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of Object.keys(AUDITED))
      await queryRunner.query(`DROP TRIGGER "audit_${table}" ON "${table}"`);
    await queryRunner.query(`DROP FUNCTION "audit_change"()`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
    await queryRunner.query(
      `UPDATE "api_keys" SET "scopes" = array_remove(array_remove(array_remove("scopes", 'members.read'), 'members.write'), 'audit.read')`,
    );
    await queryRunner.query(`DELETE FROM "api_sessions" WHERE "key_id" IS NULL`);
    await queryRunner.query(`DROP INDEX "IDX_api_sessions_user"`);
    await queryRunner.query(`
      ALTER TABLE "api_sessions"
        DROP CONSTRAINT "FK_api_sessions_account", DROP CONSTRAINT "FK_api_sessions_user",
        DROP COLUMN "second_factor", DROP COLUMN "user_agent", DROP COLUMN "ip", DROP COLUMN "account_id", DROP COLUMN "user_id"`);
    await queryRunner.query(`ALTER TABLE "api_sessions" ALTER COLUMN "key_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "accounts" DROP COLUMN "require_two_factor"`);
    await queryRunner.query(`DROP TABLE "sign_in_challenges"`);
    await queryRunner.query(`DROP TABLE "passkeys"`);
    await queryRunner.query(`DROP TABLE "password_resets"`);
    await queryRunner.query(`DROP TABLE "invitations"`);
    await queryRunner.query(`DROP TABLE "memberships"`);
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
