import { wellFormed } from '../common/well-formed';
import type { Link } from './link.entity';

/**
 * The fields of contract §13 a link keeps as they are given, by their API name (which is also their column's) and
 * their entity property: the UTM parameters, the app links, the social preview and the notes. One list, so that
 * the create, the update, the insert, the answers and the CSV export cannot miss one.
 */
export const LINK_VISIT_FIELDS = {
  utm_source: 'utmSource',
  utm_medium: 'utmMedium',
  utm_campaign: 'utmCampaign',
  utm_term: 'utmTerm',
  utm_content: 'utmContent',
  ios_url: 'iosUrl',
  android_url: 'androidUrl',
  og_title: 'ogTitle',
  og_description: 'ogDescription',
  og_image_url: 'ogImageUrl',
  notes: 'notes',
} as const satisfies Record<string, keyof Link>;

export type LinkVisitField = keyof typeof LINK_VISIT_FIELDS;

export const LINK_VISIT_FIELD_NAMES = Object.keys(LINK_VISIT_FIELDS) as LinkVisitField[];

/** The UTM parameters, in the order they are added to a destination. */
export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

/** The fields by their API names, as a link holds them. */
export function visitFieldsOf(
  link: Pick<Link, (typeof LINK_VISIT_FIELDS)[LinkVisitField]>,
): Record<LinkVisitField, string | null> {
  const fields = {} as Record<LinkVisitField, string | null>;
  for (const name of LINK_VISIT_FIELD_NAMES) fields[name] = link[LINK_VISIT_FIELDS[name]];
  return fields;
}

/**
 * The entity's properties from what a request sent: only the fields it sent (every one, null where absent, for a
 * new link), each as it is stored (see {@link wellFormed}), so that the answer shows what a read gives.
 */
export function visitFieldChanges(
  sent: Partial<Record<LinkVisitField, string | null>>,
  all: boolean,
): Partial<Pick<Link, (typeof LINK_VISIT_FIELDS)[LinkVisitField]>> {
  const changes: Partial<Record<(typeof LINK_VISIT_FIELDS)[LinkVisitField], string | null>> = {};
  for (const name of LINK_VISIT_FIELD_NAMES) {
    const value = sent[name];
    if (value !== undefined) changes[LINK_VISIT_FIELDS[name]] = value === null ? null : wellFormed(value);
    else if (all) changes[LINK_VISIT_FIELDS[name]] = null;
  }
  return changes;
}

/**
 * The UTM parameters of a link as a query string (`utm_source=news&utm_medium=email`), each value encoded as a
 * form encodes it; empty when it has none. Merged into the destination at the redirect, they replace the same
 * names there.
 */
export function utmQuery(fields: Partial<Record<LinkVisitField, string | null>>): string {
  const parts: string[] = [];
  for (const name of UTM_FIELDS) {
    const value = fields[name];
    if (value !== null && value !== undefined && value !== '')
      parts.push(`${name}=${encodeURIComponent(value)}`);
  }
  return parts.join('&');
}
