import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntitySubscriberInterface, type TransactionStartEvent } from 'typeorm';
import { currentActor, type Actor } from '../common/actor';
import type { Page, PageRequest } from '../common/pagination';
import { cursorRows } from '../database/cursor';
import { DATABASE_CONNECTION, type DatabaseConnection } from '../database/database.module';
import { returnedRows } from '../database/returned-rows';
import type { Transaction } from '../database/transactions';
import type { AuditListQueryDto } from './dto/audit-list-query.dto';

/** An entry as the API shows it, columns by name. */
export interface AuditRow {
  id: string;
  action: string;
  actor_type: Actor['type'];
  actor_id: number | null;
  actor_name: string | null;
  target_type: string;
  target_id: number | null;
  changes: Record<string, [unknown, unknown]>;
  ip: string | null;
  created_at: Date;
}

/** What the service records itself: what has no table of its own that a trigger watches. */
export interface AuditRecord {
  accountId: number;
  action: string;
  target: { type: string; id: number | null };
  changes?: Record<string, [unknown, unknown]>;
}

const COLUMNS =
  'id, action, actor_type, actor_id, actor_name, target_type, target_id, changes, ip, created_at';

/**
 * The audit log. Every transaction opened while an actor is known (an API request once authenticated, a CLI
 * command) names it to the database first (`shortlink.actor`, for the transaction only), where the audited tables'
 * triggers read it: a change and its entry commit together, or neither does.
 */
@Injectable()
export class AuditRepository implements EntitySubscriberInterface, OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection,
  ) {}

  onModuleInit(): void {
    // A subscriber known to the data source hears every transaction start, whichever module opens it.
    if (!this.dataSource.subscribers.includes(this)) this.dataSource.subscribers.push(this);
  }

  async afterTransactionStart(event: TransactionStartEvent): Promise<void> {
    const actor = currentActor();
    if (actor === null) return;
    await event.queryRunner.query(`SELECT set_config('shortlink.actor', $1, true)`, [JSON.stringify(actor)]);
  }

  /** Records an entry in `tx`, as the work under way's actor (the service itself when none is known). */
  async record(tx: Transaction, entry: AuditRecord): Promise<void> {
    const actor = currentActor() ?? { type: 'system', id: null, name: null, ip: null };
    await tx.query(
      `INSERT INTO audit_log (account_id, action, actor_type, actor_id, actor_name, target_type, target_id, changes, ip)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        entry.accountId,
        entry.action,
        actor.type,
        actor.id,
        actor.name,
        entry.target.type,
        entry.target.id,
        JSON.stringify(entry.changes ?? {}),
        actor.ip,
      ],
    );
  }

  async page(accountId: number, query: AuditListQueryDto, request: PageRequest): Promise<Page<AuditRow>> {
    const { where, values } = conditions(accountId, query);
    const [items, [{ total }]] = await Promise.all([
      this.dataSource.query<AuditRow[]>(
        `SELECT ${COLUMNS} FROM audit_log WHERE ${where} ORDER BY id ${query.direction()}
          LIMIT ${request.perPage} OFFSET ${(request.page - 1) * request.perPage}`,
        values,
      ),
      this.dataSource.query<{ total: number }[]>(
        `SELECT count(*)::int AS total FROM audit_log WHERE ${where}`,
        values,
      ),
    ]);
    return { items, total };
  }

  /** Every entry the query selects, newest first, `chunk` at a time through a database cursor. */
  rows(accountId: number, query: AuditListQueryDto, chunk: number): AsyncGenerator<AuditRow[]> {
    const { where, values } = conditions(accountId, query);
    return cursorRows<AuditRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM audit_log WHERE ${where} ORDER BY id DESC`,
      values,
      chunk,
      this.connection,
    );
  }

  /** Removes up to `limit` entries made before `before`; how many went. */
  async prune(before: Date, limit: number): Promise<number> {
    const rows = await returnedRows(
      this.dataSource.query(
        `DELETE FROM audit_log WHERE id IN (
           SELECT id FROM audit_log WHERE created_at < $1 ORDER BY created_at LIMIT $2) RETURNING id`,
        [before, limit],
      ),
    );
    return rows.length;
  }
}

/** The WHERE of a query's filters, over the account's entries. */
function conditions(accountId: number, query: AuditListQueryDto): { where: string; values: unknown[] } {
  const values: unknown[] = [accountId];
  const where = ['account_id = $1'];
  const add = (sql: string, value: unknown) => {
    values.push(value);
    where.push(sql.replace('?', `$${values.length}`));
  };
  if (query.action != null) add('action = ?', query.action);
  if (query.actor_type != null) add('actor_type = ?', query.actor_type);
  if (query.target_type != null) add('target_type = ?', query.target_type);
  if (query.target_id != null) add('target_id = ?', query.target_id);
  if (query.from != null) add('created_at >= ?', query.from);
  if (query.to != null) add('created_at < ?', new Date(query.to.getTime() + 86_400_000));
  return { where: where.join(' AND '), values };
}
