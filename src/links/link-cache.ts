import { Inject, Injectable } from '@nestjs/common';
import { visitsConfig, type VisitsConfig } from '../config/app-config';
import { ChangeFeed, EVERYTHING } from '../database/change-feed';
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

/**
 * The links visits ask for, by domain and alias (regardless of case), read with one plain query and kept in this
 * instance's memory, at most `LINK_CACHE_SIZE` of them. An announced change drops its entry at once (see
 * {@link ChangeFeed}); nothing is kept while announcements cannot be heard, nor a value read while its link
 * changed, and nothing is served from memory while the feed has not been heard from within the last second.
 * So an entry does not expire with time: the feed keeps it correct, and everything is dropped when the feed is
 * lost, so that a link shared after a quiet spell is still answered from memory.
 */
@Injectable()
export class LinkCache {
  private readonly entries = new Map<string, VisitLink | null>();
  /** Counts the changes heard: a value read across one is not kept. */
  private changes = 0;

  constructor(
    private readonly repository: VisitLinkRepository,
    @Inject(visitsConfig.KEY) private readonly config: VisitsConfig,
    private readonly feed: ChangeFeed,
  ) {
    feed.subscribe((change) => {
      if (change === EVERYTHING) {
        this.changes += 1;
        this.entries.clear();
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
    return this.entries.get(`${domainId}:${alias.toLowerCase()}`);
  }

  async get(domainId: number, alias: string): Promise<VisitLink | null> {
    const cached = this.peek(domainId, alias);
    if (cached !== undefined) return cached;
    const before = this.changes;
    const stored = await this.repository.find(domainId, alias);
    const link = stored === null ? null : toVisitLink(stored);
    if (this.changes === before && this.feed.listening && this.config.linkCacheSize > 0) {
      if (this.entries.size >= this.config.linkCacheSize) {
        // The oldest entry goes: a Map iterates in insertion order.
        this.entries.delete(this.entries.keys().next().value!);
      }
      this.entries.set(`${domainId}:${alias.toLowerCase()}`, link);
    }
    return link;
  }
}
