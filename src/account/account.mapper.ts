import type { Account } from '../auth/account.entity';
import { isoDate } from '../common/dates';
import { LinkPrivacy } from '../links/link.entity';

/** phpShort's account resource, field for field. */
export interface AccountResponse {
  id: number;
  name: string;
  email: string | null;
  avatar_url: null;
  locale: string;
  timezone: string;
  plan: null;
  default_domain: number;
  default_space: null;
  default_stats: LinkPrivacy;
  created_at: string;
}

/**
 * The account as phpShort answers it. What this service has: the email the CLI sets, English messages, UTC for
 * every date it reads and writes, the domain and privacy new links get; what it has not: avatars, plans, a
 * default space (a link without `space_id` has none).
 */
export function toAccountResponse(account: Account, defaultDomainId: number): AccountResponse {
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    avatar_url: null,
    locale: 'en',
    timezone: 'UTC',
    plan: null,
    default_domain: defaultDomainId,
    default_space: null,
    default_stats: LinkPrivacy.Public,
    created_at: isoDate(account.createdAt),
  };
}
