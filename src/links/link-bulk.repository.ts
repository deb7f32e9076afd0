import { Injectable } from '@nestjs/common';
import type { Owner } from '../auth/owner';
import { returnedRows } from '../database/returned-rows';
import type { Transaction } from '../database/transactions';

/** A link a bulk change or delete reached: its id, and where visits find it (for the caches). */
export interface ReachedLink {
  id: number;
  domain_id: number;
  alias: string;
}

/** The columns a bulk change writes to every link; each absent one is left as it is. */
export interface BulkColumns {
  spaceId?: number | null;
  archived?: boolean;
}

/**
 * The set-based statements of bulk changes and deletes: a few statements for any number of links, so that 1,000 links
 * cost a statement each way, not 1,000. The links are locked first, by a statement of their own: a write joined to a
 * locking subquery is planned from the estimate of one row for it (a nested loop over every link of the account
 * for each one, 0.4 s for 1,000 links), where `id = ANY` alone is read through the primary key. The statement
 * triggers on `links` (counts, notices to the caches) run once for the whole set.
 */
@Injectable()
export class LinkBulkRepository {
  /**
   * Locks the owner's links among `ids` (of its account, within a restricted key's spaces) in `tx`, in id order, and
   * returns their ids in that order: two bulk requests over the same links take their locks in the same order, so
   * neither can deadlock the other. A delete takes the lock a delete takes, a change the weaker one an update of
   * no key takes. The account is compared as
   * `account_id + 0`, which no index serves: the ids are found through the primary key, never by reading every
   * link of the account to find them.
   */
  async lock(tx: Transaction, owner: Owner, ids: number[], forDelete: boolean): Promise<number[]> {
    const values: unknown[] = [ids, owner.accountId];
    let reach = '';
    if (owner.spaceIds !== null) {
      values.push(owner.spaceIds);
      reach = 'AND space_id = ANY($3::int[])';
    }
    const rows = await tx.query<{ id: number }[]>(
      `SELECT id FROM links WHERE id = ANY($1::int[]) AND account_id + 0 = $2 ${reach}
        ORDER BY id ${forDelete ? 'FOR UPDATE' : 'FOR NO KEY UPDATE'}`,
      values,
    );
    return rows.map((row) => row.id);
  }

  /**
   * Writes `columns` to the links `ids` in `tx`, and stamps them updated (a link whose tags alone change is updated
   * too); returns them. `ids` are links {@link lock} locked in this transaction: the owner's, until it ends.
   */
  async update(tx: Transaction, ids: number[], columns: BulkColumns): Promise<ReachedLink[]> {
    const values: unknown[] = [ids];
    const set = ['updated_at = now()'];
    if (columns.spaceId !== undefined) {
      values.push(columns.spaceId);
      set.push(`space_id = $${values.length}::int`);
    }
    if (columns.archived !== undefined) {
      values.push(columns.archived);
      set.push(`archived = $${values.length}::boolean`);
    }
    return returnedRows<ReachedLink>(
      tx.query(
        `UPDATE links SET ${set.join(', ')} WHERE id = ANY($1::int[]) RETURNING id, domain_id, alias`,
        values,
      ),
    );
  }

  /**
   * Deletes the links `ids` in `tx` (their clicks, pixels and tags go with them, by the schema's triggers and keys);
   * returns them. `ids` are links {@link lock} locked in this transaction.
   */
  async remove(tx: Transaction, ids: number[]): Promise<ReachedLink[]> {
    return returnedRows<ReachedLink>(
      tx.query('DELETE FROM links WHERE id = ANY($1::int[]) RETURNING id, domain_id, alias', [ids]),
    );
  }

  /** The names of each link's tags, in the order given, by link id, read in `tx`: one query for any number. */
  async tagNames(tx: Transaction, linkIds: number[]): Promise<Map<number, string[]>> {
    const rows = await tx.query<{ link_id: number; names: string[] }[]>(
      `SELECT lt.link_id, array_agg(t.name ORDER BY lt.position) AS names
         FROM link_tags lt JOIN tags t ON t.id = lt.tag_id
        WHERE lt.link_id = ANY($1::int[]) GROUP BY lt.link_id`,
      [linkIds],
    );
    return new Map(rows.map((row) => [row.link_id, row.names]));
  }
}
