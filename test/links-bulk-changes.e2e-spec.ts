import { performance } from 'node:perf_hooks';
import { MAX_ID } from '../src/common/validation';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient, type Body } from './support/api';
import { invalid, invalidFields } from './support/contract';
import { linkFixtures, type LinkData } from './support/links';
import { offDocument } from './support/openapi-responses';
import { UA, unique } from './support/visitors';
import { onRealPostgres } from './support/test-database';

/**
 * `PATCH` and `DELETE /api/v1/links/bulk` (contract §14): many links changed or deleted in one request, named by id
 * or by the list's filters, all or nothing; each link as a single change leaves it (its event, its audit entry, the
 * caches), and the request one audit entry more.
 */

const BULK = '/api/v1/links/bulk';
const UNAUTHORIZED = { message: 'This action is unauthorized.', status: 403 };

interface Tagged extends LinkData {
  tags: string[];
  archived: 0 | 1;
}

interface AuditEntry {
  action: string;
  actor: { type: string; id: number | null; name: string | null };
  target: { type: string; id: number | null };
  changes: Record<string, [unknown, unknown]>;
}

interface EventRow {
  type: string;
  link_id: number;
  data: unknown;
  ready: boolean;
}

describe('PATCH and DELETE /api/v1/links/bulk', () => {
  let t: TestApp;
  let owner: TestAccount;
  let other: TestAccount;
  const { call, json } = apiClient(() => t);
  const { createSpace, showSpace } = linkFixtures(() => t);
  const timings: string[] = [];

  const patch = (account: TestAccount, body: Body | string) => json(account, 'patch', BULK, body);
  const remove = (account: TestAccount, body: Body | string) =>
    call(account, 'delete', BULK).type('json').send(body);

  /** `count` links made in one bulk create, each with `fields`. */
  async function makeLinks(account: TestAccount, count: number, fields: Body = {}): Promise<Tagged[]> {
    const response = await json(account, 'post', BULK, {
      links: Array.from({ length: count }, (_, index) => ({
        url: `https://example.com/bulk/${index}`,
        ...fields,
      })),
    });
    expect(`${response.status} ${JSON.stringify(response.body.message ?? '')}`).toBe('201 ""');
    return response.body.data as Tagged[];
  }

  async function show(account: TestAccount, id: number): Promise<Tagged> {
    const response = await call(account, 'get', `/api/v1/links/${id}`);
    expect(response.status).toBe(200);
    return response.body.data as Tagged;
  }

  /** The links as they are now, by id, read through the API. */
  async function shown(account: TestAccount, links: { id: number }[]): Promise<Tagged[]> {
    return Promise.all(links.map((link) => show(account, link.id)));
  }

  async function linkCount(account: TestAccount, query = ''): Promise<number> {
    const response = await call(account, 'get', `/api/v1/links${query}`);
    expect(response.status).toBe(200);
    return (response.body as { meta: { total: number } }).meta.total;
  }

  async function auditEntries(account: TestAccount, action: string): Promise<AuditEntry[]> {
    const response = await call(account, 'get', `/api/v1/audit-log?action=${action}&per_page=100`);
    expect(response.status).toBe(200);
    return response.body.data as AuditEntry[];
  }

  async function events(account: TestAccount): Promise<EventRow[]> {
    return t.dataSource.query(
      'SELECT type, link_id, data, ready FROM events WHERE account_id = $1 ORDER BY id',
      [account.id],
    );
  }

  /** A webhook of the account that takes link changes: their events are then written (and never sent here). */
  async function takeEvents(account: TestAccount): Promise<void> {
    const response = await json(account, 'post', '/api/v1/webhooks', {
      name: unique('Hook'),
      url: 'http://127.0.0.1:9/hooks',
      events: ['link.updated', 'link.deleted'],
    });
    expect(response.status).toBe(201);
  }

  /** A key of `account` with these scopes (and spaces), as a test account. */
  async function keyOf(account: TestAccount, scopes: string[], spaceIds?: number[]): Promise<TestAccount> {
    const response = await json(account, 'post', '/api/v1/keys', {
      name: unique('Key'),
      scopes,
      ...(spaceIds === undefined ? {} : { space_ids: spaceIds }),
    });
    expect(response.status).toBe(201);
    const key = (response.body.data as { key: string }).key;
    return { ...account, apiKey: key, auth: `Bearer ${key}` };
  }

  const visit = (alias: string) => t.http().get(`/${alias}`).set('User-Agent', UA.macSafari);

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' });
    owner = await createAccount(t, 'Bulk changes');
    other = await createAccount(t, 'Neighbour');
  });
  afterAll(async () => {
    if (timings.length > 0) process.stderr.write(`[links-bulk-changes] ${timings.join('; ')}\n`);
    await t?.close();
  });

  describe('changes by id', () => {
    it('moves links into a space and out of it, counting them in their spaces', async () => {
      const space = await createSpace(owner, unique('Moved'));
      const [a, b, untouched] = await makeLinks(owner, 3);

      const moved = await patch(owner, { ids: [a.id, b.id], changes: { space_id: space.id } });

      expect(moved.status).toBe(200);
      expect(moved.body).toEqual({ data: { updated: 2 }, status: 200 });
      const [shownA, shownB, shownUntouched] = await shown(owner, [a, b, untouched]);
      expect([shownA.space?.id, shownB.space?.id, shownUntouched.space]).toEqual([space.id, space.id, null]);
      expect(shownA.space).toEqual(await showSpace(owner, space.id));
      expect((await showSpace(owner, space.id)).links_count).toBe(2);
      expect(await linkCount(owner, `?space_id=${space.id}`)).toBe(2);
      // Nothing else of the link changed, but when it did.
      expect({ ...shownA, space: null, updated_at: null }).toEqual({ ...a, space: null, updated_at: null });
      expect(shownA.updated_at >= a.updated_at).toBe(true);

      for (const none of [null, 0, '']) {
        await patch(owner, { ids: [a.id], changes: { space_id: space.id } });
        // An empty string is a form's null, which JSON takes too, beyond what the document promises.
        const out = await offDocument(
          patch(owner, { ids: [a.id, b.id], changes: { space_id: none } }),
          none === '',
        );
        expect(out.body).toEqual({ data: { updated: 2 }, status: 200 });
        expect((await shown(owner, [a, b])).map((link) => link.space)).toEqual([null, null]);
        expect((await showSpace(owner, space.id)).links_count).toBe(0);
      }
    });

    it('archives links and takes them out of the archive; archived links still redirect', async () => {
      const links = await makeLinks(owner, 2);
      const before = await linkCount(owner);

      const archived = await patch(owner, { ids: links.map((link) => link.id), changes: { archived: 1 } });

      expect(archived.body).toEqual({ data: { updated: 2 }, status: 200 });
      expect((await shown(owner, links)).map((link) => link.archived)).toEqual([1, 1]);
      expect(await linkCount(owner)).toBe(before - 2);
      const visited = await visit(links[0].alias);
      expect([visited.status, visited.headers.location]).toEqual([302, links[0].url]);

      const restored = await patch(owner, {
        ids: links.map((link) => link.id),
        changes: { archived: false },
      });
      expect(restored.body).toEqual({ data: { updated: 2 }, status: 200 });
      expect((await shown(owner, links)).map((link) => link.archived)).toEqual([0, 0]);
      expect(await linkCount(owner)).toBe(before);
    });

    it('adds tags after those a link has and takes tags off, by name regardless of case', async () => {
      const account = await createAccount(t);
      const [plain] = await makeLinks(account, 1);
      const [tagged] = await makeLinks(account, 1, { tags: ['News', 'Sport', 'Old'] });

      const added = await patch(account, {
        ids: [plain.id, tagged.id],
        changes: { tags_add: ['sport', 'Fresh', 'fresh'], tags_remove: ['OLD', 'never-there'] },
      });

      expect(added.body).toEqual({ data: { updated: 2 }, status: 200 });
      const [shownPlain, shownTagged] = await shown(account, [plain, tagged]);
      // A name the workspace has is written as it first wrote it; a new one makes a tag, as first sent.
      expect(shownPlain.tags).toEqual(['Sport', 'Fresh']);
      expect(shownTagged.tags).toEqual(['News', 'Sport', 'Fresh']);
      const tags = await call(account, 'get', '/api/v1/tags?per_page=100&sort_by=name&sort=asc');
      expect(
        (tags.body.data as { name: string; links_count: number }[]).map((tag) => [tag.name, tag.links_count]),
      ).toEqual([
        ['Fresh', 2],
        ['News', 1],
        ['Old', 0],
        ['Sport', 2],
      ]);

      const removed = await patch(account, {
        ids: [plain.id, tagged.id],
        changes: { tags_remove: ['SPORT'] },
      });
      expect(removed.body).toEqual({ data: { updated: 2 }, status: 200 });
      expect((await shown(account, [plain, tagged])).map((link) => link.tags)).toEqual([
        ['Fresh'],
        ['News', 'Fresh'],
      ]);
      expect(await linkCount(account, '?tag=sport')).toBe(0);
    });

    it('refuses tags that would take a link past 20, and changes no link', async () => {
      const account = await createAccount(t);
      const [full] = await makeLinks(account, 1, {
        tags: Array.from({ length: 19 }, (_, index) => `t${index}`),
      });
      const [roomy] = await makeLinks(account, 1, { tags: ['t0'] });

      const response = await patch(account, {
        ids: [roomy.id, full.id],
        changes: { tags_add: ['x1', 'x2'], archived: 1 },
      });

      expect(response.status).toBe(422);
      expect(response.body).toEqual(
        invalid('changes.tags_add', `A link holds at most 20 tags: ${full.id} would hold more.`),
      );
      expect(await shown(account, [full, roomy])).toEqual([full, roomy]);
      // Adding what a full link holds already, or with as much taken off, fits.
      const fits = await patch(account, {
        ids: [roomy.id, full.id],
        changes: { tags_add: ['x1', 't0'], tags_remove: ['t1'] },
      });
      expect(fits.body).toEqual({ data: { updated: 2 }, status: 200 });
      expect((await show(account, full.id)).tags).toHaveLength(19);
    });

    it('counts every link named, already as asked or not, each id once', async () => {
      const links = await makeLinks(owner, 3);
      const ids = links.map((link) => link.id);
      const first = await patch(owner, { ids: [...ids, ids[0], ids[2]], changes: { archived: 0 } });
      expect(first.body).toEqual({ data: { updated: 3 }, status: 200 });
      const again = await patch(owner, { ids, changes: { archived: 0 } });
      expect(again.body).toEqual({ data: { updated: 3 }, status: 200 });
    });

    it('takes a form body in bracket notation, and ignores fields it does not know', async () => {
      const space = await createSpace(owner, unique('Form'));
      const links = await makeLinks(owner, 2);
      // Fields the document does not name, which the service drops.
      const response = await offDocument(
        call(owner, 'patch', BULK)
          .type('form')
          .send(
            `ids[]=${links[0].id}&ids[]=${links[1].id}&changes[space_id]=${space.id}&changes[archived]=0` +
              '&changes[colour]=red&dry_run=1',
          ),
      );
      expect(response.body).toEqual({ data: { updated: 2 }, status: 200 });
      expect((await shown(owner, links)).map((link) => link.space?.id)).toEqual([space.id, space.id]);
      const deleted = await call(owner, 'delete', BULK).type('form').send(`ids[]=${links[0].id}`);
      expect(deleted.body).toEqual({ data: { deleted: 1 }, status: 200 });
    });
  });

  describe('changes and deletes by filter', () => {
    it('changes every link the list finds with the filter, on every page, and no other', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, unique('Target'));
      const found = await makeLinks(account, 30, { tags: ['campaign'], title: 'Spring sale' });
      const [otherTag] = await makeLinks(account, 1, { tags: ['other'], title: 'Spring sale' });
      const [archived] = await makeLinks(account, 1, { tags: ['campaign'], archived: 1 });

      const response = await patch(account, {
        filter: { tag: ['CAMPAIGN'], search: 'spring', search_by: 'title' },
        changes: { space_id: space.id },
      });

      expect(response.body).toEqual({ data: { updated: 30 }, status: 200 });
      expect(await linkCount(account, `?space_id=${space.id}&per_page=100`)).toBe(30);
      expect((await shown(account, [otherTag, archived])).map((link) => link.space)).toEqual([null, null]);
      expect((await shown(account, found)).every((link) => link.space?.id === space.id)).toBe(true);

      // The archive is filtered as the list filters it: archived links only with `archived` 1.
      const unarchived = await patch(account, { filter: { archived: 1 }, changes: { archived: 0 } });
      expect(unarchived.body).toEqual({ data: { updated: 1 }, status: 200 });
      expect((await show(account, archived.id)).archived).toBe(0);
    });

    it('filters by status, domain and space as the list does, and answers 0 for a filter that finds nothing', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, unique('Disabled'));
      const disabled = await makeLinks(account, 2, { disabled: 1 });
      await makeLinks(account, 2);

      const moved = await patch(account, { filter: { status: 3 }, changes: { space_id: space.id } });
      expect(moved.body).toEqual({ data: { updated: 2 }, status: 200 });
      expect((await shown(account, disabled)).map((link) => link.space?.id)).toEqual([space.id, space.id]);

      const none = await patch(account, { filter: { space_id: MAX_ID }, changes: { archived: 1 } });
      expect(none.body).toEqual({ data: { updated: 0 }, status: 200 });
      expect(await auditEntries(account, 'link.bulk_updated')).toHaveLength(1);

      const deleted = await remove(account, { filter: { space_id: space.id, status: 3 } });
      expect(deleted.body).toEqual({ data: { deleted: 2 }, status: 200 });
      expect(await linkCount(account)).toBe(2);
      const empty = await remove(account, { filter: { space_id: space.id } });
      expect(empty.body).toEqual({ data: { deleted: 0 }, status: 200 });
    });

    // 10,000 links written three times over: beyond a test's default minute on a machine busy with other files.
    // The embedded database runs one statement at a time for every file of the run: there, these statements held
    // other files' past their timeout. A PostgreSQL server's run proves it.
    (onRealPostgres() ? it : it.skip)(
      'refuses a filter that finds more than 10,000 links, naming filter, and changes none',
      async () => {
        const account = await createAccount(t);
        const space = await createSpace(account, unique('Many'));
        const [domain] = await t.dataSource.query<{ id: number }[]>(
          'SELECT id FROM domains WHERE account_id IS NULL ORDER BY id LIMIT 1',
        );
        const prefix = unique('many');
        // Straight into the table, 500 a statement: 11 bulk creates would take the file's time, and 2,500 a statement
        // took longer than the statement timeout on the embedded database with other files running beside.
        for (let from = 1; from <= 10_001; from += 500) {
          await t.dataSource.query(
            `INSERT INTO links (account_id, domain_id, alias, url, title)
           SELECT $1, $2, $3 || '-' || g, 'https://example.com/many/' || g, CASE WHEN g <= 10000 THEN 'first' END
             FROM generate_series($4::int, least($4::int + 499, 10001)) g`,
            [account.id, domain.id, prefix, from],
          );
        }

        const tooMany = await patch(account, { filter: {}, changes: { space_id: space.id } });
        expect(tooMany.status).toBe(422);
        expect(tooMany.body).toEqual(
          invalid(
            'filter',
            'The filter finds more than 10,000 links: narrow it, or change them in several requests.',
          ),
        );
        expect((await remove(account, { filter: {} })).body).toEqual(tooMany.body);
        expect(await linkCount(account)).toBe(10_001);
        expect((await showSpace(account, space.id)).links_count).toBe(0);

        // 10,000 is within the bound: timed, as the most a request may change.
        const started = performance.now();
        const narrowed = await patch(account, {
          filter: { search: 'first', search_by: 'title' },
          changes: { space_id: space.id, tags_add: ['many'] },
        });
        timings.push(
          `PATCH by filter, 10,000 links (space and a tag): ${Math.round(performance.now() - started)} ms`,
        );
        expect(narrowed.body).toEqual({ data: { updated: 10_000 }, status: 200 });
        expect((await showSpace(account, space.id)).links_count).toBe(10_000);
        const deleting = performance.now();
        const deleted = await remove(account, { filter: { space_id: space.id } });
        timings.push(`DELETE by filter, 10,000 links: ${Math.round(performance.now() - deleting)} ms`);
        expect(deleted.body).toEqual({ data: { deleted: 10_000 }, status: 200 });
        expect(await linkCount(account)).toBe(1);
      },
      180_000,
    );
  });

  describe('all or nothing', () => {
    it('refuses ids of which one is another account’s, naming ids, and changes nothing of either', async () => {
      const space = await createSpace(owner, unique('Kept'));
      const mine = await makeLinks(owner, 3);
      const [theirs] = await makeLinks(other, 1);
      const ids = [mine[0].id, theirs.id, mine[1].id, mine[2].id];

      const changed = await patch(owner, {
        ids,
        changes: { space_id: space.id, archived: 1, tags_add: ['x'] },
      });
      expect(changed.status).toBe(422);
      expect(changed.body).toEqual(invalid('ids', `The selected ids are invalid: ${theirs.id}.`));
      const deleted = await remove(owner, { ids });
      expect(deleted.body).toEqual(changed.body);

      expect(await shown(owner, mine)).toEqual(mine);
      expect(await show(other, theirs.id)).toEqual(theirs);
      expect((await showSpace(owner, space.id)).links_count).toBe(0);
      // An id of no link at all is refused the same way.
      const unknown = await patch(owner, { ids: [mine[0].id, MAX_ID], changes: { archived: 1 } });
      expect(unknown.body).toEqual(invalid('ids', `The selected ids are invalid: ${MAX_ID}.`));
      expect((await show(owner, mine[0].id)).archived).toBe(0);
    });

    it('finds nothing with a filter naming another account’s space, domain, pixel or tag', async () => {
      const theirs = await createAccount(t);
      const space = await createSpace(theirs, unique('Theirs'));
      const { createDomain, createPixel } = linkFixtures(() => t);
      const domain = await createDomain(theirs);
      const pixel = await createPixel(theirs);
      await makeLinks(theirs, 1, {
        space_id: space.id,
        domain_id: domain.id,
        pixel_ids: [pixel.id],
        tags: ['theirs-only'],
      });
      const mine = await createAccount(t);
      await makeLinks(mine, 1);
      for (const filter of [
        { space_id: space.id },
        { domain_id: domain.id },
        { pixel_id: pixel.id },
        { tag: ['theirs-only'] },
      ]) {
        const changed = await patch(mine, { filter, changes: { archived: 1 } });
        expect([filter, changed.body]).toEqual([filter, { data: { updated: 0 }, status: 200 }]);
        const deleted = await remove(mine, { filter });
        expect([filter, deleted.body]).toEqual([filter, { data: { deleted: 0 }, status: 200 }]);
      }
      expect(await linkCount(theirs)).toBe(1);
      expect(await linkCount(mine)).toBe(1);
    });

    it('confines a key restricted to spaces to its spaces’ links, on ids, filter and the space it moves to', async () => {
      const account = await createAccount(t);
      const [mine, theirs, elsewhere] = [
        await createSpace(account, unique('Mine')),
        await createSpace(account, unique('Theirs')),
        await createSpace(account, unique('Elsewhere')),
      ];
      const inMine = await makeLinks(account, 2, { space_id: mine.id });
      const [inTheirs] = await makeLinks(account, 1, { space_id: theirs.id });
      const [nowhere] = await makeLinks(account, 1);
      const restricted = await keyOf(account, ['links.write'], [mine.id, elsewhere.id]);

      for (const outside of [inTheirs, nowhere]) {
        const ids = [inMine[0].id, outside.id];
        const refused = await patch(restricted, { ids, changes: { archived: 1 } });
        expect(refused.body).toEqual(invalid('ids', `The selected ids are invalid: ${outside.id}.`));
        expect((await remove(restricted, { ids })).body).toEqual(refused.body);
      }
      const intoTheirs = await patch(restricted, {
        ids: [inMine[0].id],
        changes: { space_id: theirs.id },
      });
      expect(intoTheirs.body).toEqual(invalid('changes.space_id', 'The selected space id is invalid.'));
      const intoNone = await patch(restricted, { ids: [inMine[0].id], changes: { space_id: null } });
      expect(intoNone.body).toEqual(
        invalid('changes.space_id', 'The space id field is required for a key restricted to spaces.'),
      );
      expect(await shown(account, [...inMine, inTheirs, nowhere])).toEqual([...inMine, inTheirs, nowhere]);

      // Control: within its spaces it changes, and a filter reaches only them.
      const moved = await patch(restricted, { ids: [inMine[0].id], changes: { space_id: elsewhere.id } });
      expect(moved.body).toEqual({ data: { updated: 1 }, status: 200 });
      const archived = await patch(restricted, { filter: {}, changes: { archived: 1 } });
      expect(archived.body).toEqual({ data: { updated: 2 }, status: 200 });
      expect((await shown(account, [inTheirs, nowhere])).map((link) => link.archived)).toEqual([0, 0]);
      const deleted = await remove(restricted, { filter: { archived: 1 } });
      expect(deleted.body).toEqual({ data: { deleted: 2 }, status: 200 });
      expect(await linkCount(account)).toBe(2);
    });

    it('refuses a key without links.write with the contract’s 403, and changes nothing', async () => {
      const links = await makeLinks(owner, 2);
      const reader = await keyOf(owner, ['links.read', 'spaces.write', 'stats.read']);
      const ids = links.map((link) => link.id);
      const changed = await patch(reader, { ids, changes: { archived: 1 } });
      expect([changed.status, changed.body]).toEqual([403, UNAUTHORIZED]);
      const deleted = await remove(reader, { ids });
      expect([deleted.status, deleted.body]).toEqual([403, UNAUTHORIZED]);
      expect(await shown(owner, links)).toEqual(links);
      const none = await call(null, 'patch', BULK).send({ ids, changes: { archived: 1 } });
      expect(none.status).toBe(401);
    });
  });

  describe('refuses bad input with a 422 naming the field', () => {
    let link: Tagged;
    beforeAll(async () => {
      [link] = await makeLinks(owner, 1);
    });
    const fine = () => ({ ids: [link.id], changes: { archived: 1 } });
    const tooMany = () => Array.from({ length: 1001 }, (_, index) => index + 1);

    it.each<[string, () => Body, Record<string, string>]>([
      [
        'no ids and no filter',
        () => ({ changes: { archived: 1 } }),
        { ids: 'The ids field is required when filter is not present.' },
      ],
      [
        'an empty list of ids',
        () => ({ ...fine(), ids: [] }),
        { ids: 'The ids field must have at least 1 item.' },
      ],
      [
        '1,001 ids',
        () => ({ ...fine(), ids: tooMany() }),
        { ids: 'The ids field must not have more than 1000 items.' },
      ],
      [
        'ids as an object',
        () => ({ ...fine(), ids: { a: { b: 1 } } }),
        { 'ids.0': 'The ids.0 field must be an integer.' },
      ],
      [
        'ids that are no ids',
        () => ({ ...fine(), ids: [link.id, 'seven', 0, 1.5, MAX_ID + 1] }),
        {
          'ids.1': 'The ids.1 field must be an integer.',
          'ids.2': 'The ids.2 field must be at least 1.',
          'ids.3': 'The ids.3 field must be an integer.',
          'ids.4': `The ids.4 field must not be greater than ${MAX_ID}.`,
        },
      ],
      [
        'ids and a filter',
        () => ({ ...fine(), filter: { status: 1 } }),
        { filter: 'The filter field is prohibited when ids is present.' },
      ],
      [
        'a filter that is no object',
        () => ({ filter: 'all', changes: { archived: 1 } }),
        { filter: 'The filter field must be an object.' },
      ],
      [
        'a bad status filter',
        () => ({ filter: { status: 7 }, changes: { archived: 1 } }),
        { 'filter.status': 'The selected status is invalid.' },
      ],
      [
        'a bad space filter',
        () => ({ filter: { space_id: 'x' }, changes: { archived: 1 } }),
        { 'filter.space_id': 'The space id field must be an integer.' },
      ],
      [
        'a bad search_by',
        () => ({ filter: { search: 'a', search_by: 'notes' }, changes: { archived: 1 } }),
        { 'filter.search_by': 'The selected search by is invalid.' },
      ],
      ['no changes', () => ({ ids: [link.id] }), { changes: 'The changes field is required.' }],
      [
        'changes that are no object',
        () => ({ ids: [link.id], changes: [1] }),
        { changes: 'The changes field must be an object.' },
      ],
      [
        'changes of nothing known',
        () => ({ ids: [link.id], changes: { title: 'x' } }),
        { changes: 'The changes field must name at least one of space_id, archived, tags_add, tags_remove.' },
      ],
      [
        'a space that is no id',
        () => ({ ids: [link.id], changes: { space_id: 'x' } }),
        { 'changes.space_id': 'The space id field must be an integer.' },
      ],
      [
        'another account’s space',
        () => ({ ids: [link.id], changes: { space_id: MAX_ID } }),
        { 'changes.space_id': 'The selected space id is invalid.' },
      ],
      [
        'an archived that is no flag',
        () => ({ ids: [link.id], changes: { archived: 'maybe' } }),
        { 'changes.archived': 'The archived field must be true or false.' },
      ],
      [
        'an empty archived',
        () => ({ ids: [link.id], changes: { archived: null } }),
        { 'changes.archived': 'The archived field is required.' },
      ],
      [
        '21 tags to add',
        () => ({
          ids: [link.id],
          changes: { tags_add: Array.from({ length: 21 }, (_, index) => `t${index}`) },
        }),
        { 'changes.tags_add': 'The tags add field must not have more than 20 items.' },
      ],
      [
        'a tag name too long',
        () => ({ ids: [link.id], changes: { tags_remove: ['x'.repeat(51)] } }),
        {
          'changes.tags_remove': 'Each item of the tags remove field must be a string of 1 to 50 characters.',
        },
      ],
      [
        'a tag both added and taken off',
        () => ({ ids: [link.id], changes: { tags_add: ['News', 'b'], tags_remove: ['news'] } }),
        { 'changes.tags_remove': 'The tags remove field must not name a tag of tags add.' },
      ],
    ])('PATCH: %s', async (_case, body, fields) => {
      const response = await patch(owner, body());
      expect(response.status).toBe(422);
      expect(response.body).toEqual(invalidFields(fields));
      expect(await show(owner, link.id)).toEqual(link);
    });

    it.each<[string, Body, Record<string, string>]>([
      ['no body', {}, { ids: 'The ids field is required when filter is not present.' }],
      [
        'ids and a filter',
        { ids: [1], filter: {} },
        { filter: 'The filter field is prohibited when ids is present.' },
      ],
      ['an id that is none', { ids: [-1] }, { 'ids.0': 'The ids.0 field must be at least 1.' }],
      [
        'a bad filter',
        { filter: { health: 'sick' } },
        { 'filter.health': 'The selected health is invalid.' },
      ],
    ])('DELETE: %s', async (_case, body, fields) => {
      const response = await remove(owner, body);
      expect(response.status).toBe(422);
      expect(response.body).toEqual(invalidFields(fields));
      expect(await show(owner, link.id)).toEqual(link);
    });
  });

  describe('what each change leaves behind', () => {
    it('records one audit entry for the request, beside each link’s own', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account, unique('Audited'));
      const links = await makeLinks(account, 3);
      const ids = links.map((link) => link.id);

      await patch(account, {
        ids: [ids[2], ids[0], ids[1]],
        changes: { space_id: space.id, tags_add: ['Audit'] },
      });
      const [updated] = await auditEntries(account, 'link.bulk_updated');
      expect(updated).toMatchObject({
        action: 'link.bulk_updated',
        actor: { type: 'key' },
        target: { type: 'link', id: null },
        changes: {
          ids: [null, ids],
          space_id: [null, space.id],
          tags_add: [null, ['Audit']],
          updated: [null, 3],
        },
      });
      const perLink = await auditEntries(account, 'link.updated');
      expect(perLink.map((entry) => [entry.target.id, entry.changes.space_id]).sort()).toEqual(
        ids.map((id) => [id, [null, space.id]]).sort(),
      );

      await patch(account, { filter: { space_id: space.id }, changes: { archived: 1 } });
      const [byFilter] = await auditEntries(account, 'link.bulk_updated');
      expect(byFilter.changes).toEqual({
        filter: [null, { space_id: space.id }],
        ids: [null, ids],
        archived: [null, true],
        updated: [null, 3],
      });

      await remove(account, { ids: [ids[0], ids[1]] });
      const [deleted] = await auditEntries(account, 'link.bulk_deleted');
      expect(deleted).toMatchObject({
        target: { type: 'link', id: null },
        changes: { ids: [null, [ids[0], ids[1]]], deleted: [null, 2] },
      });
      expect((await auditEntries(account, 'link.deleted')).map((entry) => entry.target.id).sort()).toEqual(
        [ids[0], ids[1]].sort(),
      );
      // A refused request leaves no entry.
      await remove(account, { ids: [ids[2], MAX_ID] });
      expect(await auditEntries(account, 'link.bulk_deleted')).toHaveLength(1);
    });

    it('writes one link.updated event per link, with the link as the API shows it, and one link.deleted', async () => {
      const account = await createAccount(t);
      await takeEvents(account);
      const space = await createSpace(account, unique('Events'));
      const links = await makeLinks(account, 3);
      const ids = links.map((link) => link.id);

      const changed = await patch(account, { ids, changes: { space_id: space.id, tags_add: ['evented'] } });
      expect(changed.body).toEqual({ data: { updated: 3 }, status: 200 });
      const updates = await events(account);
      expect(updates.map((event) => [event.type, event.link_id, event.ready])).toEqual(
        ids.map((id) => ['link.updated', id, true]),
      );
      for (const event of updates) expect(event.data).toEqual(await show(account, event.link_id));
      expect((updates[0].data as Tagged).tags).toEqual(['evented']);

      // A refused request writes none.
      await patch(account, { ids: [...ids, MAX_ID], changes: { archived: 1 } });
      expect(await events(account)).toHaveLength(3);

      const deleted = await remove(account, { ids: [ids[0], ids[2]] });
      expect(deleted.body).toEqual({ data: { deleted: 2 }, status: 200 });
      const removals = (await events(account)).slice(3);
      expect(removals.map((event) => [event.type, event.link_id, event.data])).toEqual([
        ['link.deleted', ids[0], { id: ids[0] }],
        ['link.deleted', ids[2], { id: ids[2] }],
      ]);
    });

    it('makes the short links of deleted links 404 at once, even when visits had them in memory', async () => {
      const links = await makeLinks(owner, 2);
      for (const link of links) {
        for (let round = 0; round < 2; round += 1) {
          const before = await visit(link.alias);
          expect([before.status, before.headers.location]).toEqual([302, link.url]);
        }
      }

      const response = await remove(owner, { ids: links.map((link) => link.id) });

      expect(response.body).toEqual({ data: { deleted: 2 }, status: 200 });
      for (const link of links) {
        expect((await visit(link.alias)).status).toBe(404);
        expect((await call(owner, 'get', `/api/v1/links/${link.id}`)).status).toBe(404);
      }
    });

    it('changes and deletes 1,000 links in one request each, and times them', async () => {
      const account = await createAccount(t);
      await takeEvents(account);
      const space = await createSpace(account, unique('Thousand'));
      const links = await makeLinks(account, 1000, { tags: ['bulk'] });
      const ids = links.map((link) => link.id);

      let started = performance.now();
      const changed = await patch(account, {
        ids,
        changes: { space_id: space.id, archived: 1, tags_add: ['moved'], tags_remove: ['bulk'] },
      });
      const changeMs = performance.now() - started;
      expect(changed.body).toEqual({ data: { updated: 1000 }, status: 200 });
      expect((await showSpace(account, space.id)).links_count).toBe(1000);
      expect(await linkCount(account, '?archived=1&tag=moved')).toBe(1000);
      expect((await show(account, ids[999])).tags).toEqual(['moved']);
      expect(await events(account)).toHaveLength(1000);

      started = performance.now();
      const deleted = await remove(account, { ids });
      const deleteMs = performance.now() - started;
      expect(deleted.body).toEqual({ data: { deleted: 1000 }, status: 200 });
      expect(await linkCount(account, '?archived=1')).toBe(0);
      expect((await showSpace(account, space.id)).links_count).toBe(0);
      expect(await events(account)).toHaveLength(2000);

      timings.push(
        `PATCH 1,000 ids (space, archive, tags; events on): ${Math.round(changeMs)} ms`,
        `DELETE 1,000 ids (events on): ${Math.round(deleteMs)} ms`,
      );
      // Generous beside the measured times, for a busy machine running files side by side.
      expect(changeMs).toBeLessThan(5000);
      expect(deleteMs).toBeLessThan(5000);
    });
  });
});
