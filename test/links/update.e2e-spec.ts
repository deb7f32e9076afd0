import { createAccount, createTestApp, type TestAccount, type TestApp } from '../support/app';
import { apiClient, ISO_DATE, UNKNOWN_ID, type Body } from '../support/api';
import { invalid } from '../support/contract';
import {
  LINKS,
  ALIAS_TAKEN,
  ALIAS_CHARSET,
  DATE_FORMAT,
  START_REQUIRED,
  END_REQUIRED,
  END_AFTER_START,
  PASSWORD_REQUIRED,
  expectLinkFields,
  linkFixtures,
  type LinkData,
} from '../support/links';
import { offDocument } from '../support/openapi-responses';
import { sleep } from '../support/sleep';
import { unique } from '../support/visitors';

/** Updating a link with PUT and PATCH: what changes, what is kept, what is refused. */
describe('Links API', () => {
  let t: TestApp;
  const { form, json } = apiClient(() => t);
  const { createLink, showLink, createSpace, showSpace, createPixel, createDomain, hashes, createFullLink } =
    linkFixtures(() => t);

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  describe.each(['put', 'patch'] as const)('%s /links/:id (update)', (verb) => {
    async function update(account: TestAccount, id: number, body: Body | string) {
      return form(account, verb, `${LINKS}/${id}`, body);
    }

    it('changes what is sent and keeps everything else', async () => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);
      await sleep(15);

      const response = await update(account, link.id, { title: 'New title', url: 'https://example.org/new' });

      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['data', 'status']);
      expectLinkFields(response.body.data);
      const updated = response.body.data as LinkData;
      expect(updated).toEqual({
        ...link,
        title: 'New title',
        url: 'https://example.org/new',
        updated_at: expect.stringMatching(ISO_DATE),
      });
      expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(link.updated_at));
      expect((await showLink(account, link.id)).body).toEqual({ data: updated, status: 200 });
    });

    it('keeps everything with an empty body, and keeps the secrets', async () => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);
      const before = await hashes(link.id);

      const response = await update(account, link.id, {});

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ ...link, updated_at: expect.stringMatching(ISO_DATE) });
      expect(await hashes(link.id)).toEqual(before);
    });

    it('changes every field from a JSON body', async () => {
      const account = await createAccount(t);
      const { link, pixels } = await createFullLink(account);
      const space = await createSpace(account, 'Other');
      const alias = unique('upd');

      const response = await json(account, verb, `${LINKS}/${link.id}`, {
        url: 'https://example.net/',
        alias,
        title: 'JSON title',
        space_id: space.id,
        pixel_ids: [pixels[1].id],
        sensitive_content: false,
        privacy: 0,
        active_period_start_at: '2030-01-01 00:00',
        active_period_end_at: '2031-01-01T00:00:00Z',
        clicks_limit: 0,
        expiration_url: 'https://example.net/expired',
        targets_type: 'devices',
        targets: [{ key: 'tablet', value: 'https://tablet.example/' }],
        disabled: true,
      });

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        ...link,
        url: 'https://example.net/',
        alias,
        short_url: `${link.domain.url}/${alias}`,
        title: 'JSON title',
        space: await showSpace(account, space.id),
        pixels: [expect.objectContaining({ id: pixels[1].id })],
        sensitive_content: 0,
        privacy: 0,
        active_period_start_at: '2030-01-01T00:00:00.000000Z',
        active_period_end_at: '2031-01-01T00:00:00.000000Z',
        expires_at: '2031-01-01T00:00:00.000000Z',
        clicks_limit: null,
        expiration_url: 'https://example.net/expired',
        targets_type: 'devices',
        targets: [{ key: 'Tablet', value: 'https://tablet.example/' }],
        disabled: 1,
        updated_at: expect.stringMatching(ISO_DATE),
      });
    });

    it.each<[string, string, Partial<LinkData>]>([
      ['expiration_url', 'expiration_url=', { expiration_url: null }],
      ['redirect_password', 'redirect_password=', { redirect_password: false }],
      ['password', 'password=', { password: false }],
      ['space_id', 'space_id=', { space: null }],
      ['space_id as 0', 'space_id=0', { space: null }],
      ['title', 'title=', { title: null }],
      ['clicks_limit', 'clicks_limit=', { clicks_limit: null }],
      ['clicks_limit as 0', 'clicks_limit=0', { clicks_limit: null }],
      [
        'the active period',
        'active_period_start_at=&active_period_end_at=',
        { active_period_start_at: null, active_period_end_at: null, expires_at: null },
      ],
      ['targets_type', 'targets_type=', { targets_type: null, targets: null }],
      ['pixel_ids[]', 'pixel_ids[]=', { pixels: [] }],
      ['pixel_ids', 'pixel_ids=', { pixels: [] }],
    ])('an empty %s clears it', async (_label, body, expected) => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);

      // `pixel_ids=` (no brackets) for an empty list is a tolerance; the document's form is `pixel_ids[]=`.
      const response = await offDocument(
        form(account, verb, `${LINKS}/${link.id}`, body),
        body === 'pixel_ids=',
      );

      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        ...link,
        ...expected,
        updated_at: expect.stringMatching(ISO_DATE),
      });
      expect((await showLink(account, link.id)).body.data).toEqual(response.body.data);
    });

    it('clears the stored hashes with empty passwords', async () => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);

      const response = await update(account, link.id, 'password=&redirect_password=');

      expect(response.status).toBe(200);
      expect(await hashes(link.id)).toEqual({ password_hash: null, redirect_password_hash: null });
    });

    it('replaces a password with a new hash', async () => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);
      const before = await hashes(link.id);

      const response = await update(account, link.id, { redirect_password: 'another-secret' });

      expect(response.status).toBe(200);
      expect(response.body.data.redirect_password).toBe(true);
      expect(response.text).not.toContain('another-secret');
      const after = await hashes(link.id);
      expect(after.redirect_password_hash).toMatch(/^scrypt\$/);
      expect(after.redirect_password_hash).not.toBe(before.redirect_password_hash);
      expect(after.password_hash).toBe(before.password_hash);
    });

    it.each<[string, Body | string, object]>([
      ['an empty url', { url: '' }, invalid('url', 'The url field is required.')],
      [
        'a javascript: url',
        { url: 'javascript:alert(1)' },
        invalid('url', 'The url field must be an http or https URL.'),
      ],
      [
        'an empty sensitive_content',
        { sensitive_content: '' },
        invalid('sensitive_content', 'The sensitive content field is required.'),
      ],
      ['an empty disabled', { disabled: '' }, invalid('disabled', 'The disabled field is required.')],
      ['an empty privacy', { privacy: '' }, invalid('privacy', 'The privacy field is required.')],
      ['a reserved alias', { alias: 'docs' }, invalid('alias', 'The alias is reserved.')],
      ['a bad alias', { alias: 'a b' }, invalid('alias', ALIAS_CHARSET)],
      ['an end before the start', { active_period_end_at: '2019-01-01 00:00' }, END_AFTER_START],
      ['an end cleared alone', { active_period_end_at: '' }, END_REQUIRED],
      ['a start cleared alone', { active_period_start_at: '' }, START_REQUIRED],
      [
        'an impossible date',
        { active_period_end_at: '2099-02-30 00:00' },
        invalid('active_period_end_at', DATE_FORMAT('active_period_end_at')),
      ],
      [
        'a bad key for the kept targets_type',
        'targets[0][key]=Chrome&targets[0][value]=https://c.example/',
        invalid('targets.0.key', 'The selected key is invalid for countries.'),
      ],
      [
        'a new targets_type without targets',
        { targets_type: 'devices' },
        invalid('targets', 'The targets field is required when targets type is present.'),
      ],
      [
        'targets cleared while targets_type stays',
        { targets: '' },
        invalid('targets', 'The targets field is required when targets type is present.'),
      ],
      ['privacy 2 while clearing the password', { privacy: '2', password: '' }, PASSWORD_REQUIRED],
      [
        'clicks_limit -1',
        { clicks_limit: '-1' },
        invalid('clicks_limit', 'The clicks limit field must be at least 0.'),
      ],
      [
        'a pixel of nobody',
        `pixel_ids[]=${UNKNOWN_ID}`,
        invalid('pixel_ids.0', 'The selected pixel is invalid.'),
      ],
      [
        'a space of nobody',
        { space_id: String(UNKNOWN_ID) },
        invalid('space_id', 'The selected space id is invalid.'),
      ],
    ])('refuses %s with 422 and changes nothing', async (_label, body, expected) => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);
      const before = await hashes(link.id);

      const response = await update(account, link.id, body);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(expected);
      expect((await showLink(account, link.id)).body.data).toEqual(link);
      expect(await hashes(link.id)).toEqual(before);
    });

    it('requires a password for privacy 2 only when the link has none', async () => {
      const account = await createAccount(t);
      const bare = await createLink(account, { url: 'https://example.com/' });
      const { link: withPassword } = await createFullLink(account);

      const refused = await update(account, bare.id, { privacy: '2' });
      const kept = await update(account, withPassword.id, { privacy: '2' });
      const given = await update(account, bare.id, { privacy: '2', password: 'new' });

      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(PASSWORD_REQUIRED);
      expect(kept.status).toBe(200);
      expect(kept.body.data).toMatchObject({ privacy: 2, password: true });
      expect(given.status).toBe(200);
      expect(given.body.data).toMatchObject({ privacy: 2, password: true });
    });

    it('refuses clearing the password of a link whose privacy is 2', async () => {
      const account = await createAccount(t);
      const link = await createLink(account, { url: 'https://example.com/', privacy: '2', password: 'pw' });

      const cleared = await update(account, link.id, { password: '' });
      const madePublic = await update(account, link.id, { password: '', privacy: '0' });

      expect(cleared.status).toBe(422);
      expect(cleared.body).toEqual(PASSWORD_REQUIRED);
      expect(madePublic.status).toBe(200);
      expect(madePublic.body.data).toMatchObject({ privacy: 0, password: false });
    });

    it("ignores domain_id and domain: a link's domain never changes", async () => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);
      const other = await createDomain(account);

      const response = await update(account, link.id, {
        domain_id: String(other.id),
        domain: String(other.id),
        title: 'Moved?',
      });

      expect(response.status).toBe(200);
      expect(response.body.data.domain).toEqual(link.domain);
      expect(response.body.data.short_url).toBe(link.short_url);
      expect(response.body.data.title).toBe('Moved?');
    });

    it('replaces the whole set of pixels', async () => {
      const account = await createAccount(t);
      const { link, pixels } = await createFullLink(account);
      const third = await createPixel(account, 'Third');

      const response = await update(account, link.id, `pixel_ids[]=${third.id}&pixel_ids[]=${pixels[0].id}`);

      expect(response.status).toBe(200);
      expect((response.body.data as LinkData).pixels.map((pixel) => pixel.id)).toEqual([
        pixels[0].id,
        third.id,
      ]);
      const rows: { pixel_id: number }[] = await t.dataSource.query(
        'SELECT pixel_id FROM link_pixels WHERE link_id = $1 ORDER BY pixel_id',
        [link.id],
      );
      expect(rows.map((row) => row.pixel_id)).toEqual([pixels[0].id, third.id]);
    });

    it("refuses another account's pixel and keeps the pixels", async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      const { link, pixels } = await createFullLink(account);
      const theirs = await createPixel(other);

      const response = await update(account, link.id, `pixel_ids[]=${pixels[0].id}&pixel_ids[]=${theirs.id}`);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(invalid('pixel_ids.1', 'The selected pixel is invalid.'));
      expect((await showLink(account, link.id)).body.data.pixels).toEqual(link.pixels);
    });

    it("refuses another account's space", async () => {
      const account = await createAccount(t);
      const other = await createAccount(t);
      const { link } = await createFullLink(account);
      const theirs = await createSpace(other);

      const response = await update(account, link.id, { space_id: String(theirs.id) });

      expect(response.status).toBe(422);
      expect(response.body).toEqual(invalid('space_id', 'The selected space id is invalid.'));
    });

    it.each<[string, string, ({ key: string; value: string } | { value: string })[], string]>([
      [
        'new targets for the same type',
        'targets[0][key]=fr&targets[0][value]=https://fr.example/',
        [{ key: 'FR', value: 'https://fr.example/' }],
        'countries',
      ],
      [
        'a new type with its targets',
        'targets_type=browsers&targets[0][key]=Firefox&targets[0][value]=https://ff.example/',
        [{ key: 'Firefox', value: 'https://ff.example/' }],
        'browsers',
      ],
      [
        'rotations',
        'targets_type=rotations&targets[0][value]=https://1.example/&targets[1][value]=https://2.example/',
        [{ value: 'https://1.example/' }, { value: 'https://2.example/' }],
        'rotations',
      ],
    ])('replaces the whole targeting with %s', async (_label, body, targets, type) => {
      const account = await createAccount(t);
      const { link } = await createFullLink(account);

      const response = await update(account, link.id, body);

      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ targets_type: type, targets, last_rotation: null });
    });

    it('starts the rotation afresh when the targeting changes', async () => {
      const account = await createAccount(t);
      const link = await createLink(
        account,
        'url=https://example.com/&targets_type=rotations&targets[0][value]=https://1.example/&targets[1][value]=https://2.example/',
      );
      await t.dataSource.query('UPDATE link_counters SET last_rotation = 1 WHERE link_id = $1', [link.id]);

      const untouched = await update(account, link.id, { title: 'Same targets' });
      const replaced = await update(account, link.id, 'targets[0][value]=https://3.example/');

      expect(untouched.body.data.last_rotation).toBe(1);
      expect(replaced.status).toBe(200);
      expect(replaced.body.data).toMatchObject({
        last_rotation: null,
        targets_type: 'rotations',
        targets: [{ value: 'https://3.example/' }],
      });
    });

    describe('alias', () => {
      it('changes the alias and the short url', async () => {
        const account = await createAccount(t);
        const link = await createLink(account, { url: 'https://example.com/' });
        const alias = unique('Renamed');

        const response = await update(account, link.id, { alias });

        expect(response.status).toBe(200);
        expect(response.body.data.alias).toBe(alias);
        expect(response.body.data.short_url).toBe(`http://localhost:3000/${alias}`);
      });

      it.each([
        ['the same alias', (alias: string) => alias],
        ['the alias in another case', (alias: string) => alias.toUpperCase()],
      ])("refuses another link's alias as %s", async (_label, variant) => {
        const account = await createAccount(t);
        const alias = unique('held');
        await createLink(account, { url: 'https://example.com/1', alias });
        const link = await createLink(account, { url: 'https://example.com/2' });

        const response = await update(account, link.id, { alias: variant(alias) });

        expect(response.status).toBe(422);
        expect(response.body).toEqual(ALIAS_TAKEN);
        expect((await showLink(account, link.id)).body.data).toEqual(link);
      });

      it('allows an alias that is taken on another domain only', async () => {
        const account = await createAccount(t);
        const domain = await createDomain(account);
        const alias = unique('elsewhere');
        await createLink(account, { url: 'https://example.com/1', alias, domain_id: String(domain.id) });
        const link = await createLink(account, { url: 'https://example.com/2' });

        const response = await update(account, link.id, { alias });

        expect(response.status).toBe(200);
        expect(response.body.data.alias).toBe(alias);
      });

      it('allows the link its own alias in another case', async () => {
        const account = await createAccount(t);
        const alias = unique('own');
        const link = await createLink(account, { url: 'https://example.com/', alias });

        const response = await update(account, link.id, { alias: alias.toUpperCase() });

        expect(response.status).toBe(200);
        expect(response.body.data.alias).toBe(alias.toUpperCase());
      });

      it('keeps the alias when it is sent empty', async () => {
        const account = await createAccount(t);
        const link = await createLink(account, { url: 'https://example.com/' });

        const response = await update(account, link.id, { alias: '' });

        expect(response.status).toBe(200);
        expect(response.body.data.alias).toBe(link.alias);
      });
    });
  });
});
