import type { Session, Workspace } from '../src/api/session';
import type { Domain, Link, Pixel, Role, Scope, Space, Tag, UtmTemplate } from '../src/api/types';

const AT = '2026-11-20T10:00:00.000000Z';

export const ALL_SCOPES: Scope[] = [
  'account.read',
  'links.write',
  'spaces.write',
  'domains.write',
  'pixels.write',
  'stats.read',
  'webhooks.write',
  'keys.write',
];

/** A session opened with an API key. */
export function session(scopes: Scope[] = ALL_SCOPES): Session {
  return {
    scopes,
    space_ids: [],
    expires_at: '2026-11-27 02:00:00',
    key: { id: 1, name: 'Laptop', prefix: 'lsk_abcd' },
    user: null,
    workspace: { id: 1, name: 'Default', role: null },
    workspaces: [],
  };
}

/** The scopes of each role, as the API grants them. */
export const ROLE_SCOPES: Record<Role, Scope[]> = {
  owner: [...ALL_SCOPES, 'members.write', 'audit.read'],
  admin: [...ALL_SCOPES, 'members.write', 'audit.read'],
  editor: [
    ...ALL_SCOPES.map((scope) => (scope === 'webhooks.write' ? 'webhooks.read' : scope)),
    'members.read',
  ],
  viewer: [
    'account.read',
    'links.read',
    'spaces.read',
    'domains.read',
    'pixels.read',
    'stats.read',
    'members.read',
  ],
};

export const person = { id: 7, name: 'Ann Lee', email: 'ann@example.com' };

/** A person's session in a workspace, with their role's scopes; `workspaces` are those they may switch to. */
export function userSession(role: Role = 'owner', workspaces: Workspace[] = []): Session {
  const workspace = { id: 1, name: 'Marketing', role };
  return {
    scopes: ROLE_SCOPES[role],
    space_ids: [],
    expires_at: '2026-11-27T02:00:00.000000Z',
    key: null,
    user: person,
    workspace,
    workspaces: workspaces.length === 0 ? [workspace] : workspaces,
  };
}

export const space: Space = {
  id: 3,
  name: 'Marketing',
  color: 2,
  links_count: 1,
  created_at: AT,
  updated_at: AT,
};
export function tag(overrides: Partial<Tag> = {}): Tag {
  return { id: 4, name: 'News', color: 4, links_count: 2, created_at: AT, updated_at: AT, ...overrides };
}
export function utmTemplate(overrides: Partial<UtmTemplate> = {}): UtmTemplate {
  return {
    id: 6,
    name: 'Newsletter',
    utm_source: 'newsletter',
    utm_medium: 'email',
    utm_campaign: null,
    utm_term: null,
    utm_content: null,
    created_at: AT,
    updated_at: AT,
    ...overrides,
  };
}
export const domain: Domain = {
  id: 1,
  name: 'sho.rt',
  url: 'https://sho.rt',
  index_page: null,
  not_found_page: null,
  created_at: AT,
  updated_at: AT,
  apple_app_site_association: null,
  assetlinks: null,
};
export const otherDomain: Domain = {
  ...domain,
  id: 2,
  name: 'go.example.com',
  url: 'https://go.example.com',
};
export const pixel: Pixel = {
  id: 7,
  name: 'Main tag',
  type: 'google-tag-manager',
  value: 'GTM-1',
  created_at: AT,
  updated_at: AT,
};

export function link(overrides: Partial<Link> = {}): Link {
  return {
    id: 5,
    alias: 'spring',
    url: 'https://example.com/spring',
    short_url: 'https://sho.rt/spring',
    title: 'Spring sale',
    targets_type: null,
    targets: null,
    last_rotation: null,
    sensitive_content: 0,
    privacy: 0,
    password: false,
    redirect_password: false,
    active_period_start_at: null,
    active_period_end_at: null,
    clicks_limit: null,
    expiration_url: null,
    clicks: 12,
    disabled: 0,
    space: null,
    domain: { id: 1, name: 'sho.rt', url: 'https://sho.rt' },
    pixels: [],
    expires_at: null,
    created_at: AT,
    updated_at: AT,
    tags: [],
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    utm_term: null,
    utm_content: null,
    ios_url: null,
    android_url: null,
    og_title: null,
    og_description: null,
    og_image_url: null,
    notes: null,
    archived: 0,
    health: { status: 'unknown', http_status: null, checked_at: null },
    ...overrides,
  };
}

/** The account as GET /api/v1/account answers it; its default domain is the service's own, `domain`. */
export const account = {
  id: 1,
  name: 'Default',
  email: null,
  avatar_url: null,
  locale: 'en',
  timezone: 'UTC',
  plan: null,
  default_domain: 1,
  default_space: null,
  default_stats: 0,
  created_at: AT,
} as const;
