import { applyDecorators } from '@nestjs/common';
import { SCOPES } from '../../auth/scopes';
import type { Scope } from '../../auth/scopes';
import { SearchableListQueryDto } from '../../common/list-query.dto';
import {
  FormDateTime,
  FormEnumList,
  FormIdList,
  FormString,
  Nullable,
  OptionalNotNull,
  Required,
} from '../../common/validation';

/** The spaces one key may be restricted to, at most. */
export const MAX_KEY_SPACES = 100;

const SCOPES_DOC =
  'What the key may do; a `.write` scope includes its `.read`. No more than the key that makes it holds.';
const SPACES_DOC =
  'The spaces the key is restricted to: it sees and changes only them and their links. Empty or absent: every ' +
  'space. Within the restriction of the key that makes it.';
const EXPIRES_DOC =
  'When the key stops working, in the future; empty or absent: never. No later than the key that makes it.';

/** The scopes a key holds: its rule, and what the document says of it, for create and update alike. */
const KeyScopes = () =>
  FormEnumList(SCOPES, 'Scope', { min: 1, max: SCOPES.length, description: SCOPES_DOC });

// Nullable() last, as stacked decorators apply it: the OpenAPI document keeps its order of keys.
/** The spaces a key is restricted to; null or empty: every space. */
const KeySpaces = () =>
  applyDecorators(FormIdList({ max: MAX_KEY_SPACES, description: SPACES_DOC }), Nullable());

/** When a key stops working; null: never. */
const KeyExpiry = () =>
  applyDecorators(FormDateTime({ description: EXPIRES_DOC, example: EXPIRY_EXAMPLE }), Nullable());

/** A key's expiry in the examples: far ahead, so that it stays in the future, as long as the API is served. */
const EXPIRY_EXAMPLE = '2099-12-31 23:59';

/** The document's example bodies. */
export const KEY_EXAMPLES = {
  create: { name: 'Reporting', scopes: ['links.read', 'stats.read'], expires_at: EXPIRY_EXAMPLE },
  update: { name: 'Reporting', scopes: ['links.read', 'stats.read'] },
};

export class CreateKeyDto {
  @Required()
  @FormString({ max: 100, description: 'To recognise the key by.' })
  name!: string;

  @Required()
  @KeyScopes()
  scopes!: Scope[];

  @KeySpaces()
  space_ids?: number[] | null;

  @KeyExpiry()
  expires_at?: Date | null;
}

/** PUT and PATCH alike: what is absent stays as it is. */
export class UpdateKeyDto {
  @OptionalNotNull()
  @FormString({ max: 100 })
  name?: string;

  @OptionalNotNull()
  @KeyScopes()
  scopes?: Scope[];

  @KeySpaces()
  space_ids?: number[] | null;

  @KeyExpiry()
  expires_at?: Date | null;
}

export const KEY_SEARCH_BY = ['name', 'prefix'] as const;
export const KEY_SORT_BY = ['id', 'name', 'last_used_at'] as const;

export class KeyListQueryDto extends SearchableListQueryDto('Key', KEY_SEARCH_BY, KEY_SORT_BY) {}
