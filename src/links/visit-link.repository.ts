import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { TargetsType } from '../targeting/allowed-values';
import type { Target } from './link.entity';
import { LINK_VISIT_FIELD_NAMES, utmQuery, type LinkVisitField } from './link-visit-fields';

/** A link's social preview, shown to the crawlers of social networks and chat apps (contract §13). */
export interface SocialPreview {
  title: string | null;
  description: string | null;
  imageUrl: string | null;
}

/** What a visit reads of a link: its rules, never its counters (they change with every click). */
export interface StoredVisitLink {
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
  /** Its UTM parameters as a query string, merged into the destination last; empty for none. */
  utm: string;
  /** Where visitors on iOS and on Android go, before any targeting. */
  iosUrl: string | null;
  androidUrl: string | null;
  /** Null when it has none. */
  preview: SocialPreview | null;
}

/** The §13 fields a visit reads: all but the notes, which are for the people who manage the link. */
type VisitedField = Exclude<LinkVisitField, 'notes'>;
const VISITED_FIELDS = LINK_VISIT_FIELD_NAMES.filter((name): name is VisitedField => name !== 'notes');

/**
 * One plain statement: the link by the unique index of (domain_id, lower(alias)), and whether it has pixels by the
 * primary key of `link_pixels`, which leads with the link.
 */
const VISIT_LINK = `
  SELECT l.id, l.alias, l.url, l.targets_type, l.targets, l.sensitive_content,
         l.redirect_password_hash IS NOT NULL AS has_redirect_password, l.active_period_start_at,
         l.active_period_end_at, l.clicks_limit, l.expiration_url, l.disabled,
         ${VISITED_FIELDS.map((name) => `l.${name}`).join(', ')},
         EXISTS (SELECT 1 FROM link_pixels lp WHERE lp.link_id = l.id) AS has_pixels
    FROM links l
   WHERE l.domain_id = $1 AND lower(l.alias) = lower($2)`;

interface Row extends Record<VisitedField, string | null> {
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

/** The read of the links that visits ask for, which the link cache keeps. */
@Injectable()
export class VisitLinkRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The link with this alias (regardless of case) on this domain; null when there is none. */
  async find(domainId: number, alias: string): Promise<StoredVisitLink | null> {
    const rows: Row[] = await this.dataSource.query(VISIT_LINK, [domainId, alias]);
    if (rows.length === 0) return null;
    const row = rows[0];
    return {
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
      utm: utmQuery(row),
      iosUrl: row.ios_url,
      androidUrl: row.android_url,
      preview:
        row.og_title === null && row.og_description === null && row.og_image_url === null
          ? null
          : { title: row.og_title, description: row.og_description, imageUrl: row.og_image_url },
    };
  }
}
