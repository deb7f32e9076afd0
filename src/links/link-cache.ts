import { Inject, Injectable } from '@nestjs/common';
import { visitsConfig, type VisitsConfig } from '../config/app-config';
import { ChangeFeed, EVERYTHING } from '../database/change-feed';
import { RecentOutage } from '../database/recent-outage';
import { mergeQuery } from '../common/query-string';
import { locationUrl } from '../common/url-rules';
import { TargetsType } from '../targeting/allowed-values';
import { rotationSchedule } from '../targeting/rotation';
import { VisitLinkRepository, type StoredVisitLink } from './visit-link.repository';

/** What a visit needs of a link: its rules as stored, and what is made of them once. */
export interface VisitLink extends StoredVisitLink {
  /**
   * The Location of each destination (the url, each target's value, the app links), its UTM parameters merged in,
   * made once: a visit without a query of its own is sent there as it is.
   */
  locations: Map<string, string>;
  /** The destination each turn of its rotation serves: where a turn's visitor goes, and is counted as sent. */
  turns: readonly string[];
  /** Its clicks limit was found reached: visits are answered as expired until the link changes. */
  exhausted: boolean;
}

function toVisitLink(link: StoredVisitLink): VisitLink {
  const destinations = [link.url, ...(link.targets ?? []).map((target) => target.value)];
  if (link.iosUrl !== null) destinations.push(link.iosUrl);
  if (link.androidUrl !== null) destinations.push(link.androidUrl);
  const location = (destination: string) =>
    locationUrl(link.utm === '' ? destination : mergeQuery(destination, link.utm));
  return {
    locations: new Map(destinations.map((destination) => [destination, location(destination)])),
    // Read by rotations alone.
    turns:
      link.targetsType === TargetsType.Rotations
        ? rotationSchedule(link.targets ?? []).map((index) => link.targets![index].value)
        : [],
    ...link,
    exhausted: false,
  };
}

/** The announcement of a change to the link with this alias on this domain. */
export function linkChange(domainId: number, alias: string): string {
  return `link:${domainId}:${alias.toLowerCase()}`;
}

/** The generation of an entry read while the feed could not vouch for it: no generation is ever this one. */
const UNTRUSTED = -1;

/** An entry of the cache: the link as read (null: none there), and the generation of the feed it was read in. */
interface Entry {
  link: VisitLink | null;
  generation: number;
}

/**
 * The links visits ask for, by domain and alias (regardless of case), read with one plain query and kept in this
 * instance's memory, at most `LINK_CACHE_SIZE` of them. An announced change drops its entry at once (see
 * {@link ChangeFeed}); nothing is kept while announcements cannot be heard, nor a value read while its link
 * changed (such a read is kept as the last known alone), and nothing is served from memory while the feed has not
 * been heard from within the last second.
 * So an entry does not expire with time: the feed keeps it correct, and every entry is distrusted when the feed is
 * lost, so that a link shared after a quiet spell is still answered from memory.
 *
 * A distrusted entry is kept, not dropped: it is read again at its next visit, and answers that visit only when the
 * database cannot (it is away, failing over): the link as it was last known, rather than an error; for a moment after
 * that ({@link RecentOutage}), without asking again. A change the feed announces drops its entry altogether.
 */
@Injectable()
export class LinkCache {
  private readonly entries = new Map<string, Entry>();
  /** Counts the changes heard: a value read across one is not kept. */
  private changes = 0;
  /** Counts the times the feed was lost or announced a change of unknown extent: older entries are distrusted. */
  private generation = 0;

  constructor(
    private readonly repository: VisitLinkRepository,
    @Inject(visitsConfig.KEY) private readonly config: VisitsConfig,
    private readonly feed: ChangeFeed,
    private readonly outage: RecentOutage,
  ) {
    feed.subscribe((change) => {
      if (change === EVERYTHING) {
        this.changes += 1;
        this.generation += 1;
      } else if (change.startsWith('link:')) {
        this.changes += 1;
        this.entries.delete(change.slice('link:'.length));
      }
    });
  }

  /** The entry in memory, if any: undefined when the link must be read. */
  peek(domainId: number, alias: string): VisitLink | null | undefined {
    // Unless the feed was heard from within the last second, an entry may miss a change: it is read again.
    if (!this.feed.fresh) return undefined;
    const entry = this.entries.get(`${domainId}:${alias.toLowerCase()}`);
    return entry === undefined || entry.generation !== this.generation ? undefined : entry.link;
  }

  async get(domainId: number, alias: string): Promise<VisitLink | null> {
    const cached = this.peek(domainId, alias);
    if (cached !== undefined) return cached;
    const key = `${domainId}:${alias.toLowerCase()}`;
    return this.outage.orLastKnown(this.entries.get(key)?.link, () => this.read(domainId, alias, key));
  }

  /** The link read from the database, kept: trusted when the feed listened and announced no change meanwhile. */
  private async read(domainId: number, alias: string, key: string): Promise<VisitLink | null> {
    const before = this.changes;
    const stored = await this.repository.find(domainId, alias);
    const link = stored === null ? null : toVisitLink(stored);
    if (this.config.linkCacheSize > 0) {
      // Read again: it moves to the newest end of the order of insertion.
      this.entries.delete(key);
      if (this.entries.size >= this.config.linkCacheSize) {
        // The oldest entry goes: a Map iterates in insertion order.
        this.entries.delete(this.entries.keys().next().value!);
      }
      // Read while the feed did not listen, or across a change: kept only as the last known, never trusted.
      const trusted = this.changes === before && this.feed.listening;
      this.entries.set(key, { link, generation: trusted ? this.generation : UNTRUSTED });
    }
    return link;
  }
}
