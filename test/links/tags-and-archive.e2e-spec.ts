import { parse } from 'csv-parse/sync';
import { createAccount, createTestApp, type TestAccount, type TestApp } from '../support/app';
import { apiClient } from '../support/api';
import { invalid, NOT_FOUND } from '../support/contract';
import { LINKS } from '../support/links';
import { unique } from '../support/visitors';

const TAGS = '/api/v1/tags';
const UNAUTHORIZED = { message: 'This action is unauthorized.', status: 403 };

interface TagBody {
  id: number;
  name: string;
  color: number;
  links_count: number;
}

/**
 * Tags and the archive (contract §13): a link names up to 20 tags, matched regardless of case and answered as first
 * written; the workspace lists them with their links counted; lists, counts and exports filter by them. Archived
 * links leave the lists, come back with `archived=1`, and still redirect.
 */
describe('Links API: tags and the archive', () => {
  let t: TestApp;
  let account: TestAccount;
  const { call, form, json, text } = apiClient(() => t);

  const link = async (body: Record<string, unknown>) => {
    const response = await json(account, 'post', LINKS, { url: 'https://example.com/tagged', ...body });
    expect(`${response.status} ${JSON.stringify(response.body.message ?? '')}`).toBe('201 ""');
    return response.body.data as { id: number; alias: string; tags: string[]; archived: number };
  };
  const ids = (body: { data: { id: number }[] }) => body.data.map((item) => item.id).sort((a, b) => a - b);

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    account = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('makes the tags a link names, answers them in the order given, and matches a name regardless of case', async () => {
    const news = unique('News');
    const first = await link({ tags: [news, 'Tech', 'tech', ' Spring '] });
    expect(first.tags).toEqual([news, 'Tech', 'Spring']);
    // Named again in other cases: the same tags, answered as first written.
    const second = await link({ tags: ['spring', news.toUpperCase()] });
    expect(second.tags).toEqual(['Spring', news]);
    expect((await call(account, 'get', `${LINKS}/${second.id}`)).body.data.tags).toEqual(['Spring', news]);

    const listed = await call(account, 'get', `${TAGS}?search=${news.toLowerCase()}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ name: news, color: 1, links_count: 2 })]);
    expect(Object.keys(listed.body.data[0])).toEqual([
      'id',
      'name',
      'color',
      'links_count',
      'created_at',
      'updated_at',
    ]);
  });

  it('takes tags from a form, where `tags[]=` empties them, and replaces the whole set on update', async () => {
    const created = await form(account, 'post', LINKS, {
      url: 'https://example.com/form',
      'tags[0]': 'form-a',
      'tags[1]': 'form-b',
    });
    expect(created.body.data.tags).toEqual(['form-a', 'form-b']);
    const id = created.body.data.id as number;
    const kept = await json(account, 'patch', `${LINKS}/${id}`, { title: 'untouched tags' });
    expect(kept.body.data.tags).toEqual(['form-a', 'form-b']);
    const replaced = await json(account, 'patch', `${LINKS}/${id}`, { tags: ['FORM-B', 'form-c'] });
    expect(replaced.body.data.tags).toEqual(['form-b', 'form-c']);
    const emptied = await form(account, 'put', `${LINKS}/${id}`, { 'tags[]': '' });
    expect(emptied.status).toBe(200);
    expect(emptied.body.data.tags).toEqual([]);
  });

  it.each([
    [
      'tags',
      Array.from({ length: 21 }, (_, index) => `t${index}`),
      'The tags field must not have more than 20 items.',
    ],
    ['tags', ['a'.repeat(51)], 'Each item of the tags field must be a string of 1 to 50 characters.'],
    ['tags', [7], 'Each item of the tags field must be a string of 1 to 50 characters.'],
    ['tags', [{ a: 'b' }], 'Each item of the tags field must be a string of 1 to 50 characters.'],
    ['archived', 'maybe', 'The archived field must be true or false.'],
  ])('refuses %s %#, naming it', async (field, value, message) => {
    const response = await json(account, 'post', LINKS, { url: 'https://example.com/bad', [field]: value });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(invalid(field, message));
  });

  it('filters links by any of the tags named, regardless of case, and counts them exactly', async () => {
    const [red, blue] = [unique('red'), unique('blue')];
    const a = await link({ tags: [red] });
    const b = await link({ tags: [blue, red] });
    const c = await link({ tags: [blue] });
    await link({ tags: [unique('green')] });
    for (const [query, wanted] of [
      [`tag=${red.toUpperCase()}`, [a.id, b.id]],
      [`tag=${blue}`, [b.id, c.id]],
      [`tag=${red}&tag=${blue}`, [a.id, b.id, c.id]],
      [`tag=${red}&tag=${blue}&sort_by=title&sort=asc`, [a.id, b.id, c.id]],
      ['tag=nobody-has-this-tag', []],
      // In bracket notation too, as PHP clients write lists.
      [`tag[]=${red}&tag[]=${blue}`, [a.id, b.id, c.id]],
      [`tag%5B0%5D=${blue}`, [b.id, c.id]],
    ] as const) {
      const response = await call(account, 'get', `${LINKS}?${query}`);
      expect(`${query}: ${response.status}`).toBe(`${query}: 200`);
      const sorted = [...wanted].sort((x, y) => x - y);
      expect(`${query}: ${JSON.stringify(ids(response.body))}`).toBe(`${query}: ${JSON.stringify(sorted)}`);
      expect(response.body.meta.total).toBe(wanted.length);
    }
  });

  it('renames and recolours a tag for every link that holds it, and deleting it takes it off them', async () => {
    const name = unique('rename');
    const tagged = await link({ tags: [name] });
    const [tag] = (await call(account, 'get', `${TAGS}?search=${name}`)).body.data as TagBody[];
    const renamed = await json(account, 'patch', `${TAGS}/${tag.id}`, { name: `${name}-new`, color: 4 });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: `${name}-new`, color: 4, links_count: 1 });
    expect((await call(account, 'get', `${LINKS}/${tagged.id}`)).body.data.tags).toEqual([`${name}-new`]);

    const deleted = await call(account, 'delete', `${TAGS}/${tag.id}`);
    expect(deleted.body).toEqual({ id: tag.id, object: 'tag', deleted: true, status: 200 });
    expect((await call(account, 'get', `${LINKS}/${tagged.id}`)).body.data.tags).toEqual([]);
    expect((await call(account, 'get', `${TAGS}/${tag.id}`)).body).toEqual(NOT_FOUND);
  });

  it('creates tags of its own, refuses a name taken in another case, and checks each field', async () => {
    const name = unique('Made');
    const created = await json(account, 'post', TAGS, { name, color: 2 });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name, color: 2, links_count: 0 });
    expect((await json(account, 'post', TAGS, { name: name.toLowerCase() })).body).toEqual(
      invalid('name', 'The name has already been taken.'),
    );
    expect((await json(account, 'post', TAGS, { name: 'x'.repeat(51) })).body).toEqual(
      invalid('name', 'The name field must not be greater than 50 characters.'),
    );
    expect((await json(account, 'post', TAGS, { name: 'ok', color: 7 })).body).toEqual(
      invalid('color', 'The selected color is invalid.'),
    );
    expect((await json(account, 'post', TAGS, {})).body).toEqual(
      invalid('name', 'The name field is required.'),
    );
    // A link naming the tag in another case holds the one made here.
    expect((await link({ tags: [name.toUpperCase()] })).tags).toEqual([name]);
  });

  it("never shows, changes or counts another workspace's tags", async () => {
    const other = await createAccount(t);
    const name = unique('private');
    await link({ tags: [name] });
    const [tag] = (await call(account, 'get', `${TAGS}?search=${name}`)).body.data as TagBody[];
    expect((await call(other, 'get', `${TAGS}/${tag.id}`)).body).toEqual(NOT_FOUND);
    expect((await json(other, 'patch', `${TAGS}/${tag.id}`, { color: 3 })).body).toEqual(NOT_FOUND);
    expect((await call(other, 'delete', `${TAGS}/${tag.id}`)).body).toEqual(NOT_FOUND);
    expect((await call(other, 'get', `${TAGS}?search=${name}`)).body.data).toEqual([]);
    // The other workspace's tag of the same name is its own.
    const theirs = await json(other, 'post', LINKS, {
      url: 'https://example.com/o',
      tags: [name.toUpperCase()],
    });
    expect(theirs.body.data.tags).toEqual([name.toUpperCase()]);
    expect((await call(account, 'get', `${LINKS}?tag=${name}`)).body.meta.total).toBe(1);
  });

  it('counts only the links of its spaces for a restricted key, which may tag links but not change tags', async () => {
    const space = (await json(account, 'post', '/api/v1/spaces', { name: unique('Tagged space') })).body.data
      .id as number;
    const key = await json(account, 'post', '/api/v1/keys', {
      name: 'Restricted',
      scopes: ['links.write'],
      space_ids: [space],
    });
    const restricted = { ...account, auth: `Bearer ${key.body.data.key as string}` };
    const name = unique('reach');
    await link({ tags: [name] });
    const inSpace = await json(restricted, 'post', LINKS, {
      url: 'https://example.com/r',
      space_id: space,
      tags: [name],
    });
    expect(inSpace.body.data.tags).toEqual([name]);
    const [tag] = (await call(restricted, 'get', `${TAGS}?search=${name}`)).body.data as TagBody[];
    expect(tag.links_count).toBe(1);
    expect((await call(account, 'get', `${TAGS}/${tag.id}`)).body.data.links_count).toBe(2);
    expect((await json(restricted, 'post', TAGS, { name: unique('no') })).body).toEqual(UNAUTHORIZED);
    expect((await json(restricted, 'patch', `${TAGS}/${tag.id}`, { color: 2 })).body).toEqual(UNAUTHORIZED);
    expect((await call(restricted, 'delete', `${TAGS}/${tag.id}`)).body).toEqual(UNAUTHORIZED);
  });

  it('leaves archived links out of lists and counts, lists them alone with archived=1, and still redirects', async () => {
    const marker = unique('archive');
    const kept = await link({ title: marker });
    const archived = await link({ title: marker, archived: 1 });
    expect(archived.archived).toBe(1);
    const later = await link({ title: marker });
    const patched = await json(account, 'patch', `${LINKS}/${later.id}`, { archived: true });
    expect(patched.body.data.archived).toBe(1);

    for (const query of ['', '&sort_by=clicks', '&status=1', '&sort_by=title', '&search_by=title']) {
      const response = await call(account, 'get', `${LINKS}?search=${marker}${query}&per_page=100`);
      expect(`${query}: ${JSON.stringify(ids(response.body))}`).toBe(
        `${query}: ${JSON.stringify([kept.id])}`,
      );
      expect(response.body.meta.total).toBe(1);
    }
    const archive = await call(account, 'get', `${LINKS}?search=${marker}&archived=1`);
    expect(ids(archive.body)).toEqual([archived.id, later.id]);
    expect(archive.body.meta.total).toBe(2);

    const visit = await t.http().get(`/${archived.alias}`);
    expect(visit.status).toBe(302);
    expect(visit.headers.location).toBe('https://example.com/tagged');

    const restored = await json(account, 'patch', `${LINKS}/${archived.id}`, { archived: 0 });
    expect(restored.body.data.archived).toBe(0);
    expect(ids((await call(account, 'get', `${LINKS}?search=${marker}`)).body)).toEqual([
      kept.id,
      archived.id,
    ]);
  });

  it('counts the whole list without the archive, and the archive alone, exactly', async () => {
    const fresh = await createAccount(t);
    const space = (await json(fresh, 'post', '/api/v1/spaces', { name: 'Counted' })).body.data.id as number;
    for (const body of [
      { archived: 1 },
      { archived: 1, disabled: 1 },
      { archived: 1, space_id: space },
      {},
      { disabled: 1 },
      { space_id: space },
    ]) {
      expect((await json(fresh, 'post', LINKS, { url: 'https://example.com/n', ...body })).status).toBe(201);
    }
    for (const [query, total] of [
      ['', 3],
      ['?status=1', 2],
      ['?status=3', 1],
      [`?space_id=${space}`, 1],
      ['?space_id=0', 2],
      ['?archived=1', 3],
      ['?archived=1&status=3', 1],
      [`?archived=1&space_id=${space}`, 1],
      ['?archived=0', 3],
    ] as const) {
      const response = await call(fresh, 'get', `${LINKS}${query}`);
      expect(`${query}: ${response.body.meta.total as number}`).toBe(`${query}: ${total}`);
      expect(response.body.data).toHaveLength(total);
    }
  });

  it('exports tags and the archive flag, filters the export by tag, and imports them back', async () => {
    const name = unique('exported');
    const created = await link({ title: name, tags: [name, 'Other tag'], archived: 1 });
    await link({ title: name });
    const exported = (await text(account, `${LINKS}/export?tag=${name}&archived=1`)).body as string;
    const [header, ...rows]: string[][] = parse(exported);
    expect(rows).toHaveLength(1);
    const cells = Object.fromEntries(header.map((column, index) => [column, rows[0][index]]));
    expect(cells).toMatchObject({ id: String(created.id), tags: `${name}, Other tag`, archived: '1' });

    await call(account, 'delete', `${LINKS}/${created.id}`);
    const imported = await call(account, 'post', `${LINKS}/import`).type('text/csv').send(exported);
    expect(imported.status).toBe(201);
    expect(imported.body.data[0]).toMatchObject({ tags: [name, 'Other tag'], archived: 1 });
  });

  it('tags every link of a bulk create in one go', async () => {
    const name = unique('bulk');
    const response = await json(account, 'post', `${LINKS}/bulk`, {
      links: [
        { url: 'https://example.com/1', tags: [name] },
        { url: 'https://example.com/2', tags: [name.toUpperCase(), 'second'] },
        { url: 'https://example.com/3' },
      ],
    });
    expect(response.status).toBe(201);
    expect((response.body.data as { tags: string[] }[]).map((item) => item.tags)).toEqual([
      [name],
      [name, 'second'],
      [],
    ]);
    expect((await call(account, 'get', `${LINKS}?tag=${name}`)).body.meta.total).toBe(2);
  });

  it('refuses a bad tag list filter, naming it', async () => {
    const response = await call(account, 'get', `${LINKS}?tag=${'x'.repeat(51)}`);
    expect(response.body).toEqual(
      invalid('tag', 'Each item of the tag field must be a string of 1 to 50 characters.'),
    );
    expect((await call(account, 'get', `${LINKS}?archived=2`)).body).toEqual(
      invalid('archived', 'The archived field must be true or false.'),
    );
  });
});
