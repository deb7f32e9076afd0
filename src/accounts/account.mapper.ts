import { ApiProperty } from '@nestjs/swagger';
import type { Account } from '../auth/account.entity';
import { isoDate } from '../common/dates';
import { ApiDateTime, ApiInteger } from '../common/openapi';
import { LINK_PRIVACY_SCHEMA } from '../links/link.mapper';
import { LinkPrivacy } from '../links/link.entity';

/** phpShort's account resource, field for field. */
export class AccountResponse {
  @ApiInteger({ example: 1 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'Acme' })
  name!: string;

  @ApiProperty({ type: 'string', format: 'email', nullable: true })
  email!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Always null: this service has no avatars.' })
  avatar_url!: null;

  @ApiProperty({ type: 'string', example: 'en' })
  locale!: string;

  @ApiProperty({ type: 'string', example: 'UTC' })
  timezone!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'Always null: this service has no plans.' })
  plan!: null;

  @ApiInteger({ description: 'The id of the domain new links get.' })
  default_domain!: number;

  @ApiInteger({ nullable: true, description: 'Always null: a link without `space_id` has no space.' })
  default_space!: null;

  /** The privacy new links get. */
  @ApiProperty(LINK_PRIVACY_SCHEMA)
  default_stats!: LinkPrivacy;

  @ApiDateTime()
  created_at!: string;
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
