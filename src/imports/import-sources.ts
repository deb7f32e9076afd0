import { Inject, Injectable } from '@nestjs/common';
import { PUBLIC_ADDRESSES_ONLY, type AddressPolicy } from '../common/outbound-address';
import type { ImportsConfig } from '../config/app-config';
import type { ImportJob } from './import-job.entity';
import { bitlySource } from './sources/bitly.source';
import { kuttSource } from './sources/kutt.source';
import { phpShortSource } from './sources/phpshort.source';
import { shlinkSource } from './sources/shlink.source';
import { SourceHttp, type SourceConnector } from './sources/source-http';
import type { ImportSource } from './sources/source';
import { yourlsSource } from './sources/yourls.source';

/** The most of one answer of a source that is read: a page of links with their history. */
const MAX_ANSWER_BYTES = 64 << 20;

/** Where sources are looked up and may be: the system's resolver and public addresses only, unless a test says otherwise. */
export const IMPORT_ADDRESS_POLICY = Symbol('IMPORT_ADDRESS_POLICY');

export const DEFAULT_IMPORT_ADDRESS_POLICY: AddressPolicy = {
  ...PUBLIC_ADDRESSES_ONLY,
};

/** The adapter of an import's source, connected under the import settings. */
@Injectable()
export class ImportSources {
  constructor(@Inject(IMPORT_ADDRESS_POLICY) private readonly policy: AddressPolicy) {}

  open(
    job: ImportJob,
    credentials: Record<string, string>,
    config: ImportsConfig,
    signal: AbortSignal,
  ): ImportSource {
    const connect: SourceConnector = (base, headers) =>
      new SourceHttp(base, headers, {
        ...this.policy,
        allowPrivateAddresses: config.importAllowPrivateAddresses,
        timeoutMs: config.importTimeoutMs,
        requestsPerSecond: config.importRequestsPerSecond,
        maxResponseBytes: MAX_ANSWER_BYTES,
        signal,
      });
    const url = job.options.url;
    switch (job.source) {
      case 'phpshort':
        return phpShortSource({ url, apiKey: credentials.api_key }, connect);
      case 'shlink':
        return shlinkSource({ url, apiKey: credentials.api_key }, connect);
      case 'kutt':
        return kuttSource({ url, apiKey: credentials.api_key }, connect);
      case 'bitly':
        return bitlySource({ accessToken: credentials.access_token, url }, connect);
      case 'yourls':
        return yourlsSource(
          { databaseUrl: credentials.database_url, tablePrefix: job.options.table_prefix },
          {
            ...this.policy,
            allowPrivateAddresses: config.importAllowPrivateAddresses,
            timeoutMs: config.importTimeoutMs,
            signal,
          },
        );
    }
  }
}
