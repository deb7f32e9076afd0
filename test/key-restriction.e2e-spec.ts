import { parse } from 'csv-parse/sync';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { clickFixtures } from './support/clicks';
import { NOT_FOUND } from './support/contract';
import { unique } from './support/visitors';

/**
 * A key restricted to spaces (contract §9) sees and changes only those spaces and their links: everything else is
 * a 404 or absent, as another account's is, on every route that reads or writes links and spaces; and what it
 * makes or moves must name one of its spaces. Each refusal has its control, the same request on its own space.
 */

const UNAUTHORIZED = { message: 'This action is unauthorized.', status: 403 };
const ALL_SCOPES = ['links.write', 'spaces.write', 'stats.read', 'keys.write', 'account.read'];

interface Link {
  id: number;
  alias: string;
  space: { id: number } | null;
}

describe('a key restricted to spaces', () => {
  let t: TestApp;
  let owner: TestAccount;
  let restricted: TestAccount;
  let mine: number;
  let theirs: number;
  let inMine: Link;
  let inTheirs: Link;
  let nowhere: Link;
  const { call, json } = apiClient(() => t);
  const { insertClicks } = clickFixtures(() => t);

  async function create(account: TestAccount, path: string, body: Record<string, unknown>) {
    const response = await json(account, 'post', path, body);
    expect(`${path}: ${response.status} ${JSON.stringify(response.body.message ?? '')}`).toBe(
      `${path}: 201 ""`,
    );
    return response.body.data as { id: number } & Record<string, unknown>;
  }

  const link = (account: TestAccount, spaceId: number | null) =>
    create(account, '/api/v1/links', {
      url: 'https://example.com/restricted',
      alias: unique('r'),
      ...(spaceId === null ? {} : { space_id: spaceId }),
    }) as Promise<unknown> as Promise<Link>;

  const ids = (body: { data: { id: number }[] }) => body.data.map((item) => item.id).sort((a, b) => a - b);

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    owner = await createAccount(t, 'Restricted');
    mine = (await create(owner, '/api/v1/spaces', { name: unique('Mine') })).id;
    theirs = (await create(owner, '/api/v1/spaces', { name: unique('Theirs') })).id;
    inMine = await link(owner, mine);
    inTheirs = await link(owner, theirs);
    nowhere = await link(owner, null);
    const key = await create(owner, '/api/v1/keys', {
      name: 'Restricted',
      scopes: ALL_SCOPES,
      space_ids: [mine],
    });
    restricted = { ...owner, apiKey: key.key as string, auth: `Bearer ${key.key as string}` };
    await insertClicks(inMine.id, [{ country: 'US' }]);
    await insertClicks(inTheirs.id, [{ country: 'FR' }, { country: 'FR' }]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists only the links of its spaces, whatever the filter or order', async () => {
    for (const query of [
      '',
      '?sort_by=clicks',
      '?status=1',
      '?status=2',
      '?search=restricted&search_by=url',
      '?sort_by=title&per_page=100',
    ]) {
      const response = await call(restricted, 'get', `/api/v1/links${query}`);
      expect(`${query}: ${response.status}`).toBe(`${query}: 200`);
      const found = ids(response.body);
      expect(found).not.toContain(inTheirs.id);
      expect(found).not.toContain(nowhere.id);
      if (query !== '?status=2')
        expect(`${query}: ${JSON.stringify(found)}`).toBe(`${query}: ${JSON.stringify([inMine.id])}`);
      expect(response.body.meta.total).toBe(found.length);
    }
    // A filter on another space, or on none, finds nothing rather than what the owner would see.
    for (const spaceId of [theirs, 0]) {
      const response = await call(restricted, 'get', `/api/v1/links?space_id=${spaceId}`);
      expect(response.body.data).toEqual([]);
      expect(response.body.meta.total).toBe(0);
    }
    // Control: the owner's full key sees all three.
    const all = ids((await call(owner, 'get', '/api/v1/links?per_page=100')).body);
    expect(all).toEqual(expect.arrayContaining([inMine.id, inTheirs.id, nowhere.id]));
  });

  it('exports only the links of its spaces', async () => {
    const response = await call(restricted, 'get', '/api/v1/links/export');
    expect(response.status).toBe(200);
    const rows = parse<{ id: string }>(response.text, { columns: true });
    expect(rows.map((row) => Number(row.id))).toEqual([inMine.id]);
  });

  it('answers 404 for every route on a link outside its spaces, and serves its own', async () => {
    for (const other of [inTheirs, nowhere]) {
      for (const path of [
        `/api/v1/links/${other.id}`,
        `/api/v1/links/${other.id}/qr`,
        `/api/v1/stats/${other.id}`,
        `/api/v1/stats/${other.id}?name=country`,
        `/api/v1/stats/${other.id}/export`,
      ]) {
        expect(`${path}: ${JSON.stringify((await call(restricted, 'get', path)).body)}`).toBe(
          `${path}: ${JSON.stringify(NOT_FOUND)}`,
        );
        expect(
          `${path} (own): ${(await call(restricted, 'get', path.replace(String(other.id), String(inMine.id)))).status}`,
        ).toBe(`${path} (own): 200`);
      }
      expect(
        (await json(restricted, 'put', `/api/v1/links/${other.id}`, { url: 'https://example.com/x' })).body,
      ).toEqual(NOT_FOUND);
      expect(
        (await json(restricted, 'patch', `/api/v1/links/${other.id}`, { url: 'https://example.com/x' })).body,
      ).toEqual(NOT_FOUND);
      expect((await call(restricted, 'delete', `/api/v1/links/${other.id}`)).body).toEqual(NOT_FOUND);
      // Still there, unchanged.
      const seen = await call(owner, 'get', `/api/v1/links/${other.id}`);
      expect(seen.body.data.url).toBe('https://example.com/restricted');
    }
    // Its own stats count its own clicks.
    const stats = await call(restricted, 'get', `/api/v1/stats/${inMine.id}?name=country`);
    expect(stats.body.data).toEqual([{ value: 'US:United States', count: 1 }]);
  });

  it('must file what it creates or moves under one of its spaces (422 on space_id)', async () => {
    for (const body of [{}, { space_id: '' }, { space_id: 0 }, { space_id: theirs }]) {
      const response = await json(restricted, 'post', '/api/v1/links', {
        url: 'https://example.com/new',
        ...body,
      });
      expect(
        `${JSON.stringify(body)}: ${response.status} ${Object.keys(response.body.message ?? {}).join()}`,
      ).toBe(`${JSON.stringify(body)}: 422 space_id`);
    }
    const made = await create(restricted, '/api/v1/links', {
      url: 'https://example.com/new',
      space_id: mine,
    });
    for (const spaceId of [theirs, null, 0]) {
      const moved = await json(restricted, 'patch', `/api/v1/links/${made.id}`, { space_id: spaceId });
      expect(`${spaceId}: ${moved.status} ${Object.keys(moved.body.message ?? {}).join()}`).toBe(
        `${spaceId}: 422 space_id`,
      );
    }
    expect((await call(owner, 'get', `/api/v1/links/${made.id}`)).body.data.space.id).toBe(mine);
    expect((await json(restricted, 'patch', `/api/v1/links/${made.id}`, { title: 'Kept' })).status).toBe(200);
  });

  it('names the item of a bulk create or an import that is not in its spaces, and makes none', async () => {
    const before = (await call(owner, 'get', '/api/v1/links')).body.meta.total as number;
    const bulk = await json(restricted, 'post', '/api/v1/links/bulk', {
      links: [
        { url: 'https://example.com/b0', space_id: mine },
        { url: 'https://example.com/b1', space_id: theirs },
        { url: 'https://example.com/b2' },
      ],
    });
    expect(bulk.status).toBe(422);
    expect(Object.keys(bulk.body.message as object).sort()).toEqual(['links.1.space_id', 'links.2.space_id']);
    const imported = await call(restricted, 'post', '/api/v1/links/import')
      .type('text/csv')
      .send(`url,space_id\nhttps://example.com/i0,${mine}\nhttps://example.com/i1,${theirs}\n`);
    expect(imported.status).toBe(422);
    expect(Object.keys(imported.body.message as object)).toEqual(['line.3.space_id']);
    expect((await call(owner, 'get', '/api/v1/links')).body.meta.total).toBe(before);
    // Control: the same import within its space is made.
    const fine = await call(restricted, 'post', '/api/v1/links/import')
      .type('text/csv')
      .send(`url,space_id\nhttps://example.com/i0,${mine}\n`);
    expect(fine.status).toBe(201);
  });

  it('may not start an import from another shortener, which makes spaces and puts links anywhere', async () => {
    const body = { source: 'yourls', database_url: 'mysql://127.0.0.1:9/none' };
    const refused = await json(restricted, 'post', '/api/v1/imports', body);
    expect(refused.status).toBe(403);
    expect((await call(owner, 'get', '/api/v1/imports')).body.meta.total).toBe(0);
    // Control: the key without a restriction starts it.
    expect((await json(owner, 'post', '/api/v1/imports', body)).status).toBe(202);
  });

  it('sees and changes only its spaces, and makes none', async () => {
    const listed = await call(restricted, 'get', '/api/v1/spaces');
    expect(ids(listed.body)).toEqual([mine]);
    expect(listed.body.meta.total).toBe(1);
    expect((await call(restricted, 'get', `/api/v1/spaces/${theirs}`)).body).toEqual(NOT_FOUND);
    expect((await json(restricted, 'patch', `/api/v1/spaces/${theirs}`, { color: 2 })).body).toEqual(
      NOT_FOUND,
    );
    expect((await call(restricted, 'delete', `/api/v1/spaces/${theirs}`)).body).toEqual(NOT_FOUND);
    expect((await call(owner, 'get', `/api/v1/spaces/${theirs}`)).status).toBe(200);
    expect((await json(restricted, 'patch', `/api/v1/spaces/${mine}`, { color: 5 })).body.data.color).toBe(5);
    const made = await json(restricted, 'post', '/api/v1/spaces', { name: unique('Made') });
    expect(made.body).toEqual(UNAUTHORIZED);
  });

  it('loses a space it is restricted to with that space, and never gains the others', async () => {
    const gone = (await create(owner, '/api/v1/spaces', { name: unique('Gone') })).id;
    const inGone = await link(owner, gone);
    const key = await create(owner, '/api/v1/keys', {
      name: 'Gone',
      scopes: ['links.read'],
      space_ids: [gone],
    });
    const reader = { ...owner, auth: `Bearer ${key.key as string}` };
    expect(ids((await call(reader, 'get', '/api/v1/links')).body)).toEqual([inGone.id]);
    await call(owner, 'delete', `/api/v1/spaces/${gone}`);
    // Its link stays, without a space: beyond the key now, as every other link is.
    const after = await call(reader, 'get', '/api/v1/links');
    expect(after.status).toBe(200);
    expect(after.body.data).toEqual([]);
    expect((await call(reader, 'get', `/api/v1/links/${inGone.id}`)).body).toEqual(NOT_FOUND);
  });
});
