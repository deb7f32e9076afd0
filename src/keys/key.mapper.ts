import { ApiProperty } from '@nestjs/swagger';
import type { ApiKey } from '../auth/api-key.entity';
import { inScopeOrder, SCOPES, type Scope } from '../auth/scopes';
import { isoDate } from '../common/dates';
import { ApiDateTime, ApiInteger, namedEnum } from '../common/openapi';

/** A key as the API answers it: never its secret, nor its hash. */
export class KeyResponse {
  @ApiInteger({ example: 3 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'Reporting' })
  name!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'lsk_a1B2',
    description:
      'The first 8 characters of the key, to recognise it; null for a key made before keys had one.',
  })
  prefix!: string | null;

  @ApiProperty({ type: 'array', items: namedEnum('Scope', SCOPES) })
  scopes!: Scope[];

  @ApiProperty({
    type: 'array',
    items: { type: 'integer' },
    description: 'The spaces the key is restricted to; empty for every space.',
  })
  space_ids!: number[];

  @ApiDateTime({ nullable: true, description: 'When the key stops working; null for never.' })
  expires_at!: string | null;

  @ApiDateTime({ nullable: true, description: 'When the key was last used, to the minute.' })
  last_used_at!: string | null;

  @ApiDateTime()
  created_at!: string;

  @ApiDateTime()
  updated_at!: string;
}

/** The create answer alone: the key itself, shown this once. */
export class CreatedKeyResponse extends KeyResponse {
  @ApiProperty({
    type: 'string',
    example: 'lsk_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V',
    description: 'The key: shown once.',
  })
  key!: string;
}

/** The response shape of a key, in the contract's field order. */
export function toKeyResponse(key: ApiKey): KeyResponse {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: inScopeOrder(key.scopes),
    space_ids: key.spaceIds ?? [],
    expires_at: isoDate(key.expiresAt),
    last_used_at: isoDate(key.lastUsedAt),
    created_at: isoDate(key.createdAt),
    updated_at: isoDate(key.updatedAt),
  };
}
