import { ApiProperty } from '@nestjs/swagger';
import { SCOPES, type Scope } from '../auth/scopes';
import { ApiDateTime, ApiInteger, namedEnum } from '../common/openapi';

/** The key a session was made from, as the dashboard names it. */
export class SessionKeyResponse {
  @ApiInteger({ example: 3 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'Marketing' })
  name!: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'lsk_a1B2' })
  prefix!: string | null;
}

/** What a dashboard session may do: exactly its key's scopes (writes with the reads they include) and spaces. */
export class SessionResponse {
  @ApiProperty({ type: 'array', items: namedEnum('Scope', SCOPES) })
  scopes!: Scope[];

  @ApiProperty({
    type: 'array',
    items: { type: 'integer' },
    description: 'The spaces the session is restricted to; empty for every space.',
  })
  space_ids!: number[];

  @ApiDateTime({
    nullable: true,
    description:
      "When the session ends (its key's expiry, if earlier); null for a key's own request without end.",
  })
  expires_at!: string | null;

  @ApiProperty({ type: SessionKeyResponse })
  key!: SessionKeyResponse;
}
