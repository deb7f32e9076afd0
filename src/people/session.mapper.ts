import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role } from '../auth/roles';
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

/** The person a user's session is theirs. */
export class SessionUserResponse {
  @ApiInteger({ example: 7 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'Ann Lee' })
  name!: string;

  @ApiProperty({ type: 'string', format: 'email', example: 'ann@example.com' })
  email!: string;
}

/** A workspace (an account) and the user's role in it; no role for a key's session. */
export class SessionWorkspaceResponse {
  @ApiInteger({ example: 1 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'Marketing' })
  name!: string;

  @ApiProperty({ type: 'string', enum: [...ROLES], enumName: 'Role', nullable: true })
  role!: Role | null;
}

/**
 * What a dashboard session may do: a key's, exactly its key's scopes (writes with the reads they include) and
 * spaces; a user's, their role's scopes in the workspace.
 */
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

  @ApiProperty({
    type: SessionKeyResponse,
    nullable: true,
    description: "The key's session's key; null for a user's.",
  })
  key!: SessionKeyResponse | null;

  @ApiProperty({
    type: SessionUserResponse,
    nullable: true,
    description: "The user; null for a key's session.",
  })
  user!: SessionUserResponse | null;

  @ApiProperty({ type: SessionWorkspaceResponse })
  workspace!: SessionWorkspaceResponse;

  @ApiProperty({
    type: SessionWorkspaceResponse,
    isArray: true,
    description:
      "Every workspace of the user, to switch to (`PUT /api/v1/session`); empty for a key's session.",
  })
  workspaces!: SessionWorkspaceResponse[];
}
