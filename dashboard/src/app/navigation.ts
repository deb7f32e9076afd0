import type { Scope } from '../api/types';
import type { Messages } from '../i18n/en';

export interface NavItem {
  href: string;
  label: keyof Messages['nav'];
  /** The scope without which the screen has nothing to show: its entry is left out. */
  scope: Scope;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { href: '/links', label: 'links', scope: 'links.read' },
  { href: '/spaces', label: 'spaces', scope: 'spaces.read' },
  { href: '/domains', label: 'domains', scope: 'domains.read' },
  { href: '/pixels', label: 'pixels', scope: 'pixels.read' },
  { href: '/transfer', label: 'transfer', scope: 'links.read' },
  { href: '/keys', label: 'keys', scope: 'keys.read' },
  { href: '/webhooks', label: 'webhooks', scope: 'webhooks.read' },
  { href: '/account', label: 'account', scope: 'account.read' },
];
