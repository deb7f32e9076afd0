import type { CreateLinkBody, Link, LinkPrivacy, UpdateLinkBody } from '../../api/types';
import { withScheme } from '../../components/UrlInput';
import { NO_TARGETING, targetingBody, targetingOfLink, type Targeting } from './targeting';

/** The fields of a link the API keeps as given (contract §13): UTM parameters, app links, social preview, notes. */
export const LINK_EXTRAS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'ios_url',
  'android_url',
  'og_title',
  'og_description',
  'og_image_url',
  'notes',
] as const;
export type LinkExtra = (typeof LINK_EXTRAS)[number];

const noExtras = (): Record<LinkExtra, string> =>
  Object.fromEntries(LINK_EXTRAS.map((name) => [name, ''])) as Record<LinkExtra, string>;

/** The link form's state: text as typed, dates as the reader's local time (datetime-local). */
export interface LinkFormValues {
  url: string;
  title: string;
  alias: string;
  domainId: string;
  spaceId: string;
  pixelIds: number[];
  /** Tag names, in their order. */
  tags: string[];
  /** Left out of the lists (but for the archive's); visitors are redirected as always. */
  archived: boolean;
  /** A new visitor password; empty keeps the one set, if any. */
  redirectPassword: string;
  /** Whether the link has a visitor password now (the API says so, never what it is). */
  hasRedirectPassword: boolean;
  removeRedirectPassword: boolean;
  sensitive: boolean;
  disabled: boolean;
  privacy: LinkPrivacy;
  /** A new stats password, for privacy 2; empty keeps the one set, if any. */
  statsPassword: string;
  hasStatsPassword: boolean;
  activeStart: string;
  activeEnd: string;
  clicksLimit: string;
  expirationUrl: string;
  targeting: Targeting;
  /** The fields of {@link LINK_EXTRAS}, as typed. */
  extras: Record<LinkExtra, string>;
}

export function emptyLinkForm(): LinkFormValues {
  return {
    url: '',
    title: '',
    alias: '',
    domainId: '',
    spaceId: '',
    pixelIds: [],
    tags: [],
    archived: false,
    redirectPassword: '',
    hasRedirectPassword: false,
    removeRedirectPassword: false,
    sensitive: false,
    disabled: false,
    privacy: 0,
    statsPassword: '',
    hasStatsPassword: false,
    activeStart: '',
    activeEnd: '',
    clicksLimit: '',
    expirationUrl: '',
    targeting: NO_TARGETING,
    extras: noExtras(),
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An API date-time (ISO 8601, UTC) as a datetime-local value in the reader's zone. */
export function toLocalInput(iso: string | null): string {
  if (iso === null) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A datetime-local value (the reader's time) as an ISO 8601 date-time in UTC, which the API takes beside its
 * `Y-m-d H:i`: the reader thinks in their own time, the API stores UTC. Left as typed when it is not a date, so
 * the API's 422 says what is wrong.
 */
export function fromLocalInput(local: string): string {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

export function linkFormOf(link: Link): LinkFormValues {
  return {
    url: link.url,
    title: link.title ?? '',
    alias: link.alias,
    domainId: String(link.domain.id),
    spaceId: link.space === null ? '' : String(link.space.id),
    pixelIds: link.pixels.map((pixel) => pixel.id),
    tags: link.tags,
    archived: link.archived === 1,
    redirectPassword: '',
    hasRedirectPassword: link.redirect_password,
    removeRedirectPassword: false,
    sensitive: link.sensitive_content === 1,
    disabled: link.disabled === 1,
    privacy: link.privacy,
    statsPassword: '',
    hasStatsPassword: link.password,
    activeStart: toLocalInput(link.active_period_start_at),
    activeEnd: toLocalInput(link.active_period_end_at),
    clicksLimit: link.clicks_limit === null || link.clicks_limit === 0 ? '' : String(link.clicks_limit),
    expirationUrl: link.expiration_url ?? '',
    targeting: targetingOfLink(link),
    extras: Object.fromEntries(LINK_EXTRAS.map((name) => [name, link[name] ?? ''])) as Record<
      LinkExtra,
      string
    >,
  };
}

/**
 * A new link's form from another link's values: everything but its alias (taken on its domain), its passwords,
 * which the API never gives out, and the archive: a copy is made to be used.
 */
export function copiedLinkForm(link: Link): LinkFormValues {
  return {
    ...linkFormOf(link),
    alias: '',
    hasRedirectPassword: false,
    hasStatsPassword: false,
    archived: false,
  };
}

function optionalNumber(text: string): number | null {
  return text.trim() === '' ? null : Number(text);
}

/** The create request: fields left empty are left out, so the API applies its defaults (a random alias...). */
export function createBody(values: LinkFormValues): CreateLinkBody {
  const body: CreateLinkBody = {
    url: withScheme(values.url),
    sensitive_content: values.sensitive ? 1 : 0,
    privacy: values.privacy,
    disabled: values.disabled ? 1 : 0,
  };
  if (values.title.trim() !== '') body.title = values.title.trim();
  if (values.alias.trim() !== '') body.alias = values.alias.trim();
  if (values.domainId !== '') body.domain_id = Number(values.domainId);
  if (values.spaceId !== '') body.space_id = Number(values.spaceId);
  if (values.pixelIds.length > 0) body.pixel_ids = values.pixelIds;
  if (values.tags.length > 0) body.tags = values.tags;
  if (values.archived) body.archived = 1;
  if (values.redirectPassword !== '') body.redirect_password = values.redirectPassword;
  if (values.privacy === 2 && values.statsPassword !== '') body.password = values.statsPassword;
  if (values.activeStart !== '') body.active_period_start_at = fromLocalInput(values.activeStart);
  if (values.activeEnd !== '') body.active_period_end_at = fromLocalInput(values.activeEnd);
  const clicksLimit = optionalNumber(values.clicksLimit);
  if (clicksLimit !== null) body.clicks_limit = clicksLimit;
  if (values.expirationUrl.trim() !== '') body.expiration_url = withScheme(values.expirationUrl);
  if (values.targeting.type !== '') Object.assign(body, targetingBody(values.targeting));
  for (const name of LINK_EXTRAS) {
    const value = values.extras[name].trim();
    if (value !== '') body[name] = value;
  }
  return body;
}

/**
 * The update request: every field the form shows, null where it was emptied (the API clears it). The passwords
 * are sent only when typed or removed, since the form never knows the ones set; the domain cannot change.
 */
export function updateBody(values: LinkFormValues): UpdateLinkBody {
  const body: UpdateLinkBody = {
    url: withScheme(values.url),
    title: values.title.trim() === '' ? null : values.title.trim(),
    space_id: values.spaceId === '' ? null : Number(values.spaceId),
    pixel_ids: values.pixelIds,
    tags: values.tags,
    archived: values.archived ? 1 : 0,
    sensitive_content: values.sensitive ? 1 : 0,
    privacy: values.privacy,
    disabled: values.disabled ? 1 : 0,
    active_period_start_at: values.activeStart === '' ? null : fromLocalInput(values.activeStart),
    active_period_end_at: values.activeEnd === '' ? null : fromLocalInput(values.activeEnd),
    clicks_limit: optionalNumber(values.clicksLimit),
    expiration_url: values.expirationUrl.trim() === '' ? null : withScheme(values.expirationUrl),
    ...targetingBody(values.targeting),
  };
  for (const name of LINK_EXTRAS) {
    const value = values.extras[name].trim();
    body[name] = value === '' ? null : value;
  }
  if (values.alias.trim() !== '') body.alias = values.alias.trim();
  if (values.removeRedirectPassword) body.redirect_password = null;
  else if (values.redirectPassword !== '') body.redirect_password = values.redirectPassword;
  if (values.privacy === 2 && values.statsPassword !== '') body.password = values.statsPassword;
  return body;
}

/** The fields the form shows beside a control; a 422 on any other name is listed above the form. */
export const LINK_FIELDS = [
  'url',
  'title',
  'alias',
  'domain_id',
  'domain',
  'space_id',
  'pixel_ids',
  'redirect_password',
  'sensitive_content',
  'privacy',
  'password',
  'active_period_start_at',
  'active_period_end_at',
  'clicks_limit',
  'expiration_url',
  'disabled',
  'targets_type',
  'targets',
  'tags',
  'archived',
] as const;

/** Whether the form shows `field`'s errors itself: its own fields, each target's, each pixel's, each tag's. */
export function isShownField(field: string): boolean {
  return (
    (LINK_FIELDS as readonly string[]).includes(field) ||
    /^targets\.\d+(\.(key|value))?$/.test(field) ||
    /^(pixel_ids|tags)\.\d+$/.test(field)
  );
}
