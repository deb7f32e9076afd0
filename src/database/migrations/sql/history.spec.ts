import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each released migration runs, up then down with its parameters, as SHA-256. Migrations are history: the
 * builders of this folder that they share must never change a statement a database has already run. A migration
 * gets its line once it is released.
 */
const RAN: Record<string, string> = {
  InitialSchema1763712000000: 'ddd94341c4e8342731ad0beb23c562938b8e545f994f5d5437677726133621e2',
  LinksDomainsPixels1763798400000: 'd27b1736f8c4ef05a2eb52dec69a3c8034fc7b5b8e64c281f5c5a730a117babd',
  Clicks1763884800000: 'fb8045cf34e5127d6650e41c1f97de752e43a9c8b41ce57e6e9b419e9777a0e1',
  LinkCounters1764000000000: 'adc42dc68fd1794a0f94ae3426b8a35d4cfd6e5f0e1dd0eb3164359e2eb0aa74',
  LinkLists1764100000000: '05ea17f85e469191f08d9a961f225b28415ceab674640297f8f6404b0fa4be93',
  ClickBatches1764200000000: '2857318c06c2cff925eeb937e5f7a9c93fcacedaf065870b49bb3f73f2a00929',
  AccountEmail1764300000000: '0c8507ea14a0fa2e7f34666793e757406e7c64b7c1367b680025b15845ffb1ad',
  PixelValues1764400000000: 'a410f86762afd5bf1718a34a1fee269b240b60908cb4472efc78f56ab6dda422',
  ClickCity1764500000000: 'd8566fd8aff597e31e0b48c7f96eba1d4b43043efe2a840ec88a68936d2c3fdd',
  ClickWritePath1764600000000: '714e11dc0fd9caa85a14f3dcbf592af5e2c1d209ff9db169026670737edf02f8',
  LinkCountChanges1764700000000: '676c0605c6d4822f2c935db135018f40f4101a75afef68a345d2e6712e11b356',
  FastLinkWrites1764800000000: 'e8b5769c6031cd98006a0ce556fe5c5d4407affb57f8dbc8a598604964afafd6',
  ClickRollups1764900000000: 'f036870be2e87295f6854082fc0bad7c3f37c227a126f78551fd9c147a6ec332',
  KeyScopes1765000000000: '5f7fb530c14bc4dea8554e0dca638572a8505eb418970723023ad8b3a1c9be84',
  WebhooksAndEvents1765100000000: '3edbd29624cc973c92c5b5daa9459deefc52ea91ae83ba021e8475618ab05f2c',
  DashboardSessions1765200000000: '4a5f4b7e5e1fa9fb1c4245ab59cd28a735006fa5089259c00d203958dbb43017',
  ClickEventOffsets1765300000000: '7c622cc9948164cb827d320e89319f0ec4d38bdeb3468865cb873814d277428c',
  PeopleAndAudit1765400000000: '4e5f3256e8cc1587d045b5f67b91bff6e0f7aa1a10eb2bdf69852cad4e6f0dd6',
  Imports1765500000000: '3835ba9e6351300e2c1d25324f52eabbba189247d59235dbc932f8076d7ba6ec',
  LinkVisitFields1765600000000: 'e1ce7863c553cf15f68c855de7830b08b65c7990d094dff73de217c9c4a46f29',
  DomainAppFiles1765700000000: '19485f98f64cc2e8f115bf3fd8a44238ad172c165b12b49f46d2435bc3038a20',
  TagsAndArchive1765800000000: 'a9bcf258463d01358d9a822aefcaa65a2c98e7e0ea48a16ac5946968e1055855',
  LinkHealth1765900000000: '7f1793cbfd5610883a583646feb4e0983f2668f4e8ef30229491616b3a217118',
  UtmTemplates1766000000000: '73c4ab26b0913e654118949946d08f0e86d7d705d784470833d848ced49cdf4b',
  ClickTargets1766100000000: '3f892029c911973db4177314bc2ef89b546e94fc4a153beecdd3c0ef76bb645f',
  EventStreams1766210000000: 'a90df7622af2cf8fe826e73f9381f129dea5ad0cc42adccceddf339c1556fc0b',
  QrLogos1766230000000: '0b2746210ba2f32f4cf7b9661db072df367051d3e57c133c217b9395df31ba3d',
  ClickEventTimes1766250000000: '62ac765641d55ff197f753ec58aa4426a5aff6312e7856ed6e33a9faeaa84731',
  AccountClickRollups1766260000000: '1906590cb371bfc0477f538176c9ef008a0b1ee9cdcd59a99581c9c90c852241',
};

/** The migrations of the folder, by name, as the migration runner finds them. */
async function migrations(): Promise<Map<string, MigrationInterface>> {
  const folder = join(__dirname, '..');
  const found = new Map<string, MigrationInterface>();
  for (const file of readdirSync(folder).filter((name) => /^\d{13}-.+\.ts$/.test(name))) {
    const exported = (await import(join(folder, file))) as Record<string, unknown>;
    for (const value of Object.values(exported)) {
      if (typeof value !== 'function') continue;
      const migration = new (value as new () => MigrationInterface)();
      found.set(migration.name!, migration);
    }
  }
  return found;
}

/** The statements `migration` runs up, then down, each with its parameters: no database is asked anything. */
async function statements(migration: MigrationInterface): Promise<string> {
  const ran: string[] = [];
  const runner = {
    query: (sql: string, parameters?: unknown[]) => {
      ran.push(`${sql}\n${JSON.stringify(parameters ?? [])}`);
      return Promise.resolve([]);
    },
  } as unknown as QueryRunner;
  await migration.up(runner);
  ran.push('-- down');
  await migration.down(runner);
  return ran.join('\n;\n');
}

describe('released migrations', () => {
  let found: Map<string, MigrationInterface>;

  beforeAll(async () => {
    found = await migrations();
  });

  it.each(Object.entries(RAN))('%s runs what it ran', async (name, hash) => {
    const migration = found.get(name);
    expect(migration).toBeDefined();
    expect(
      createHash('sha256')
        .update(await statements(migration!))
        .digest('hex'),
    ).toBe(hash);
  });
});
