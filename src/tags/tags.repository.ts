import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import type { Owner } from '../auth/owner';
import { QuotaKind } from '../common/account-quota';
import type { Page } from '../common/pagination';
import { AccountRows } from '../database/account-rows.repository';
import { listed, type ListColumns } from '../database/list';
import { rowQuota, type CountedQuota } from '../database/quota.repository';
import type { Transaction } from '../database/transactions';
import type { TagListQueryDto } from './dto/tag-list-query.dto';
import { Tag } from './tag.entity';

const TAG_COLUMNS: ListColumns<'name', 'id' | 'name'> = {
  search: { name: 'tag.name' },
  sort: { name: 'lower(tag.name)' },
};

/** A tag as a link shows it: its id and its name as first written. */
export interface TagName {
  id: number;
  name: string;
}

/** The tags of one link, in the order given. */
export interface LinkTagIds {
  linkId: number;
  tagIds: number[];
}

/**
 * A workspace's tags, each read with the number of links holding it, and the `link_tags` rows that attach them.
 */
@Injectable()
export class TagsRepository extends AccountRows(Tag, { kind: QuotaKind.Tags, table: 'tags' }) {
  /** A page of the account's tags and their total, counted within the owner's reach. */
  async list(owner: Owner, query: TagListQueryDto): Promise<Page<Tag>> {
    const builder = listed(this.owned(owner.accountId), TAG_COLUMNS, query);
    const total = await builder.getCount();
    return { items: await this.withLinksCount(owner, await builder.getMany()), total };
  }

  /** One of the account's tags, with its links counted within the owner's reach when asked; null if none. */
  async findOwned(owner: Owner, id: number, counted = false): Promise<Tag | null> {
    const tag = await this.owned(owner.accountId).andWhere('tag.id = :id', { id }).getOne();
    if (tag === null || !counted) return tag;
    const [withCount] = await this.withLinksCount(owner, [tag]);
    return withCount;
  }

  /** Whether the account's tag was there to delete; its links lose it (ON DELETE CASCADE). */
  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.changed((rows) => rows.delete({ id, accountId }));
    return (result.affected ?? 0) > 0;
  }

  /**
   * The account's tags of these names (regardless of case), made in `tx` where missing: one per name, as first
   * written, by lower-case name. A tag another transaction makes at the same moment is waited for by the insert
   * and read by the next statement, which sees its commit.
   */
  async ensure(tx: Transaction, accountId: number, names: string[]): Promise<Map<string, TagName>> {
    const byName = new Map<string, TagName>();
    let missing = distinctNames(names);
    for (let round = 0; round < 3 && missing.length > 0; round += 1) {
      const rows = await tx.query<TagName[]>(
        `WITH given AS (SELECT DISTINCT ON (lower(n)) n AS name FROM unnest($2::text[]) n ORDER BY lower(n)),
              made AS (INSERT INTO tags (account_id, name) SELECT $1, name FROM given
                        ON CONFLICT (account_id, lower(name)) DO NOTHING RETURNING id, name)
         SELECT id, name FROM made
         UNION ALL
         SELECT t.id, t.name FROM tags t WHERE t.account_id = $1 AND lower(t.name) IN (SELECT lower(name) FROM given)`,
        [accountId, missing],
      );
      for (const row of rows) byName.set(row.name.toLowerCase(), row);
      missing = missing.filter((name) => !byName.has(name.toLowerCase()));
    }
    if (missing.length > 0) throw new Error('tags could not be made');
    return byName;
  }

  /** Refuses, in `tx`, tags past the account's limit, with a 422 on `field`. */
  async checkTagQuota(tx: Transaction, limit: number, accountId: number, field: string): Promise<void> {
    await this.quotas.check(tx, { ...tagQuota(limit), field }, accountId);
  }

  /** Each link's tags become exactly its `tagIds`, in that order, in `tx`: one statement each way. */
  async replace(tx: Transaction, links: LinkTagIds[]): Promise<void> {
    if (links.length === 0) return;
    await tx.query('DELETE FROM link_tags WHERE link_id = ANY($1::int[])', [
      links.map((link) => link.linkId),
    ]);
    const rows = links.flatMap(({ linkId, tagIds }) =>
      tagIds.map((tagId, position) => ({ link_id: linkId, tag_id: tagId, position })),
    );
    if (rows.length === 0) return;
    await tx.query(
      `INSERT INTO link_tags (link_id, tag_id, position)
       SELECT r.link_id, r.tag_id, r.position FROM jsonb_to_recordset($1::jsonb) AS r(link_id int, tag_id int, position int)`,
      [JSON.stringify(rows)],
    );
  }

  /** The names of each link's tags, by link id, in the order given: one query for any number of links. */
  async namesByLink(linkIds: number[]): Promise<Map<number, string[]>> {
    const byLink = new Map<number, string[]>();
    if (linkIds.length === 0) return byLink;
    const rows = await this.rows.query<{ link_id: number; names: string[] }[]>(
      `SELECT lt.link_id, array_agg(t.name ORDER BY lt.position) AS names
         FROM link_tags lt JOIN tags t ON t.id = lt.tag_id
        WHERE lt.link_id = ANY($1::int[]) GROUP BY lt.link_id`,
      [linkIds],
    );
    for (const row of rows) byLink.set(row.link_id, row.names);
    return byLink;
  }

  /** The ids of the account's tags of these names, regardless of case; names no tag has are left out. */
  async idsByNames(accountId: number, names: string[]): Promise<number[]> {
    const rows = await this.rows.query<{ id: number }[]>(
      'SELECT id FROM tags WHERE account_id = $1 AND lower(name) = ANY($2::text[])',
      [accountId, names.map((name) => name.toLowerCase())],
    );
    return rows.map((row) => row.id);
  }

  private owned(accountId: number): SelectQueryBuilder<Tag> {
    return this.rows.createQueryBuilder('tag').where('tag.account_id = :accountId', { accountId });
  }

  /**
   * The tags, each with the number of links holding it, read from the tag's index of `link_tags`; for a key
   * restricted to spaces, only the links in those spaces count.
   */
  private async withLinksCount(owner: Owner, tags: Tag[]): Promise<Tag[]> {
    if (tags.length === 0) return tags;
    const ids = tags.map((tag) => tag.id);
    const rows =
      owner.spaceIds === null
        ? await this.rows.query<{ tag_id: number; links: number }[]>(
            `SELECT tag_id, count(*)::int AS links FROM link_tags WHERE tag_id = ANY($1::int[]) GROUP BY tag_id`,
            [ids],
          )
        : await this.rows.query<{ tag_id: number; links: number }[]>(
            `SELECT lt.tag_id, count(*)::int AS links FROM link_tags lt JOIN links l ON l.id = lt.link_id
              WHERE lt.tag_id = ANY($1::int[]) AND l.space_id = ANY($2::int[]) GROUP BY lt.tag_id`,
            [ids, owner.spaceIds],
          );
    const counts = new Map(rows.map((row) => [row.tag_id, row.links]));
    for (const tag of tags) tag.linksCount = counts.get(tag.id) ?? 0;
    return tags;
  }
}

/** The names without repeats regardless of case, the first spelling kept, in the order given. */
export function distinctNames(names: readonly string[]): string[] {
  const first = new Map<string, string>();
  for (const name of names) if (!first.has(name.toLowerCase())) first.set(name.toLowerCase(), name);
  return [...first.values()];
}

function tagQuota(limit: number): CountedQuota {
  return rowQuota(QuotaKind.Tags, limit, 'tags');
}
