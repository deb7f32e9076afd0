import type { Link, LinkHealth } from '../../api/types';

const UNCHECKED: LinkHealth = { status: 'unknown', http_status: null, checked_at: null };

/**
 * A link's health: unknown when the service has not checked it, or when the answer has none (a service older than
 * the checks, behind a dashboard newer than it).
 */
export function healthOf(link: Link): LinkHealth {
  return link.health ?? UNCHECKED;
}
