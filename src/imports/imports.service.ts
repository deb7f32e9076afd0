import { Injectable } from '@nestjs/common';
import type { Account } from '../auth/account.entity';
import { wholeAccount, type ApiCaller } from '../auth/owner';
import { SCOPES } from '../auth/scopes';
import {
  ResourceNotFoundException,
  UnauthorizedActionException,
  ValidationFailedException,
} from '../common/exceptions';
import { mapPage, type Page } from '../common/pagination';
import type { CreateImportDto, ImportListQueryDto } from './dto/import.dto';
import { ImportRunner } from './import-runner';
import { toImportResponse, type ImportResponse } from './import.mapper';
import { ImportsRepository } from './imports.repository';
import type { ImportSourceName } from './sources/source';

const BITLY_API = 'https://api-ssl.bitly.com';
const DEFAULT_TABLE_PREFIX = 'yourls_';

/** The options each source needs; each is a 422 on its own name when absent. */
const REQUIRED: Record<ImportSourceName, (keyof CreateImportDto)[]> = {
  phpshort: ['url', 'api_key'],
  shlink: ['url', 'api_key'],
  kutt: ['url', 'api_key'],
  bitly: ['access_token'],
  yourls: ['database_url'],
};

/** The options of each source that are secrets: held only while the import may run. */
const SECRETS = ['api_key', 'access_token', 'database_url'] as const;

/** The imports of a workspace: queued here, run by the runner, read and cancelled here. */
@Injectable()
export class ImportsService {
  constructor(
    private readonly repository: ImportsRepository,
    private readonly runner: ImportRunner,
  ) {}

  /** The caller an operator's command acts as: the whole workspace, as its owner's full key would. */
  callerFor(account: Account): ApiCaller {
    return {
      account,
      keyId: null,
      keyName: null,
      user: null,
      granted: new Set(SCOPES),
      owner: wholeAccount(account.id),
      expiresAt: null,
      sessionId: null,
      sessionExpiresAt: null,
    };
  }

  async create(caller: ApiCaller, dto: CreateImportDto): Promise<ImportResponse> {
    // An import makes spaces and puts links anywhere in the workspace: beyond a key restricted to spaces.
    if (caller.owner.spaceIds !== null) throw new UnauthorizedActionException();
    const missing = REQUIRED[dto.source].filter((field) => dto[field] === undefined || dto[field] === null);
    if (missing.length > 0) {
      throw new ValidationFailedException(
        Object.fromEntries(
          missing.map((field) => [field, [`The ${field.replace('_', ' ')} field is required.`]]),
        ),
      );
    }
    const credentials = Object.fromEntries(
      SECRETS.flatMap((field) => (typeof dto[field] === 'string' ? [[field, dto[field]]] : [])),
    );
    const options = this.options(dto);
    const job = await this.repository.insert({
      accountId: caller.account.id,
      source: dto.source,
      sourceOrigin: origin(dto.source, options, dto.database_url ?? null),
      dryRun: dto.dry_run ?? false,
      onConflict: dto.on_conflict ?? 'skip',
      options,
      credentials,
    });
    this.runner.wake();
    return toImportResponse(job);
  }

  async list(caller: ApiCaller, query: ImportListQueryDto): Promise<Page<ImportResponse>> {
    return mapPage(
      await this.repository.list(caller.account.id, query.pageRequest(), query.direction()),
      toImportResponse,
    );
  }

  async show(caller: ApiCaller, id: number): Promise<ImportResponse> {
    const job = await this.repository.find(caller.account.id, id);
    if (job === null) throw new ResourceNotFoundException();
    return toImportResponse(job);
  }

  /** Stops an import that has not ended; one that has is answered as it is. */
  async cancel(caller: ApiCaller, id: number): Promise<ImportResponse> {
    const cancelled = await this.repository.cancel(caller.account.id, id);
    return cancelled === null ? this.show(caller, id) : toImportResponse(cancelled);
  }

  /** The options that are no secret. */
  private options(dto: CreateImportDto): Record<string, string> {
    if (dto.source === 'yourls') return { table_prefix: dto.table_prefix ?? DEFAULT_TABLE_PREFIX };
    return { url: dto.url ?? BITLY_API };
  }
}

/**
 * What a source's links are known by across runs, without its credentials: its URL, or its database's host, port
 * and name with the table prefix.
 */
function origin(
  source: ImportSourceName,
  options: Record<string, string>,
  databaseUrl: string | null,
): string {
  if (source !== 'yourls') return `${source}:${options.url.replace(/\/+$/, '')}`;
  try {
    const url = new URL(databaseUrl ?? '');
    return `yourls:${url.hostname}:${url.port || '3306'}${url.pathname}#${options.table_prefix}`;
  } catch {
    return `yourls:${options.table_prefix}`;
  }
}
