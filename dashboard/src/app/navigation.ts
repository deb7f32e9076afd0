import { lazy, type ComponentType } from 'react';
import type { Scope } from '../api/types';
import type { Messages } from '../i18n/en';

export interface NavItem {
  href: string;
  label: keyof Messages['nav'];
  /** The scope without which the screen has nothing to show: its entry is left out. */
  scope: Scope;
  /** The screen, its own chunk loaded when first opened: the first load carries only the frame and sign-in. */
  page: ComponentType;
}

/** The screen at `/<name>`, its label `nav.<name>`. */
function screen(
  name: NavItem['label'],
  scope: Scope,
  load: () => Promise<{ default: ComponentType }>,
): NavItem {
  return { href: `/${name}`, label: name, scope, page: lazy(load) };
}

export const NAV_ITEMS: readonly NavItem[] = [
  screen('links', 'links.read', () => import('../features/links/LinksPage')),
  // The workspace's clicks with its map: a chunk of its own, so the map's data never weighs on the first load.
  screen('analytics', 'stats.read', () => import('../features/analytics/AnalyticsPage')),
  screen('spaces', 'spaces.read', () => import('../features/spaces/SpacesPage')),
  // Tags and UTM templates are the links' own metadata, under the links' scopes.
  screen('tags', 'links.read', () => import('../features/tags/TagsPage')),
  screen('utm-templates', 'links.read', () => import('../features/utm/UtmTemplatesPage')),
  screen('domains', 'domains.read', () => import('../features/domains/DomainsPage')),
  screen('pixels', 'pixels.read', () => import('../features/pixels/PixelsPage')),
  screen('transfer', 'links.read', () => import('../features/transfer/TransferPage')),
  // Listing imports needs only links.read, but the screen is there to start them.
  screen('imports', 'links.write', () => import('../features/imports/ImportsPage')),
  screen('keys', 'keys.read', () => import('../features/keys/KeysPage')),
  screen('webhooks', 'webhooks.read', () => import('../features/webhooks/WebhooksPage')),
  screen('members', 'members.read', () => import('../features/members/MembersPage')),
  screen('audit', 'audit.read', () => import('../features/audit/AuditLogPage')),
  screen('account', 'account.read', () => import('../features/account/AccountPage')),
];
