import { createAccount, type TestApp } from '../support/app';
import { clickRows, expectPage, showLink, unique } from '../support/visitors';
import {
  DESTINATION,
  NOT_FOUND,
  EXPIRED,
  PASSWORD_PAGE,
  expectRedirect,
  createListeningApp,
  visitClient,
} from './support';

/**
 * An address that leads nowhere: an unknown alias, a disabled or expired link, and the forms of such a link.
 */
describe('Visiting short links', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createListeningApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, post, link, expectClicks, createDomain } = visitClient(() => t);

  describe('an unknown alias', () => {
    it('gets a 404 page', async () => {
      const html = expectPage(await get(`/${unique('nothing')}`), NOT_FOUND);
      expect(html).toContain(
        '<p>There is no link at this address. Check the address for typing mistakes, or ask whoever shared it for the right one.</p>',
      );
    });

    it('gets the 404 page when the path cannot be an alias, without echoing it', async () => {
      const html = expectPage(await get('/%3Cscript%3Ealert(1)%3C%2Fscript%3E'), NOT_FOUND);
      expect(html).not.toContain('alert(1)');
    });

    it('gets the 404 page for any other address a browser opens, while API paths keep the JSON 404', async () => {
      const html = expectPage(await get(`/${unique('a')}/b/c`), NOT_FOUND);
      expect(html).toContain('<h1>Link not found</h1>');
      const api = await get('/api/v1/nothing-here');
      expect(api.status).toBe(404);
      expect(api.body).toEqual({ message: 'Resource not found.', status: 404 });
    });

    it("goes to the domain's not_found_page when it has one", async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { not_found_page: 'https://example.com/missing' });
      expectRedirect(
        await get(`/${unique('nothing')}`, { host: domain.name }),
        'https://example.com/missing',
      );
    });

    it('gets the 404 page on a domain without a not_found_page', async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account);
      expectPage(await get(`/${unique('nothing')}`, { host: domain.name }), NOT_FOUND);
    });

    it("of the default domain is not looked up on another domain, nor another domain's on the default", async () => {
      const account = await createAccount(t);
      const domain = await createDomain(account, { not_found_page: 'https://example.com/missing' });
      const own = await link(account, { domain_id: domain.id });
      const onDefault = await link(account, {});
      expectPage(await get(`/${own.alias}`), NOT_FOUND);
      expectRedirect(await get(`/${onDefault.alias}`, { host: domain.name }), 'https://example.com/missing');
      expectRedirect(await get(`/${own.alias}`, { host: domain.name }), DESTINATION);
    });
  });

  describe('a disabled link', () => {
    it('gets the 404 page, even with an expiration_url, and is not counted', async () => {
      const account = await createAccount(t);
      const created = await link(account, { disabled: '1', expiration_url: 'https://example.com/expired' });
      expectPage(await get(`/${created.alias}`), NOT_FOUND);
      await expectClicks(account, created.id, 0);
    });
  });

  describe('an expired link', () => {
    const past = { active_period_start_at: '2020-01-01 00:00', active_period_end_at: '2020-01-02 00:00' };
    const future = { active_period_start_at: '2098-01-01 00:00', active_period_end_at: '2099-01-01 00:00' };

    it.each([
      ['its active period has ended', past],
      ['its active period has not started', future],
    ])('gets the 410 page when %s', async (_case, period) => {
      const account = await createAccount(t);
      const created = await link(account, period);
      const html = expectPage(await get(`/${created.alias}`), EXPIRED);
      expect(html).toContain(
        '<p>It has reached the end of its active period or its limit of visits, and no longer leads anywhere.</p>',
      );
      // What the visitor can do next.
      expect(html).toContain('<p>Ask whoever shared it for a link that still works.</p>');
      await expectClicks(account, created.id, 0);
    });

    it.each([
      ['its active period has ended', past],
      ['its active period has not started', future],
    ])('goes to its expiration_url when %s', async (_case, period) => {
      const account = await createAccount(t);
      const created = await link(account, { ...period, expiration_url: 'https://example.com/expired' });
      expectRedirect(await get(`/${created.alias}?a=1`), 'https://example.com/expired');
      await expectClicks(account, created.id, 0);
    });

    it('gets the 410 page once its clicks limit is reached, and its expiration_url when it has one', async () => {
      const account = await createAccount(t);
      const plain = await link(account, { clicks_limit: '2' });
      const withUrl = await link(account, {
        clicks_limit: '1',
        expiration_url: 'https://example.com/expired',
      });
      expectRedirect(await get(`/${plain.alias}`), DESTINATION);
      expectRedirect(await get(`/${plain.alias}`), DESTINATION);
      expectPage(await get(`/${plain.alias}`), EXPIRED);
      expectRedirect(await get(`/${withUrl.alias}`), DESTINATION);
      expectRedirect(await get(`/${withUrl.alias}`), 'https://example.com/expired');
      await expectClicks(account, plain.id, 2);
      await expectClicks(account, withUrl.id, 1);
    });

    it('is active inside its period', async () => {
      const account = await createAccount(t);
      const created = await link(account, {
        active_period_start_at: '2020-01-01 00:00',
        active_period_end_at: '2099-01-01 00:00',
      });
      expectRedirect(await get(`/${created.alias}`), DESTINATION);
      await expectClicks(account, created.id, 1);
    });

    it('treats a clicks_limit of 0 in the database as no limit, as the API and the status do', async () => {
      const account = await createAccount(t);
      const created = await link(account, {});
      await t.dataSource.query('UPDATE links SET clicks_limit = 0 WHERE id = $1', [created.id]);
      expectRedirect(await get(`/${created.alias}`), DESTINATION);
      await expectClicks(account, created.id, 1);
    });
  });

  describe('the forms of a link nobody may visit', () => {
    it('answer as a visit would: 404 for unknown or disabled, 410 or expiration_url for expired', async () => {
      const account = await createAccount(t);
      const disabled = await link(account, {
        disabled: '1',
        redirect_password: 'pw',
        sensitive_content: '1',
      });
      const expired = await link(account, {
        clicks_limit: '1',
        redirect_password: 'pw',
        sensitive_content: '1',
      });
      const redirected = await link(account, {
        clicks_limit: '1',
        redirect_password: 'pw',
        expiration_url: 'https://example.com/expired',
      });
      await t.dataSource.query('UPDATE link_counters SET clicks = 1 WHERE link_id IN ($1, $2)', [
        expired.id,
        redirected.id,
      ]);
      for (const form of ['password', 'sensitive-consent']) {
        expectPage(await post(`/${unique('nothing')}/${form}`, { password: 'pw' }), NOT_FOUND);
        expectPage(await post(`/${disabled.alias}/${form}`, { password: 'pw' }), NOT_FOUND);
        expectPage(await post(`/${expired.alias}/${form}`, { password: 'pw' }), EXPIRED);
        expectRedirect(
          await post(`/${redirected.alias}/${form}`, { password: 'pw' }),
          'https://example.com/expired',
        );
      }
      expect((await showLink(t, account, expired.id)).clicks).toBe(1);
      expect(await clickRows(t, expired.id)).toHaveLength(0);
    });

    it('answer 410 when the clicks limit is reached between the password form and its answer', async () => {
      const account = await createAccount(t);
      const created = await link(account, { clicks_limit: '1', redirect_password: 'pw' });
      expectPage(await get(`/${created.alias}`), PASSWORD_PAGE);
      expectPage(await get(`/${created.alias}`), PASSWORD_PAGE);
      expectRedirect(await post(`/${created.alias}/password`, { password: 'pw' }), DESTINATION);
      expectPage(await post(`/${created.alias}/password`, { password: 'pw' }), EXPIRED);
      await expectClicks(account, created.id, 1);
    });
  });
});
