import crypto from 'node:crypto';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { apiClient } from './support/api';
import { unique, UA } from './support/visitors';
import { invalidFields as invalid } from './support/contract';
import { linkFixtures, type LinkData } from './support/links';

describe('POST /api/v1/links/bulk', () => {
  let t: TestApp;
  let owner: TestAccount;
  let other: TestAccount;
  const { call, form, json } = apiClient(() => t);
  const { createSpace, createPixel, createDomain, showSpace } = linkFixtures(() => t);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createAccount(t);
    other = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function linkCount(account: TestAccount): Promise<number> {
    const response = await call(account, 'get', '/api/v1/links');
    return (response.body as { meta: { total: number } }).meta.total;
  }

  it('creates every link in the order sent, each as a single create would, and they can be visited', async () => {
    const alias = unique('bulk');
    const response = await json(owner, 'post', '/api/v1/links/bulk', {
      links: [
        { url: 'https://example.com/one', alias, title: 'One' },
        { url: 'https://example.com/two', title: 'Two' },
        {
          url: 'https://example.com/three',
          title: 'Three',
          targets_type: 'countries',
          targets: [{ key: 'gb', value: 'https://example.co.uk/' }],
        },
      ],
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ data: expect.any(Array) as unknown, status: 200 });
    const created = response.body.data as LinkData[];
    expect(created.map((link) => [link.url, link.title])).toEqual([
      ['https://example.com/one', 'One'],
      ['https://example.com/two', 'Two'],
      ['https://example.com/three', 'Three'],
    ]);
    expect(created[0].alias).toBe(alias);
    expect(created[1].alias).toMatch(/^[0-9a-z]{5,}$/);
    expect(created[2].targets_type).toBe('countries');
    expect(created[2].targets).toEqual([{ key: 'GB', value: 'https://example.co.uk/' }]);
    for (const link of created) {
      const shown = await call(owner, 'get', `/api/v1/links/${link.id}`);
      expect(shown.body.data).toEqual(link);
    }
    const visit = await t.http().get(`/${alias}`).set('User-Agent', UA.macSafari);
    expect([visit.status, visit.headers.location]).toEqual([302, 'https://example.com/one']);
  });

  it('takes a form body in bracket notation', async () => {
    const response = await form(
      owner,
      'post',
      '/api/v1/links/bulk',
      'links[0][url]=https://example.com/a&links[0][title]=A&links[1][url]=https://example.com/b&links[1][title]=B',
    );
    expect(response.status).toBe(201);
    expect((response.body.data as LinkData[]).map((link) => link.title)).toEqual(['A', 'B']);
  });

  it('creates 1,000 links in one request', async () => {
    const before = await linkCount(owner);
    const links = Array.from({ length: 1000 }, (_, index) => ({
      url: `https://example.com/item/${index}`,
      title: `Item ${index}`,
    }));
    const response = await json(owner, 'post', '/api/v1/links/bulk', { links });
    expect(response.status).toBe(201);
    const created = response.body.data as LinkData[];
    expect(created).toHaveLength(1000);
    expect(created[999].url).toBe('https://example.com/item/999');
    expect(new Set(created.map((link) => link.alias)).size).toBe(1000);
    expect(await linkCount(owner)).toBe(before + 1000);
  });

  describe('all or nothing', () => {
    it('refuses the whole request when one item is invalid, naming the item and field', async () => {
      const before = await linkCount(owner);
      const links = Array.from({ length: 9 }, (_, index) => ({ url: `https://example.com/ok/${index}` }));
      links[7] = { url: 'javascript:alert(1)' };
      const response = await json(owner, 'post', '/api/v1/links/bulk', { links });
      expect(response.status).toBe(422);
      expect(response.body).toEqual(
        invalid({ 'links.7.url': 'The url field must be an http or https URL.' }),
      );
      expect(await linkCount(owner)).toBe(before);
    });

    it('names every item that breaks a field rule', async () => {
      const response = await json(owner, 'post', '/api/v1/links/bulk', {
        links: [
          { url: 'https://example.com/fine' },
          { url: 'ftp://example.com/x' },
          { url: 'https://example.com/y', clicks_limit: 'many' },
        ],
      });
      expect(response.status).toBe(422);
      expect(response.body).toEqual(
        invalid({
          'links.1.url': 'The url field must be an http or https URL.',
          'links.2.clicks_limit': 'The clicks limit field must be an integer.',
        }),
      );
    });

    it('names every item that names another account’s resource, and creates none', async () => {
      const space = await form(other, 'post', '/api/v1/spaces', { name: 'Theirs' });
      const pixel = await form(other, 'post', '/api/v1/pixels', {
        name: 'Theirs',
        type: 'facebook',
        value: '123456789012345',
      });
      const before = await linkCount(owner);
      const response = await json(owner, 'post', '/api/v1/links/bulk', {
        links: [
          { url: 'https://example.com/fine' },
          { url: 'https://example.com/x', space_id: space.body.data.id as number },
          { url: 'https://example.com/y', pixel_ids: [pixel.body.data.id as number] },
        ],
      });
      expect(response.status).toBe(422);
      expect(response.body).toEqual(
        invalid({
          'links.1.space_id': 'The selected space id is invalid.',
          'links.2.pixel_ids.0': 'The selected pixel is invalid.',
        }),
      );
      expect(await linkCount(owner)).toBe(before);
    });

    it('rolls back the links already inserted when an alias turns out taken within the same request', async () => {
      const alias = unique('twice');
      const before = await linkCount(owner);
      const response = await json(owner, 'post', '/api/v1/links/bulk', {
        links: [
          { url: 'https://example.com/first', alias },
          { url: 'https://example.com/second' },
          { url: 'https://example.com/third', alias: alias.toUpperCase() },
        ],
      });
      expect(response.status).toBe(422);
      expect(response.body).toEqual(invalid({ 'links.2.alias': 'The alias has already been taken.' }));
      expect(await linkCount(owner)).toBe(before);
      const visit = await t.http().get(`/${alias}`).set('User-Agent', UA.macSafari);
      expect(visit.status).toBe(404);
    });

    it('refuses an alias taken in the middle of a large bulk with the same 422, and writes nothing of it', async () => {
      const account = await createAccount(t);
      const space = await createSpace(account);
      const pixel = await createPixel(account);
      const held = unique('held');
      await json(account, 'post', '/api/v1/links', { url: 'https://example.com/held', alias: held });
      const before = {
        links: await linkCount(account),
        space: await showSpace(account, space.id),
        pixels: await t.dataSource.query('SELECT count(*)::int AS n FROM link_pixels WHERE pixel_id = $1', [
          pixel.id,
        ]),
      };
      const links = Array.from({ length: 300 }, (_, index) => ({
        url: `https://example.com/middle/${index}`,
        ...(index % 3 === 0 ? { space_id: space.id } : {}),
        ...(index % 2 === 0 ? { pixel_ids: [pixel.id] } : {}),
        ...(index % 7 === 0 ? { alias: unique(`m${index}`) } : {}),
      }));
      links[150] = { url: 'https://example.com/clash', alias: held.toUpperCase() };

      const response = await json(account, 'post', '/api/v1/links/bulk', { links });

      expect(response.status).toBe(422);
      expect(response.body).toEqual(invalid({ 'links.150.alias': 'The alias has already been taken.' }));
      expect(await linkCount(account)).toBe(before.links);
      expect(await showSpace(account, space.id)).toEqual(before.space);
      expect(
        await t.dataSource.query('SELECT count(*)::int AS n FROM link_pixels WHERE pixel_id = $1', [
          pixel.id,
        ]),
      ).toEqual(before.pixels);
      const visit = await t
        .http()
        .get(`/${links[7].alias as string}`)
        .set('User-Agent', UA.macSafari);
      expect(visit.status).toBe(404);
    });

    it('names every item whose alias is taken, by another link or an earlier item', async () => {
      const held = unique('first-held');
      const again = unique('again');
      await json(owner, 'post', '/api/v1/links', { url: 'https://example.com/held', alias: held });
      const response = await json(owner, 'post', '/api/v1/links/bulk', {
        links: [
          { url: 'https://example.com/0' },
          { url: 'https://example.com/1', alias: again },
          { url: 'https://example.com/2' },
          { url: 'https://example.com/3', alias: again.toUpperCase() },
          { url: 'https://example.com/4', alias: held },
        ],
      });
      expect(response.body).toEqual(
        invalid({
          'links.3.alias': 'The alias has already been taken.',
          'links.4.alias': 'The alias has already been taken.',
        }),
      );
    });

    it('refuses an alias another link already has', async () => {
      const alias = unique('held');
      await json(owner, 'post', '/api/v1/links', { url: 'https://example.com/held', alias });
      const response = await json(owner, 'post', '/api/v1/links/bulk', {
        links: [{ url: 'https://example.com/new' }, { url: 'https://example.com/clash', alias }],
      });
      expect(response.body).toEqual(invalid({ 'links.1.alias': 'The alias has already been taken.' }));
    });
  });

  it('gives each link its own domain, space and pixels, and answers each as a show does', async () => {
    const account = await createAccount(t);
    const [first, second] = [await createSpace(account, 'First'), await createSpace(account, 'Second')];
    const [one, two] = [await createPixel(account, 'One'), await createPixel(account, 'Two')];
    const domain = await createDomain(account);
    const response = await json(account, 'post', '/api/v1/links/bulk', {
      links: [
        { url: 'https://example.com/a', space_id: first.id, pixel_ids: [two.id, one.id, two.id] },
        { url: 'https://example.com/b', pixel_ids: [two.id] },
        { url: 'https://example.com/c', space_id: second.id, domain_id: domain.id },
        { url: 'https://example.com/d', space_id: first.id, domain: domain.id, pixel_ids: [one.id] },
      ],
    });
    expect(response.status).toBe(201);
    const created = response.body.data as LinkData[];
    expect(
      created.map((link) => [link.space?.id ?? null, link.domain.id, link.pixels.map(({ id }) => id)]),
    ).toEqual([
      [first.id, created[0].domain.id, [one.id, two.id]],
      [null, created[0].domain.id, [two.id]],
      [second.id, domain.id, []],
      [first.id, domain.id, [one.id]],
    ]);
    expect(created[0].domain.id).not.toBe(domain.id);
    for (const link of created) {
      expect((await call(account, 'get', `/api/v1/links/${link.id}`)).body.data).toEqual(link);
    }
    expect(created[0].space).toEqual(await showSpace(account, first.id));
    expect((await showSpace(account, first.id)).links_count).toBe(2);
  });

  it('draws random aliases that collided again, one character longer, keeping the order sent', async () => {
    const account = await createAccount(t);
    const domain = await createDomain(account);
    // Every random draw is "0": the links of each round take the same alias, and the first in order gets it.
    const draws = jest.spyOn(crypto, 'randomInt').mockImplementation(() => 0);
    let response: Awaited<ReturnType<typeof json>>;
    try {
      response = await json(account, 'post', '/api/v1/links/bulk', {
        links: [
          { url: 'https://example.com/0', domain_id: domain.id },
          { url: 'https://example.com/1', domain_id: domain.id, alias: 'asked' },
          { url: 'https://example.com/2', domain_id: domain.id },
          { url: 'https://example.com/3', domain_id: domain.id },
        ],
      });
    } finally {
      draws.mockRestore();
    }
    expect(response.status).toBe(201);
    const created = response.body.data as LinkData[];
    expect(created.map((link) => [link.url, link.alias])).toEqual([
      ['https://example.com/0', '00000'],
      ['https://example.com/1', 'asked'],
      ['https://example.com/2', '000000'],
      ['https://example.com/3', '0000000'],
    ]);
    for (const link of created) {
      expect((await call(account, 'get', `/api/v1/links/${link.id}`)).body.data).toEqual(link);
    }
  });

  it('answers a title with a lone surrogate as it is stored, as a single create does', async () => {
    const response = await json(owner, 'post', '/api/v1/links/bulk', {
      links: [
        { url: 'https://example.com/s', title: 'broken \ud800 pair' },
        { url: 'https://example.com/t', title: 'whole \ud83d\ude00 pair' },
      ],
    });
    const single = await json(owner, 'post', '/api/v1/links', {
      url: 'https://example.com/u',
      title: 'lone \udc00',
    });
    expect([response.status, single.status]).toEqual([201, 201]);
    const created = [...(response.body.data as LinkData[]), single.body.data as LinkData];
    expect(created.map((link) => link.title)).toEqual([
      'broken \ufffd pair',
      'whole \ud83d\ude00 pair',
      'lone \ufffd',
    ]);
    for (const link of created) {
      expect((await call(owner, 'get', `/api/v1/links/${link.id}`)).body.data).toEqual(link);
    }
  });

  it.each([
    ['no links field', {}, 'The links field is required.'],
    ['an empty list', { links: [] }, 'The links field must have between 1 and 1000 items.'],
    ['a string', { links: 'https://example.com' }, 'The links field must be an array.'],
    [
      'items that are not objects',
      { links: ['https://example.com'] },
      'Each link must be an object of link fields.',
    ],
  ])('refuses %s with a 422 on links', async (_case, body, message) => {
    const response = await json(owner, 'post', '/api/v1/links/bulk', body);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      message: { links: expect.arrayContaining([message]) as unknown },
      status: 422,
    });
  });

  it('refuses 1,001 links', async () => {
    const links = Array.from({ length: 1001 }, (_, index) => ({ url: `https://example.com/${index}` }));
    const response = await json(owner, 'post', '/api/v1/links/bulk', { links });
    expect(response.status).toBe(422);
    expect(response.body).toEqual(invalid({ links: 'The links field must have between 1 and 1000 items.' }));
  });

  describe('passwords', () => {
    const visit = (alias: string, password: string) =>
      t.http().post(`/${alias}/password`).type('form').set('User-Agent', UA.macSafari).send({ password });

    it('hashes each link’s own passwords', async () => {
      const response = await json(owner, 'post', '/api/v1/links/bulk', {
        links: [
          { url: 'https://example.com/p0', redirect_password: 'zero' },
          { url: 'https://example.com/p1' },
          { url: 'https://example.com/p2', redirect_password: 'two', password: 'stats two', privacy: 2 },
        ],
      });
      expect(response.status).toBe(201);
      const [zero, one, two] = response.body.data as LinkData[];
      expect([zero, one, two].map((link) => [link.password, link.redirect_password])).toEqual([
        [false, true],
        [false, false],
        [true, true],
      ]);
      expect((await visit(zero.alias, 'two')).status).toBe(403);
      expect((await visit(two.alias, 'zero')).status).toBe(403);
      expect((await visit(zero.alias, 'zero')).headers.location).toBe('https://example.com/p0');
      expect((await visit(two.alias, 'two')).headers.location).toBe('https://example.com/p2');
    });

    it('refuses more than 100 passwords in one request, naming the first past them, and creates none', async () => {
      const before = await linkCount(owner);
      const links = Array.from({ length: 101 }, (_, index) => ({
        url: `https://example.com/locked/${index}`,
        redirect_password: `secret ${index}`,
      }));
      const response = await json(owner, 'post', '/api/v1/links/bulk', { links });
      expect(response.status).toBe(422);
      expect(response.body).toEqual(
        invalid({ 'links.100.redirect_password': 'No more than 100 passwords can be set in one request.' }),
      );
      expect(await linkCount(owner)).toBe(before);
    });

    it('counts both kinds of password together', async () => {
      const links = Array.from({ length: 51 }, (_, index) => ({
        url: `https://example.com/both/${index}`,
        redirect_password: `visit ${index}`,
        password: `stats ${index}`,
        privacy: 2,
      }));
      const response = await json(owner, 'post', '/api/v1/links/bulk', { links });
      expect(response.status).toBe(422);
      expect(response.body).toEqual(
        invalid({ 'links.50.password': 'No more than 100 passwords can be set in one request.' }),
      );
    });
  });

  describe('a body larger than 1,000 links need', () => {
    /** The lengths of the texts JSON.parse read while `send` ran. */
    async function parsedLengths(send: () => Promise<unknown>): Promise<number[]> {
      const parse = jest.spyOn(JSON, 'parse');
      try {
        await send();
        return parse.mock.calls.map(([text]) => String(text).length);
      } finally {
        parse.mockRestore();
      }
    }

    it('refuses 100,000 empty links with the contract’s 422 before building a single one', async () => {
      const body = `{"links":[${Array.from({ length: 100_000 }, () => '{}').join(',')}]}`;
      let response: Awaited<ReturnType<typeof json>> | undefined;
      const lengths = await parsedLengths(async () => {
        response = await json(owner, 'post', '/api/v1/links/bulk', body);
      });
      expect(response?.status).toBe(422);
      expect(response?.body).toEqual(
        invalid({ links: 'The links field must have between 1 and 1000 items.' }),
      );
      expect(lengths.filter((length) => length >= 100_000)).toEqual([]);
    });

    it('refuses more than 50,000 values in all with a 413, before parsing them', async () => {
      const pixels = `[${Array.from({ length: 99 }, () => '1').join(',')}]`;
      const link = `{"url":"https://example.com/","pixel_ids":${pixels}}`;
      const body = `{"links":[${Array.from({ length: 600 }, () => link).join(',')}]}`;
      let response: Awaited<ReturnType<typeof json>> | undefined;
      const lengths = await parsedLengths(async () => {
        response = await json(owner, 'post', '/api/v1/links/bulk', body);
      });
      expect(response?.status).toBe(413);
      expect(response?.body).toEqual({ message: 'Payload too large.', status: 413 });
      expect(lengths.filter((length) => length >= body.length / 2)).toEqual([]);
    });

    it('names a list inside a link that has more items than any field takes', async () => {
      const targets = `[${Array.from({ length: 1001 }, () => '{}').join(',')}]`;
      const response = await json(
        owner,
        'post',
        '/api/v1/links/bulk',
        `{"links":[{"url":"https://example.com/"},{"url":"https://example.com/","targets_type":"rotations","targets":${targets}}]}`,
      );
      expect(response.status).toBe(422);
      expect(response.body).toEqual(
        invalid({ 'links.1.targets': 'The targets field must not have more than 1000 items.' }),
      );
    });

    it('refuses a body over 2 MB with the contract’s 413', async () => {
      const body = JSON.stringify({ links: [{ url: 'https://example.com/', title: 'x'.repeat(2_100_000) }] });
      const response = await json(owner, 'post', '/api/v1/links/bulk', body);
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ message: 'Payload too large.', status: 413 });
    });

    it('takes 1,000 links of 2 KB each', async () => {
      const links = Array.from({ length: 1000 }, (_, index) => ({
        url: `https://example.com/${index}/${'p'.repeat(1000)}`,
        expiration_url: `https://example.com/expired/${'e'.repeat(900)}`,
        title: `Long ${index}`,
      }));
      expect(JSON.stringify({ links }).length).toBeGreaterThan(2_000_000);
      const response = await json(owner, 'post', '/api/v1/links/bulk', { links });
      expect(response.status).toBe(201);
      expect(response.body.data).toHaveLength(1000);
    });
  });

  it('needs a key', async () => {
    const response = await t
      .http()
      .post('/api/v1/links/bulk')
      .send({ links: [{ url: 'https://example.com' }] });
    expect(response.status).toBe(401);
  });
});
