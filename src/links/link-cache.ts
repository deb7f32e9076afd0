import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { visitsConfig, type VisitsConfig } from '../config/app-config';
import { ChangeFeed, EVERYTHING } from '../database/change-feed';
import type { TargetsType } from '../targeting/allowed-values';
import { locationUrl } from '../common/url-rules';
import type { Target } from './link.entity';

/** What a visit needs of a link: its rules, never its counters (they change with every click). */
export interface VisitLink {
  id: number;
  alias: string;
  url: string;
  targetsType: TargetsType | null;
  targets: Target[] | null;
  sensitiveContent: boolean;
  hasRedirectPassword: boolean;
  activePeriodStartAt: Date | null;
  activePeriodEndAt: Date | null;
  clicksLimit: number | null;
  expirationUrl: string | null;
  disabled: boolean;
  hasPixels: boolean;
  /** The Location of each destination (the url, then each target's value), made once. */
  locations: Map<string, string>;
  /** Its clicks limit was found reached: visits are answered as expired until the link changes. */
  exhausted: boolean;
}

interface Entry {
  link: VisitLink | null;
  expiresAt: number;
}

/** A backstop: announcements drop entries at once, this bounds how long one could live without them. */
const TTL_MS = 60_000;

const VISIT_LINK = `
  SELECT l.id, l.alias, l.url, l.targets_type, l.targets, l.sensitive_content,
         l.redirect_password_hash IS NOT NULL AS has_redirect_password, l.active_period_start_at,
         l.active_period_end_at, l.clicks_limit, l.expiration_url, l.disabled,
         EXISTS (SELECT 1 FROM link_pixels lp WHERE lp.link_id = l.id) AS has_pixels
    FROM links l
   WHERE l.domain_id = $1 AND lower(l.alias) = lower($2)`;

interface Row {
  id: number;
  alias: string;
  url: string;
  targets_type: TargetsType | null;
  targets: Target[] | null;
  sensitive_content: boolean;
  has_redirect_password: boolean;
  active_period_start_at: Date | null;
  active_period_end_at: Date | null;
  clicks_limit: number | null;
  expiration_url: string | null;
  disabled: boolean;
  has_pixels: boolean;
}

function toVisitLink(row: Row): VisitLink {
  const destinations = [row.url, ...(row.targets ?? []).map((target) => target.value)];
  return {
    locations: new Map(destinations.map((destination) => [destination, locationUrl(destination)])),
    id: row.id,
    alias: row.alias,
    url: row.url,
    targetsType: row.targets_type,
    targets: row.targets,
    sensitiveContent: row.sensitive_content,
    hasRedirectPassword: row.has_redirect_password,
    activePeriodStartAt: row.active_period_start_at,
    activePeriodEndAt: row.active_period_end_at,
    clicksLimit: row.clicks_limit,
    expirationUrl: row.expiration_url,
    disabled: row.disabled,
    hasPixels: row.has_pixels,
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
 */
@Injectable()
export class LinkCache {
  private readonly entries = new Map<string, Entry>();
  /** Counts the changes heard: a value read across one is not kept. */
  private changes = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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
    const key = `${domainId}:${alias.toLowerCase()}`;
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.link;
  }

  async get(domainId: number, alias: string): Promise<VisitLink | null> {
    const cached = this.peek(domainId, alias);
    if (cached !== undefined) return cached;
    const before = this.changes;
    const rows: Row[] = await this.dataSource.query(VISIT_LINK, [domainId, alias]);
    const link = rows.length === 0 ? null : toVisitLink(rows[0]);
    if (this.changes === before && this.feed.listening && this.config.linkCacheSize > 0) {
      if (this.entries.size >= this.config.linkCacheSize) {
        // The oldest entry goes: a Map iterates in insertion order.
        this.entries.delete(this.entries.keys().next().value!);
      }
      this.entries.set(`${domainId}:${alias.toLowerCase()}`, { link, expiresAt: Date.now() + TTL_MS });
    }
    return link;
  }
}
