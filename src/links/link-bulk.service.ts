import { Injectable } from '@nestjs/common';
import { AuditRepository } from '../audit/audit.repository';
import type { Owner } from '../auth/owner';
import { ClickWriter } from '../clicks/click-writer';
import { ValidationFailedException, type FieldErrors } from '../common/exceptions';
import { ChangeFeed } from '../database/change-feed';
import { Transactions, type Transaction } from '../database/transactions';
import { EventOutbox, type PendingEvents } from '../events/outbox/event-outbox';
import { SpacesService } from '../spaces/spaces.service';
import { MAX_LINK_TAGS } from '../tags/tag.entity';
import { distinctNames, TagsService } from '../tags/tags.service';
import type { BulkLinkChangesDto, BulkLinks } from './dto/link-bulk.dto';
import { LinkBulkRepository, type BulkColumns, type ReachedLink } from './link-bulk.repository';
import { linkChange } from './link-cache';
import type { LinkListFilter } from './link-list.repository';
import { LinkListService } from './link-list.service';
import { LinkResponses } from './link-responses';
import { sent } from './link-rules';
import { checkSpace } from './links.service';

/**
 * The most links a bulk request's filter may find: its change is one transaction, holding their locks and writing
 * an event and an audit entry each, and its answer waits for their events' data. Past it, a 422 on `filter`.
 */
export const MAX_FILTERED_LINKS = 10_000;

/**
 * Links written by one statement of a bulk change (and whose events are given their data at a time, after the
 * commit): every statement stays far within the statement timeout (3 s by default) whatever the number of links,
 * each link's audit entry and deleted clicks included, and the transaction is still one.
 */
const CHUNK = 1000;

/** Ids a refusal quotes before it counts the rest. */
const QUOTED_IDS = 10;

/** The audit log's `changes` of a bulk request: each detail as `[null, value]`, the shape of every entry's. */
type AuditDetails = Record<string, [null, unknown]>;

/** Tags a bulk change adds and takes off, without repeats regardless of case. */
interface Retagging {
  add: string[];
  remove: string[];
}

const lower = (name: string) => name.toLowerCase();

/**
 * Changes and deletes of many links at once (contract §14), named by id or by the list's filters: one transaction
 * and a few set-based statements for any number of links, all or nothing. Each link changes as a single update or
 * delete changes it (its own audit entry from the table's trigger, its event in the outbox, the caches told), and
 * the request itself is one more audit entry, `link.bulk_updated` or `link.bulk_deleted`.
 */
@Injectable()
export class LinkBulkService {
  constructor(
    private readonly repository: LinkBulkRepository,
    private readonly lists: LinkListService,
    private readonly spaces: SpacesService,
    private readonly tags: TagsService,
    private readonly responses: LinkResponses,
    private readonly transactions: Transactions,
    private readonly outbox: EventOutbox,
    private readonly audit: AuditRepository,
    private readonly clicks: ClickWriter,
    private readonly feed: ChangeFeed,
  ) {}

  /** Applies `changes` to every link named; answers how many links that is. */
  async update(owner: Owner, links: BulkLinks, changes: BulkLinkChangesDto): Promise<number> {
    const { accountId } = owner;
    const columns: BulkColumns = {};
    if (sent(changes.space_id)) columns.spaceId = await this.checkSpace(owner, changes.space_id);
    if (sent(changes.archived)) columns.archived = changes.archived;
    const retagging = {
      add: distinctNames(changes.tags_add ?? []),
      remove: distinctNames(changes.tags_remove ?? []),
    };
    const filter = 'filter' in links ? await this.lists.changeFilter(owner, links.filter) : null;
    const eventsWanted = await this.outbox.wants(accountId, 'link.updated');
    const pending: PendingEvents = [];
    const updated = await this.transactions.run(async (tx) => {
      const reachedIds = await this.repository.lock(tx, owner, await this.idsOf(tx, links, filter), false);
      refuseUnreached(links, reachedIds);
      if (reachedIds.length === 0) return [];
      const rows: ReachedLink[] = [];
      for (const ids of chunks(reachedIds)) {
        rows.push(...(await this.repository.update(tx, ids, columns)));
        await this.retag(tx, accountId, ids, retagging);
        if (eventsWanted) pending.push(...(await this.outbox.record(tx, accountId, 'link.updated', ids)));
      }
      await this.audit.record(tx, {
        accountId,
        action: 'link.bulk_updated',
        target: { type: 'link', id: null },
        changes: {
          ...requestDetails(links, reachedIds),
          ...(columns.spaceId === undefined ? {} : { space_id: [null, columns.spaceId] }),
          ...(columns.archived === undefined ? {} : { archived: [null, columns.archived] }),
          ...(changes.tags_add === undefined ? {} : { tags_add: [null, retagging.add] }),
          ...(changes.tags_remove === undefined ? {} : { tags_remove: [null, retagging.remove] }),
          updated: [null, rows.length],
        },
      });
      return rows;
    });
    this.announce(updated);
    await this.complete(accountId, pending);
    return updated.length;
  }

  /** Deletes every link named; answers how many links that is. */
  async remove(owner: Owner, links: BulkLinks): Promise<number> {
    const { accountId } = owner;
    const filter = 'filter' in links ? await this.lists.changeFilter(owner, links.filter) : null;
    const eventsWanted = await this.outbox.wants(accountId, 'link.deleted');
    const deleted = await this.transactions.run(async (tx) => {
      const reachedIds = await this.repository.lock(tx, owner, await this.idsOf(tx, links, filter), true);
      refuseUnreached(links, reachedIds);
      if (reachedIds.length === 0) return [];
      const rows: ReachedLink[] = [];
      for (const ids of chunks(reachedIds)) {
        rows.push(...(await this.repository.remove(tx, ids)));
        if (eventsWanted) await this.outbox.recordDeleted(tx, accountId, ids);
      }
      await this.audit.record(tx, {
        accountId,
        action: 'link.bulk_deleted',
        target: { type: 'link', id: null },
        changes: { ...requestDetails(links, reachedIds), deleted: [null, rows.length] },
      });
      return rows;
    });
    // Visits on this instance miss the links at once; the others hear the table's notices on commit.
    this.announce(deleted);
    return deleted.length;
  }

  /** The ids a request names, or those its filter finds in `tx` (a 422 on `filter` past the most it may find). */
  private async idsOf(tx: Transaction, links: BulkLinks, filter: LinkListFilter | null): Promise<number[]> {
    if ('ids' in links) return links.ids;
    const found = await this.lists.foundIds(tx, filter!, MAX_FILTERED_LINKS + 1);
    if (found.length > MAX_FILTERED_LINKS) {
      throw ValidationFailedException.of(
        'filter',
        `The filter finds more than ${MAX_FILTERED_LINKS.toLocaleString('en')} links: narrow it, or change them ` +
          'in several requests.',
      );
    }
    return found;
  }

  /** The space every link moves to (null: none), checked as a single update checks it. */
  private async checkSpace(owner: Owner, spaceId: number | null): Promise<number | null> {
    const owned =
      spaceId === null || spaceId === 0 ? new Set<number>() : await this.spaces.ownedIds(owner, [spaceId]);
    const errors: FieldErrors = {};
    const checked = checkSpace(owned, owner.spaceIds !== null, spaceId, errors);
    if (errors.space_id !== undefined) {
      throw new ValidationFailedException({ 'changes.space_id': errors.space_id });
    }
    return checked;
  }

  /**
   * Adds and takes off tags, in `tx`: each link keeps its other tags in their order, the added ones after them,
   * each once. A link that would hold more than a link may is a 422 on `changes.tags_add`; only the links whose
   * tags change are written, through the tags' own writes (new names make tags, within the workspace's quota).
   */
  private async retag(
    tx: Transaction,
    accountId: number,
    linkIds: number[],
    { add, remove }: Retagging,
  ): Promise<void> {
    if (add.length === 0 && remove.length === 0) return;
    const current = await this.repository.tagNames(tx, linkIds);
    const removed = new Set(remove.map(lower));
    const changed: { linkId: number; names: string[] }[] = [];
    const overfull: number[] = [];
    for (const linkId of linkIds) {
      const names = current.get(linkId) ?? [];
      const kept = names.filter((name) => !removed.has(lower(name)));
      const held = new Set(kept.map(lower));
      const next = [...kept, ...add.filter((name) => !held.has(lower(name)))];
      if (next.length > MAX_LINK_TAGS) overfull.push(linkId);
      else if (next.map(lower).join('\u0000') !== names.map(lower).join('\u0000')) {
        changed.push({ linkId, names: next });
      }
    }
    if (overfull.length > 0) {
      throw ValidationFailedException.of(
        'changes.tags_add',
        `A link holds at most ${MAX_LINK_TAGS} tags: ${quoted(overfull)} would hold more.`,
      );
    }
    if (changed.length > 0) await this.tags.tagLinks(tx, accountId, changed, 'changes.tags_add');
  }

  /** Every instance's caches drop the links: this one's at once (it reads its own writes). */
  private announce(links: ReachedLink[]): void {
    for (const link of links) this.feed.publish(linkChange(link.domain_id, link.alias));
  }

  /** The updated links' events given their data, each link as the API shows it now, a chunk at a time. */
  private async complete(accountId: number, pending: PendingEvents): Promise<void> {
    for (const chunk of chunks(pending)) {
      const linkIds = chunk.map((event) => event.link_id);
      // What the events show counts every visit this instance answered, as a show does.
      await this.clicks.settle(linkIds);
      const responses = await this.responses.ofIds(accountId, linkIds);
      const byId = new Map(responses.map((response) => [response.id, response]));
      await this.outbox.complete(chunk, (linkId) => byId.get(linkId));
    }
  }
}

/** The items `CHUNK` at a time, in order. */
function chunks<T>(items: T[]): T[][] {
  const all: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) all.push(items.slice(start, start + CHUNK));
  return all;
}

/**
 * All or nothing: an id the request named that is not among the links locked (another account's, outside a
 * restricted key's spaces, or none at all) refuses the whole request, on `ids`, before anything is written.
 */
function refuseUnreached(links: BulkLinks, reachedIds: number[]): void {
  if (!('ids' in links) || reachedIds.length === links.ids.length) return;
  const reached = new Set(reachedIds);
  const unreached = links.ids.filter((id) => !reached.has(id));
  throw ValidationFailedException.of('ids', `The selected ids are invalid: ${quoted(unreached)}.`);
}

/** A few ids, then how many more. */
function quoted(ids: number[]): string {
  const shown = ids.slice(0, QUOTED_IDS).join(', ');
  return ids.length > QUOTED_IDS ? `${shown} and ${ids.length - QUOTED_IDS} more` : shown;
}

/** What a bulk request's audit entry says it named: the filter as sent (its fields that were), and the ids. */
function requestDetails(links: BulkLinks, ids: number[]): AuditDetails {
  if ('ids' in links) return { ids: [null, ids] };
  const filter = Object.fromEntries(
    Object.entries(links.filter).filter(([, value]) => value !== undefined && value !== null),
  );
  return { filter: [null, filter], ids: [null, ids] };
}
