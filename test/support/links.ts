import type { Response } from 'supertest';
import { apiClient, resourceClient, type Body } from './api';
import type { TestAccount, TestApp } from './app';
import { invalid } from './contract';
import { offDocument as offDocumentRequest } from './openapi-responses';
import { unique } from './visitors';

export const LINKS = '/api/v1/links';
export const RANDOM_ALIAS = /^[0-9a-z]{5}$/;
/** Contract §13: what a link carries beyond phpShort's fields, after them in every answer and export. */
export const VISIT_FIELD_NAMES = [
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
];

/** Every field of a domain's answer, in order. */
export const DOMAIN_FIELDS = [
  'id',
  'name',
  'url',
  'index_page',
  'not_found_page',
  'created_at',
  'updated_at',
  'apple_app_site_association',
  'assetlinks',
];

export const LINK_FIELDS = [
  'id',
  'alias',
  'url',
  'short_url',
  'title',
  'targets_type',
  'targets',
  'last_rotation',
  'sensitive_content',
  'privacy',
  'password',
  'redirect_password',
  'active_period_start_at',
  'active_period_end_at',
  'clicks_limit',
  'expiration_url',
  'clicks',
  'disabled',
  'space',
  'domain',
  'pixels',
  'expires_at',
  'created_at',
  'updated_at',
  'tags',
  ...VISIT_FIELD_NAMES,
  'archived',
  'health',
];

/** The health of a link whose target was never checked: tests check no target unless they turn the checks on. */
export const UNCHECKED = { status: 'unknown', http_status: null, checked_at: null };
/** The fields of contract §13 a link made without them answers, each null. */
export const NO_VISIT_FIELDS = Object.fromEntries(VISIT_FIELD_NAMES.map((name) => [name, null]));

/** The host of APP_URL (unset in tests): the system domain every account may use. */
export const DEFAULT_DOMAIN = { name: 'localhost:3000', url: 'http://localhost:3000' };

/** The contract's answers to a link's fields, as create and update both give them. */
export const ALIAS_TAKEN = invalid('alias', 'The alias has already been taken.');
export const ALIAS_CHARSET = 'The alias field must only contain letters, numbers, dashes and underscores.';
export const DATE_FORMAT = (field: string) =>
  `The ${field.replace(/_/g, ' ')} field must be a valid date in the format Y-m-d H:i.`;
export const START_REQUIRED = invalid(
  'active_period_start_at',
  'The active period start at field is required when active period end at is present.',
);
export const END_REQUIRED = invalid(
  'active_period_end_at',
  'The active period end at field is required when active period start at is present.',
);
export const END_AFTER_START = invalid(
  'active_period_end_at',
  'The active period end at must be a date after active period start at.',
);
export const PASSWORD_REQUIRED = invalid('password', 'The password field is required when privacy is 2.');

export interface DomainSummary {
  id: number;
  name: string;
  url: string;
}

export interface LinkData {
  id: number;
  alias: string;
  url: string;
  short_url: string;
  title: string | null;
  targets_type: string | null;
  targets: { key: string | null; value: string }[] | null;
  last_rotation: number | null;
  sensitive_content: 0 | 1;
  privacy: number;
  password: boolean;
  redirect_password: boolean;
  active_period_start_at: string | null;
  active_period_end_at: string | null;
  clicks_limit: number | null;
  expiration_url: string | null;
  clicks: number;
  disabled: 0 | 1;
  space: Record<string, unknown> | null;
  domain: DomainSummary;
  pixels: Record<string, unknown>[];
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface Pixel {
  id: number;
  name: string;
}

export interface Space {
  id: number;
  name: string;
}

/** A link written straight into the table: what is not given takes a default. */
export interface LinkRow {
  title?: string | null;
  alias?: string;
  url?: string;
  clicks?: number;
}

/** A form body as the spec writes it: bracket keys kept literally, values encoded. */
export function formBody(fields: [string, string | number][]): string {
  return fields.map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`).join('&');
}

/** `targets[i][key]` / `targets[i][value]` pairs; a null key sends no key at all. */
export function targetFields(targets: [string | null, string][]): [string, string][] {
  return targets.flatMap(([key, value], index): [string, string][] => [
    ...(key === null ? [] : [[`targets[${index}][key]`, key] as [string, string]]),
    [`targets[${index}][value]`, value],
  ]);
}

export function expectLinkFields(link: unknown): void {
  expect(Object.keys(link as object)).toEqual(LINK_FIELDS);
  expect(Object.keys((link as LinkData).domain)).toEqual(['id', 'name', 'url']);
}

/** The ids of a list's links, in the order listed. */
export function ids(response: Response): number[] {
  return (response.body.data as LinkData[]).map((link) => link.id);
}

/**
 * What the links specs make and read through the API (form bodies), and the few rows they write straight into
 * the database. The app is read at call time, so a file can make it in `beforeAll`.
 */
export function linkFixtures(app: () => TestApp) {
  const { call, form } = apiClient(app);
  const { list } = resourceClient<LinkData>(app, LINKS);

  /** The id of the system domain, the one a link gets when it names none. */
  async function defaultDomainId(): Promise<number> {
    const rows: { id: number }[] = await app().dataSource.query('SELECT id FROM domains WHERE name = $1', [
      DEFAULT_DOMAIN.name,
    ]);
    return rows[0].id;
  }

  /** `offDocument`: the body relies on a tolerance the document does not promise (see openapi-responses.ts). */
  async function createLink(
    account: TestAccount,
    body: Body | string,
    offDocument = false,
  ): Promise<LinkData> {
    const response = await offDocumentRequest(form(account, 'post', LINKS, body), offDocument);
    expect(response.body).toEqual({ data: expect.any(Object), status: 200 });
    expect(response.status).toBe(201);
    return response.body.data as LinkData;
  }

  async function showLink(account: TestAccount, id: number): Promise<Response> {
    return call(account, 'get', `${LINKS}/${id}`);
  }

  async function createSpace(account: TestAccount, name = 'Space'): Promise<Space> {
    const response = await form(account, 'post', '/api/v1/spaces', { name });
    expect(response.status).toBe(201);
    return response.body.data as Space;
  }

  /** The space as the spaces API shows it now (with its current links_count). */
  async function showSpace(account: TestAccount, id: number): Promise<Record<string, unknown>> {
    const response = await call(account, 'get', `/api/v1/spaces/${id}`);
    expect(response.status).toBe(200);
    return response.body.data as Record<string, unknown>;
  }

  async function createPixel(account: TestAccount, name = 'Pixel'): Promise<Pixel> {
    const response = await form(account, 'post', '/api/v1/pixels', {
      name,
      type: 'facebook',
      value: '123456789012345',
    });
    expect(response.status).toBe(201);
    return response.body.data as Pixel;
  }

  async function createDomain(account: TestAccount): Promise<DomainSummary> {
    const response = await form(account, 'post', '/api/v1/domains', { name: `${unique('d')}.example` });
    expect(response.status).toBe(201);
    const { id, name, url } = response.body.data as DomainSummary;
    return { id, name, url };
  }

  async function setClicks(linkId: number, clicks: number): Promise<void> {
    await app().dataSource.query('UPDATE link_counters SET clicks = $1 WHERE link_id = $2', [clicks, linkId]);
  }

  async function hashes(
    linkId: number,
  ): Promise<{ password_hash: string | null; redirect_password_hash: string | null }> {
    const rows: { password_hash: string | null; redirect_password_hash: string | null }[] =
      await app().dataSource.query('SELECT password_hash, redirect_password_hash FROM links WHERE id = $1', [
        linkId,
      ]);
    expect(rows).toHaveLength(1);
    return rows[0];
  }

  /** Many links at once, straight into the table, in the given order (so ids ascend with it). */
  async function insertLinks(account: TestAccount, rows: LinkRow[]): Promise<number[]> {
    const domainId = await defaultDomainId();
    const ids: number[] = [];
    for (const row of rows) {
      const inserted: { id: number }[] = await app().dataSource.query(
        `INSERT INTO links (account_id, domain_id, alias, url, title) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [
          account.id,
          domainId,
          row.alias ?? unique('sql'),
          row.url ?? 'https://example.com/',
          row.title ?? null,
        ],
      );
      // The trigger made the link's counter row.
      await setClicks(inserted[0].id, row.clicks ?? 0);
      ids.push(inserted[0].id);
    }
    return ids;
  }

  /** A link with every field set, on its own domain, in a space, with two pixels. */
  async function createFullLink(account: TestAccount) {
    const space = await createSpace(account, 'Full');
    const pixels = [await createPixel(account, 'First'), await createPixel(account, 'Second')];
    const domain = await createDomain(account);
    const alias = unique('full');
    const link = await createLink(
      account,
      formBody([
        ['url', 'https://example.com/landing?utm_source=test&x=1'],
        ['domain_id', domain.id],
        ['alias', alias],
        ['title', 'Landing page'],
        ['space_id', space.id],
        ['pixel_ids[]', pixels[0].id],
        ['pixel_ids[]', pixels[1].id],
        ['redirect_password', 'visitor-secret-1'],
        ['sensitive_content', '1'],
        ['privacy', '1'],
        ['password', 'stats-secret-1'],
        ['active_period_start_at', '2020-01-01 10:00'],
        ['active_period_end_at', '2099-12-31 23:59'],
        ['clicks_limit', '50'],
        ['expiration_url', 'https://example.com/expired'],
        ['targets_type', 'countries'],
        ...targetFields([
          ['US', 'https://us.example.com/'],
          ['de', 'https://de.example.com/'],
        ]),
      ]),
    );
    return { link, space, pixels, domain, alias };
  }

  return {
    defaultDomainId,
    createLink,
    showLink,
    createSpace,
    showSpace,
    createPixel,
    createDomain,
    setClicks,
    hashes,
    insertLinks,
    list,
    createFullLink,
  };
}
