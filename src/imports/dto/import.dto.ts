import { Matches } from 'class-validator';
import { ListQueryDto } from '../../common/list-query.dto';
import {
  FormBool,
  FormEnum,
  FormString,
  FormUrl,
  Nullable,
  OptionalNotNull,
  Required,
} from '../../common/validation';
import { ON_CONFLICT, type OnConflict } from '../import-job.entity';
import { IMPORT_SOURCES, type ImportSourceName } from '../sources/source';

/** A table prefix MySQL takes unquoted, and that a query may name without anything else slipping in. */
const TABLE_PREFIX = /^[A-Za-z0-9_]{0,64}$/;

/**
 * An import (contract §12). Which options a source needs is checked by the service: `url` and `api_key` for
 * phpShort, Shlink and Kutt; `access_token` for Bitly; `database_url` for YOURLS.
 */
export class CreateImportDto {
  @Required()
  @FormEnum(IMPORT_SOURCES, 'ImportSource')
  source!: ImportSourceName;

  @Nullable()
  @FormUrl({
    description: "The source's base URL (phpShort, Shlink, Kutt; Bitly's API by default).",
    example: 'https://short.example',
  })
  url?: string | null;

  @Nullable()
  @FormString({
    max: 1000,
    description: "The source's API key (phpShort, Shlink, Kutt): used for the import alone.",
    example: 'the-source-api-key',
  })
  api_key?: string | null;

  @Nullable()
  @FormString({ max: 1000, description: 'A Bitly access token: used for the import alone.' })
  access_token?: string | null;

  @Nullable()
  @FormString({
    max: 2000,
    description: "YOURLS' database, `mysql://user:password@host:3306/database`: used for the import alone.",
  })
  database_url?: string | null;

  @Nullable()
  @FormString({ max: 64, description: "YOURLS' table prefix; `yourls_` when absent." })
  @Matches(TABLE_PREFIX, {
    message: 'The table prefix field must only contain letters, numbers and underscores.',
  })
  table_prefix?: string | null;

  @OptionalNotNull()
  @FormBool({ description: '1: report what would happen, write nothing.' })
  dry_run?: boolean;

  @Nullable()
  @FormEnum(ON_CONFLICT, 'ImportOnConflict', {
    description:
      'A taken alias: `skip` the link (default), take the first free `alias-N`, or `update` the link.',
  })
  on_conflict?: OnConflict | null;
}

export const IMPORT_EXAMPLE = {
  source: 'phpshort',
  url: 'https://short.example',
  api_key: 'the-source-api-key',
  dry_run: 0,
  on_conflict: 'skip',
};

/** The list of imports: pages, newest first (`sort=asc`: oldest first). */
export class ImportListQueryDto extends ListQueryDto {}
