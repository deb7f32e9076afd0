import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { CLIENT_TIMEOUT_GRACE_MS, dataSourceOptions } from './data-source-options';
import { DiscardingClient } from './discarding-client';

function extra(limits?: Parameters<typeof dataSourceOptions>[1]): Record<string, unknown> {
  return (dataSourceOptions('postgres://db/links', limits) as PostgresDataSourceOptions).extra as Record<
    string,
    unknown
  >;
}

describe('dataSourceOptions', () => {
  it('bounds every statement on the server and, a grace later, on the client', () => {
    expect(extra({ statementTimeoutMs: 3000, poolTimeoutMs: 2000, poolSize: 7 })).toEqual({
      max: 7,
      min: 0,
      connectionTimeoutMillis: 2000,
      statement_timeout: 3000,
      query_timeout: 3000 + CLIENT_TIMEOUT_GRACE_MS,
      Client: DiscardingClient,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
  });

  it('leaves statements unbounded without limits (migrations, one-off commands), the connect wait bounded', () => {
    expect(extra()).toMatchObject({ max: 10, connectionTimeoutMillis: 5000 });
    expect(extra().statement_timeout).toBeUndefined();
    expect(extra().query_timeout).toBeUndefined();
  });

  it('keeps the connections asked for open through quiet spells, never more than the pool holds', () => {
    expect(extra({ poolSize: 10, poolMin: 4 })).toMatchObject({ max: 10, min: 4 });
    expect(extra({ poolSize: 4, poolMin: 10 })).toMatchObject({ max: 4, min: 4 });
    expect(extra()).toMatchObject({ min: 0 });
  });
});
