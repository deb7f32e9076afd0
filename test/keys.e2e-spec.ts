import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient, ISO_DATE, UNKNOWN_ID, type Body } from './support/api';
import { NOT_FOUND, UNAUTHENTICATED } from './support/contract';
import { sleep } from './support/sleep';
import { unique } from './support/visitors';

/**
 * `/api/v1/keys` (contract §9): the fields and envelopes, the secret shown once, validation, no escalation through
 * scopes, spaces or lifetime, revocation and expiry from the next request, and the last use kept to the minute.
 */

const KEYS = '/api/v1/keys';
const KEY_FIELDS = [
  'id',
  'name',
  'prefix',
  'scopes',
  'space_ids',
  'expires_at',
  'last_used_at',
  'created_at',
  'updated_at',
];
const UNAUTHORIZED = { message: 'This action is unauthorized.', status: 403 };

interface KeyData {
  id: number;
  name: string;
  prefix: string | null;
  scopes: string[];
  space_ids: number[];
  expires_at: string | null;
  last_used_at: string | null;
  key?: string;
}

/** `Y-m-d H:i` (UTC) `minutes` from now. */
function minutesFromNow(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

describe('API keys over the API', () => {
  let t: TestApp;
  let owner: TestAccount;
  const { call, form, json } = apiClient(() => t);

  /** Creates a key as `account` (201 or the test fails) and returns it with a client that uses it. */
  async function makeKey(account: TestAccount, body: Body): Promise<{ key: KeyData; as: TestAccount }> {
    const response = await json(account, 'post', KEYS, { name: unique('Key'), ...body });
    expect(`${response.status} ${JSON.stringify(response.body)}`).toMatch(/^201 /);
    const key = (response.body as { data: KeyData }).data;
    return { key, as: { ...account, apiKey: key.key!, auth: `Bearer ${key.key!}` } };
  }

  async function makeSpace(account: TestAccount): Promise<number> {
    const response = await json(account, 'post', '/api/v1/spaces', { name: unique('Space') });
    expect(response.status).toBe(201);
    return (response.body as { data: { id: number } }).data.id;
  }

  async function lastUsed(id: number): Promise<Date | null> {
    const [row] = await t.dataSource.query<{ last_used_at: Date | null }[]>(
      'SELECT last_used_at FROM api_keys WHERE id = $1',
      [id],
    );
    return row.last_used_at;
  }

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    owner = await createAccount(t, 'Keys');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('create', () => {
    it('answers 201 with every field in order, the key itself once, and the key works at once', async () => {
      const response = await form(
        owner,
        'post',
        KEYS,
        'name=Reporting&scopes[]=stats.read&scopes[]=links.read',
      );
      expect(response.status).toBe(201);
      const body = response.body as { data: KeyData; status: number };
      expect(body.status).toBe(200);
      expect(Object.keys(body.data)).toEqual([...KEY_FIELDS, 'key']);
      expect(body.data).toEqual({
        id: expect.any(Number),
        name: 'Reporting',
        prefix: body.data.key!.slice(0, 8),
        // In the contract's order, whatever the order sent.
        scopes: ['links.read', 'stats.read'],
        space_ids: [],
        expires_at: null,
        last_used_at: null,
        created_at: expect.stringMatching(ISO_DATE),
        updated_at: expect.stringMatching(ISO_DATE),
        key: expect.stringMatching(/^lsk_[A-Za-z0-9_-]{43}$/),
      });
      expect(body.data.prefix).toMatch(/^lsk_.{4}$/);
      const reader = { ...owner, auth: `Bearer ${body.data.key!}` };
      expect((await call(reader, 'get', '/api/v1/links')).status).toBe(200);
    });

    it('never shows the key again: not in show, list or update, and not its hash', async () => {
      const { key } = await makeKey(owner, { scopes: ['links.read'] });
      const shown = await call(owner, 'get', `${KEYS}/${key.id}`);
      expect(Object.keys(shown.body.data as object)).toEqual(KEY_FIELDS);
      const listed = await call(owner, 'get', `${KEYS}?per_page=100`);
      const texts = [
        shown.text,
        listed.text,
        (await json(owner, 'patch', `${KEYS}/${key.id}`, { name: 'x' })).text,
      ];
      for (const text of texts) {
        expect(text).not.toContain(key.key!);
        expect(text).not.toContain(key.key!.slice(8));
        expect(text).not.toMatch(/[0-9a-f]{64}/);
      }
    });

    it('takes JSON too, with an expiry and spaces; an empty space list is every space', async () => {
      const space = await makeSpace(owner);
      const when = minutesFromNow(60);
      const { key } = await makeKey(owner, { scopes: ['links.write'], space_ids: [space], expires_at: when });
      expect(key.space_ids).toEqual([space]);
      expect(key.expires_at).toBe(`${when.replace(' ', 'T')}:00.000000Z`);
      const { key: every } = await makeKey(owner, { scopes: ['links.read'], space_ids: [] });
      expect(every.space_ids).toEqual([]);
    });

    it.each<[string, Body, Record<string, string>]>([
      ['no name', { scopes: ['links.read'] }, { name: 'The name field is required.' }],
      [
        'a long name',
        { name: 'n'.repeat(101), scopes: ['links.read'] },
        { name: 'The name field must not be greater than 100 characters.' },
      ],
      ['no scopes', { name: 'x' }, { scopes: 'The scopes field is required.' }],
      [
        'an empty scope list',
        { name: 'x', scopes: [] },
        { scopes: 'The scopes field must have at least 1 item.' },
      ],
      [
        'an unknown scope',
        { name: 'x', scopes: ['links.read', 'links.admin'] },
        { scopes: 'The selected scopes is invalid.' },
      ],
      [
        'a scope that is not a string',
        { name: 'x', scopes: [{ a: 1 }] },
        { scopes: 'The selected scopes is invalid.' },
      ],
      [
        'a past expiry',
        { name: 'x', scopes: ['links.read'], expires_at: '2020-01-01 10:00' },
        { expires_at: 'The expires at must be a date after now.' },
      ],
      [
        'an impossible expiry',
        { name: 'x', scopes: ['links.read'], expires_at: '2030-02-30 10:00' },
        { expires_at: 'The expires at field must be a valid date in the format Y-m-d H:i.' },
      ],
      [
        'a space that is not an id',
        { name: 'x', scopes: ['links.read'], space_ids: ['abc'] },
        { space_ids: 'The selected id is invalid.' },
      ],
      [
        'an unknown space',
        { name: 'x', scopes: ['links.read'], space_ids: [UNKNOWN_ID] },
        { 'space_ids.0': 'The selected space is invalid.' },
      ],
    ])('refuses %s with a 422 naming the field', async (_name, body, fields) => {
      const before = (await call(owner, 'get', KEYS)).body.meta.total as number;
      const response = await json(owner, 'post', KEYS, body);
      expect(response.status).toBe(422);
      const message = (response.body as { message: Record<string, string[]> }).message;
      expect(Object.keys(message)).toEqual(Object.keys(fields));
      for (const [field, reason] of Object.entries(fields)) expect(message[field]).toContain(reason);
      expect((await call(owner, 'get', KEYS)).body.meta.total).toBe(before);
    });

    it('refuses another account’s space as an unknown one', async () => {
      const other = await createAccount(t);
      const theirs = await makeSpace(other);
      const response = await json(owner, 'post', KEYS, {
        name: 'x',
        scopes: ['links.read'],
        space_ids: [theirs],
      });
      expect(response.status).toBe(422);
      expect(response.body.message).toEqual({ 'space_ids.0': ['The selected space is invalid.'] });
    });
  });

  describe('no escalation', () => {
    it('refuses scopes beyond the maker’s own with a 422 on scopes, and allows those within, reads of writes included', async () => {
      const { as: maker } = await makeKey(owner, { scopes: ['keys.write', 'links.write'] });
      const refused = await json(maker, 'post', KEYS, { name: 'more', scopes: ['links.read', 'stats.read'] });
      expect(refused.status).toBe(422);
      expect(refused.body.message).toEqual({
        scopes: ["The scopes may not go beyond the key's own; it lacks stats.read."],
      });
      const within = await json(maker, 'post', KEYS, { name: 'less', scopes: ['links.read', 'keys.read'] });
      expect(within.status).toBe(201);
    });

    it('refuses a wider restriction (or none) to a restricted maker with a 422 on space_ids', async () => {
      const [a, b] = [await makeSpace(owner), await makeSpace(owner)];
      const { as: maker } = await makeKey(owner, { scopes: ['keys.write', 'links.read'], space_ids: [a] });
      for (const spaceIds of [undefined, [], [b], [a, b], [UNKNOWN_ID]]) {
        const response = await json(maker, 'post', KEYS, {
          name: 'x',
          scopes: ['links.read'],
          space_ids: spaceIds,
        });
        expect(
          `${JSON.stringify(spaceIds)}: ${response.status} ${JSON.stringify(response.body.message)}`,
        ).toBe(
          `${JSON.stringify(spaceIds)}: 422 ${JSON.stringify({ space_ids: ["The space ids must lie within the key's own restriction."] })}`,
        );
      }
      const within = await json(maker, 'post', KEYS, { name: 'x', scopes: ['links.read'], space_ids: [a] });
      expect(within.status).toBe(201);
      expect(within.body.data.space_ids).toEqual([a]);
    });

    it('makes an expiring maker’s keys expire with it, and refuses a later expiry', async () => {
      const until = minutesFromNow(30);
      const { as: maker } = await makeKey(owner, { scopes: ['keys.write'], expires_at: until });
      const inherited = await json(maker, 'post', KEYS, { name: 'x', scopes: ['keys.read'] });
      expect(inherited.status).toBe(201);
      expect(inherited.body.data.expires_at).toBe(`${until.replace(' ', 'T')}:00.000000Z`);
      const later = await json(maker, 'post', KEYS, {
        name: 'x',
        scopes: ['keys.read'],
        expires_at: minutesFromNow(90),
      });
      expect(later.status).toBe(422);
      expect(Object.keys(later.body.message as object)).toEqual(['expires_at']);
      const sooner = await json(maker, 'post', KEYS, {
        name: 'x',
        scopes: ['keys.read'],
        expires_at: minutesFromNow(10),
      });
      expect(sooner.status).toBe(201);
    });

    it('refuses an update that would leave a key beyond its maker, and changes nothing', async () => {
      const { key: maker, as: makerClient } = await makeKey(owner, { scopes: ['keys.write', 'links.read'] });
      const widened = await json(makerClient, 'patch', `${KEYS}/${maker.id}`, {
        name: 'wider',
        scopes: ['keys.write', 'stats.read'],
      });
      expect(widened.status).toBe(422);
      expect(Object.keys(widened.body.message as object)).toEqual(['scopes']);
      const after = (await call(owner, 'get', `${KEYS}/${maker.id}`)).body.data as KeyData;
      expect([after.name, after.scopes]).toEqual([maker.name, maker.scopes]);
    });

    it('refuses with 403 to change a stronger key by PUT or PATCH, even to narrow it, and changes nothing', async () => {
      const { as: weak } = await makeKey(owner, {
        scopes: ['links.read', 'keys.write'],
        expires_at: minutesFromNow(60),
      });
      const { key: full } = await makeKey(owner, { scopes: ['links.write', 'keys.write', 'stats.read'] });
      const before = (await call(owner, 'get', `${KEYS}/${full.id}`)).body;
      const disarm = { name: 'disarmed', scopes: ['links.read'], expires_at: minutesFromNow(2) };
      for (const method of ['put', 'patch'] as const) {
        for (const body of [disarm, { name: 'renamed' }, { expires_at: minutesFromNow(2) }]) {
          const response = await json(weak, method, `${KEYS}/${full.id}`, body);
          expect(
            `${method} ${JSON.stringify(body)}: ${response.status} ${JSON.stringify(response.body)}`,
          ).toBe(`${method} ${JSON.stringify(body)}: 403 ${JSON.stringify(UNAUTHORIZED)}`);
        }
      }
      expect((await call(owner, 'get', `${KEYS}/${full.id}`)).body).toEqual(before);
    });

    it('refuses with 403 a restricted key’s change of a key of its space that it could not have made', async () => {
      const space = await makeSpace(owner);
      const { as: restricted } = await makeKey(owner, {
        scopes: ['keys.write', 'links.read'],
        space_ids: [space],
      });
      const { key: stronger } = await makeKey(owner, { scopes: ['links.write'], space_ids: [space] });
      const { key: within } = await makeKey(owner, { scopes: ['links.read'], space_ids: [space] });
      const before = (await call(owner, 'get', `${KEYS}/${stronger.id}`)).body;
      const narrowed = await json(restricted, 'patch', `${KEYS}/${stronger.id}`, { scopes: ['links.read'] });
      expect(narrowed.status).toBe(403);
      expect(narrowed.body).toEqual(UNAUTHORIZED);
      expect((await call(owner, 'get', `${KEYS}/${stronger.id}`)).body).toEqual(before);
      const renamed = await json(restricted, 'patch', `${KEYS}/${within.id}`, { name: 'mine' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.data.name).toBe('mine');
    });

    it('refuses with 403 an expiring key’s change of a key that outlives it, and allows one that does not', async () => {
      const { as: expiring } = await makeKey(owner, {
        scopes: ['keys.write'],
        expires_at: minutesFromNow(60),
      });
      const { key: forever } = await makeKey(owner, { scopes: ['keys.read'] });
      const { key: sooner } = await makeKey(owner, { scopes: ['keys.read'], expires_at: minutesFromNow(30) });
      expect((await json(expiring, 'patch', `${KEYS}/${forever.id}`, { name: 'x' })).status).toBe(403);
      expect((await call(expiring, 'delete', `${KEYS}/${forever.id}`)).status).toBe(403);
      expect((await json(expiring, 'patch', `${KEYS}/${sooner.id}`, { name: 'x' })).status).toBe(200);
    });

    it('lets a key revoke only keys within its own power, and itself', async () => {
      const { key: narrowKey, as: narrow } = await makeKey(owner, { scopes: ['keys.write'] });
      const { key: wide } = await makeKey(owner, { scopes: ['links.write', 'keys.write'] });
      const refused = await call(narrow, 'delete', `${KEYS}/${wide.id}`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(UNAUTHORIZED);
      expect((await call(owner, 'get', `${KEYS}/${wide.id}`)).status).toBe(200);
      const self = await call(narrow, 'delete', `${KEYS}/${narrowKey.id}`);
      expect(self.body).toEqual({ id: narrowKey.id, object: 'key', deleted: true, status: 200 });
      expect((await call(narrow, 'get', '/api/v1/keys')).body).toEqual(UNAUTHENTICATED);
    });

    it('shows a restricted key only itself and the keys within its spaces', async () => {
      const [a, b] = [await makeSpace(owner), await makeSpace(owner)];
      const { key: self, as: restricted } = await makeKey(owner, { scopes: ['keys.read'], space_ids: [a] });
      const { key: inA } = await makeKey(owner, { scopes: ['links.read'], space_ids: [a] });
      const { key: inB } = await makeKey(owner, { scopes: ['links.read'], space_ids: [b] });
      const { key: every } = await makeKey(owner, { scopes: ['links.read'] });
      const listed = (await call(restricted, 'get', `${KEYS}?per_page=100`)).body.data as KeyData[];
      expect(listed.map((key) => key.id).sort((x, y) => x - y)).toEqual(
        [self.id, inA.id].sort((x, y) => x - y),
      );
      for (const hidden of [inB, every]) {
        expect((await call(restricted, 'get', `${KEYS}/${hidden.id}`)).body).toEqual(NOT_FOUND);
      }
    });
  });

  describe('list, show, update, delete', () => {
    it('lists the account’s live keys in the list envelope, newest first, searchable by name', async () => {
      const account = await createAccount(t);
      const tag = unique('listed');
      const made = [];
      for (let index = 0; index < 3; index += 1)
        made.push((await makeKey(account, { name: `${tag} ${index}`, scopes: ['links.read'] })).key);
      const response = await call(account, 'get', `${KEYS}?search=${tag}`);
      expect(response.status).toBe(200);
      expect((response.body.data as KeyData[]).map((key) => key.id)).toEqual(
        made.map((key) => key.id).reverse(),
      );
      expect(response.body.meta.total).toBe(3);
      await call(account, 'delete', `${KEYS}/${made[1].id}`);
      const after = await call(account, 'get', `${KEYS}?search=${tag}&sort_by=name&sort=asc`);
      expect((after.body.data as KeyData[]).map((key) => key.name)).toEqual([`${tag} 0`, `${tag} 2`]);
      const none = await call(account, 'get', `${KEYS}?search=${unique('none')}`);
      expect(none.body).toMatchObject({ data: [], meta: { total: 0, from: null, to: null }, status: 200 });
    });

    it('updates with PUT and PATCH alike, only what is sent', async () => {
      const { key } = await makeKey(owner, { scopes: ['links.read'], expires_at: minutesFromNow(60) });
      const put = await form(owner, 'put', `${KEYS}/${key.id}`, 'scopes[]=stats.read');
      expect(put.status).toBe(200);
      expect(put.body.data).toMatchObject({
        name: key.name,
        scopes: ['stats.read'],
        expires_at: key.expires_at,
      });
      const patched = await form(owner, 'patch', `${KEYS}/${key.id}`, { name: 'Renamed', expires_at: '' });
      expect(patched.body.data).toMatchObject({ name: 'Renamed', scopes: ['stats.read'], expires_at: null });
      const invalidName = await json(owner, 'patch', `${KEYS}/${key.id}`, { name: '' });
      expect(invalidName.status).toBe(422);
      expect(Object.keys(invalidName.body.message as object)).toEqual(['name']);
    });

    it('answers 404 for an unknown id, a revoked key and another account’s key', async () => {
      const other = await createAccount(t);
      const { key: theirs } = await makeKey(other, { scopes: ['links.read'] });
      const { key: revoked } = await makeKey(owner, { scopes: ['links.read'] });
      await call(owner, 'delete', `${KEYS}/${revoked.id}`);
      for (const id of [UNKNOWN_ID, revoked.id, theirs.id]) {
        for (const request of [
          call(owner, 'get', `${KEYS}/${id}`),
          json(owner, 'put', `${KEYS}/${id}`, { name: 'x' }),
          call(owner, 'delete', `${KEYS}/${id}`),
        ]) {
          expect((await request).body).toEqual(NOT_FOUND);
        }
      }
      expect((await call(other, 'get', `${KEYS}/${theirs.id}`)).status).toBe(200);
    });
  });

  describe('a key’s life', () => {
    it('is refused with 401 from the request after its revocation', async () => {
      const { key, as: doomed } = await makeKey(owner, { scopes: ['links.read'] });
      expect((await call(doomed, 'get', '/api/v1/links')).status).toBe(200);
      expect((await call(owner, 'delete', `${KEYS}/${key.id}`)).status).toBe(200);
      expect((await call(doomed, 'get', '/api/v1/links')).body).toEqual(UNAUTHENTICATED);
    });

    it('is refused with 401 once its expiry passes', async () => {
      const { key, as: brief } = await makeKey(owner, {
        scopes: ['links.read'],
        expires_at: minutesFromNow(60),
      });
      // The minute's end brought near: two seconds from now.
      await t.dataSource.query(
        `UPDATE api_keys SET expires_at = now() + interval '2 seconds' WHERE id = $1`,
        [key.id],
      );
      expect((await call(brief, 'get', '/api/v1/links')).status).toBe(200);
      await sleep(2100);
      expect((await call(brief, 'get', '/api/v1/links')).body).toEqual(UNAUTHENTICATED);
      // Still listed, to be seen, with its expiry in the past.
      expect((await call(owner, 'get', `${KEYS}/${key.id}`)).status).toBe(200);
    });

    it('keeps its last use to the minute, without a write per request', async () => {
      const { key, as: used } = await makeKey(owner, { scopes: ['links.read'] });
      expect(await lastUsed(key.id)).toBeNull();
      await call(used, 'get', '/api/v1/links');
      const first = await lastUsed(key.id);
      expect(first).not.toBeNull();
      expect(Math.abs(first!.getTime() - Date.now())).toBeLessThan(60_000);
      // Written this minute already: further requests leave it as it is.
      const fresh = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 1);
      await t.dataSource.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [key.id, fresh]);
      for (let index = 0; index < 5; index += 1) await call(used, 'get', '/api/v1/links');
      const unchanged = await lastUsed(key.id);
      // Unless the minute turned meanwhile, when one write is allowed: then it is now.
      if (Math.floor(Date.now() / 60_000) * 60_000 + 1 === fresh.getTime()) expect(unchanged).toEqual(fresh);
      else expect(Math.abs(unchanged!.getTime() - Date.now())).toBeLessThan(60_000);
      // A use older than this minute (another instance's, say) is written again, and the API shows it.
      const { key: older, as: olderUse } = await makeKey(owner, { scopes: ['links.read'] });
      await t.dataSource.query(
        `UPDATE api_keys SET last_used_at = now() - interval '2 minutes' WHERE id = $1`,
        [older.id],
      );
      await call(olderUse, 'get', '/api/v1/links');
      const shown = (await call(owner, 'get', `${KEYS}/${older.id}`)).body.data as KeyData;
      expect(Math.abs(new Date(shown.last_used_at!).getTime() - Date.now())).toBeLessThan(10_000);
    });
  });
});
