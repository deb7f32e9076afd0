import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { Fixtures, SpecialLink } from './context';
import { api } from './http';

interface Created {
  data: { id: number; alias?: string; url?: string };
}

/**
 * What the bulk links refer to and the links of the special scenarios, made through the API with the bench key
 * as a user would make them: whatever the service stores besides the rows (counters, caches) is made too.
 */
export async function makeFixtures(
  origin: string,
  apiKey: string,
  db: Pool,
  limit: number,
): Promise<Fixtures> {
  const post = async (path: string, body: unknown) =>
    (await api<Created>(origin, apiKey, { method: 'POST', path, body })).data;
  const keyHash = createHash('sha256').update(apiKey, 'utf8').digest('hex');
  const account = await db.query<{ account_id: number }>(
    'SELECT account_id FROM api_keys WHERE key_hash = $1',
    [keyHash],
  );
  const domain = await db.query<{ id: number }>('SELECT id FROM domains WHERE name = $1', [
    new URL(origin).host,
  ]);
  if (account.rows.length !== 1 || domain.rows.length !== 1) {
    throw new Error('The service made no account for INITIAL_API_KEY, or no system domain for APP_URL');
  }
  const spaceIds = [
    (await post('/api/v1/spaces', { name: 'Bench space 1' })).id,
    (await post('/api/v1/spaces', { name: 'Bench space 2' })).id,
    (await post('/api/v1/spaces', { name: 'Bench space 3' })).id,
  ] as const;
  const pixelId = (
    await post('/api/v1/pixels', { name: 'Bench pixel', type: 'facebook', value: '1234567890' })
  ).id;
  const customDomainId = (await post('/api/v1/domains', { name: 'bench-links.example' })).id;

  const link = async (alias: string, fields: Record<string, unknown>): Promise<SpecialLink> => {
    const url = `https://example.com/${alias}`;
    const created = await post('/api/v1/links', { url, alias, title: `Bench ${alias}`, ...fields });
    return { id: created.id, alias, url };
  };
  const rotations = ['https://example.com/r1', 'https://example.com/r2', 'https://example.com/r3'];
  return {
    accountId: account.rows[0].account_id,
    systemDomainId: domain.rows[0].id,
    customDomainId,
    spaceIds,
    pixelId,
    country: await link('bench-country', {
      targets_type: 'countries',
      targets: [
        { key: 'US', value: 'https://example.com/us' },
        { key: 'DE', value: 'https://example.com/de' },
      ],
    }),
    device: await link('bench-device', {
      targets_type: 'devices',
      targets: [
        { key: 'Desktop', value: 'https://example.com/desktop' },
        { key: 'Mobile', value: 'https://example.com/mobile' },
      ],
    }),
    limited: { ...(await link('bench-limited', { clicks_limit: limit })), limit },
    rotating: {
      ...(await link('bench-rotating', {
        targets_type: 'rotations',
        targets: rotations.map((value) => ({ value })),
      })),
      targets: rotations,
    },
  };
}
