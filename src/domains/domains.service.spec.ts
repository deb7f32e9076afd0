import type { QuotasConfig, ServerConfig } from '../config/app-config';
import type { ChangeFeed } from '../database/change-feed';
import type { DomainsRepository } from './domains.repository';
import { DOMAINS_CHANGED, DomainsService } from './domains.service';
import type { Domain } from './domain.entity';
import { RecentOutage } from '../database/recent-outage';

const DEFAULT = { id: 1, name: 'sho.rt', accountId: null } as Domain;
const OWN = { id: 2, name: 'go.example', accountId: 7 } as Domain;

/** The service over a table of two domains, counting the queries that reach it. */
function service() {
  const rows = [DEFAULT, OWN];
  const queries: string[] = [];
  const repository = {
    findByName: (name: string) => {
      queries.push(name);
      return Promise.resolve(rows.find((row) => row.name === name) ?? null);
    },
    findByNameOrFail: (name: string) => {
      queries.push(name);
      return Promise.resolve(rows.find((row) => row.name === name)!);
    },
  } as unknown as DomainsRepository;
  const handlers: ((change: string) => void)[] = [];
  const feed = {
    listening: true,
    fresh: true,
    subscribe: (handler: (change: string) => void) => handlers.push(handler),
  } as unknown as ChangeFeed;
  const domains = new DomainsService(
    repository,
    { appUrl: 'https://sho.rt' } as ServerConfig,
    feed,
    {} as QuotasConfig,
    new RecentOutage(),
  );
  return { domains, queries, announce: (change: string) => handlers.forEach((handler) => handler(change)) };
}

describe('DomainsService.forHost', () => {
  it('answers an unknown host, an address and no host at all with the default domain', async () => {
    const { domains } = service();
    for (const host of ['elsewhere.example', '10.0.0.7:3000', '[::1]:3000', 'not a host!', undefined]) {
      expect(await domains.forHost(host)).toBe(DEFAULT);
    }
    expect(await domains.forHost('GO.example')).toBe(OWN);
  });

  it('keeps its domains in memory however many made-up hosts arrive', async () => {
    const { domains, queries } = service();
    await domains.forHost('go.example');
    await domains.forHost('sho.rt');
    for (let index = 0; index < 5000; index += 1) await domains.forHost(`made-up-${index}.example`);
    queries.length = 0;
    expect(domains.cachedForHost('go.example')).toBe(OWN);
    expect(domains.cachedForHost('sho.rt')).toBe(DEFAULT);
    expect(await domains.forHost('go.example')).toBe(OWN);
    expect(queries).toEqual([]);
  });

  it('asks the table once for a made-up host it saw lately, and for the default domain once', async () => {
    const { domains, queries } = service();
    for (let round = 0; round < 3; round += 1) {
      for (const host of ['a.example', 'b.example', 'c.example']) await domains.forHost(host);
    }
    expect(queries).toEqual(['a.example', 'sho.rt', 'b.example', 'c.example']);
  });

  it('forgets every host when a domain changes', async () => {
    const { domains, queries, announce } = service();
    await domains.forHost('go.example');
    await domains.forHost('new.example');
    announce(DOMAINS_CHANGED);
    expect(domains.cachedForHost('go.example')).toBeUndefined();
    expect(domains.cachedForHost('new.example')).toBeUndefined();
    queries.length = 0;
    await domains.forHost('new.example');
    expect(queries).toEqual(['new.example', 'sho.rt']);
  });
});
