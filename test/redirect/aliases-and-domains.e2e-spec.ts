import { createAccount, type TestApp } from '../support/app';
import { expectPage, unique } from '../support/visitors';
import { DESTINATION, expectRedirect, createListeningApp, visitClient } from './support';

/**
 * Which link an address names: the alias whatever its case, the domain by the Host, and a domain's own index.
 */
describe('Visiting short links', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createListeningApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, link, expectClicks, createDomain } = visitClient(() => t);

  describe('aliases and domains', () => {
    it('finds an alias whatever its case', async () => {
      const account = await createAccount(t);
      const created = await link(account, { alias: unique('MixedCase') });
      for (const alias of [created.alias, created.alias.toLowerCase(), created.alias.toUpperCase()]) {
        expectRedirect(await get(`/${alias}`), DESTINATION);
      }
      await expectClicks(account, created.id, 3);
    });

    it('resolves the same alias on each domain by the Host, and an unknown Host as the default domain', async () => {
      const account = await createAccount(t);
      const first = await createDomain(account);
      const second = await createDomain(account);
      const alias = unique('shared');
      await link(account, { alias, domain_id: first.id, url: 'https://first.example/' });
      await link(account, { alias, domain_id: second.id, url: 'https://second.example/' });
      await link(account, { alias, url: 'https://default.example/' });
      expectRedirect(await get(`/${alias}`, { host: first.name }), 'https://first.example/');
      expectRedirect(await get(`/${alias}`, { host: first.name.toUpperCase() }), 'https://first.example/');
      expectRedirect(await get(`/${alias}`, { host: second.name }), 'https://second.example/');
      expectRedirect(
        await get(`/${alias}`, { host: `${unique('unknown')}.example` }),
        'https://default.example/',
      );
      expectRedirect(await get(`/${alias}`, { host: 'localhost:3000' }), 'https://default.example/');
      expectRedirect(await get(`/${alias}`), 'https://default.example/');
    });

    it('treats a host that names no domain (an address, as a health check sends) as the default domain', async () => {
      const account = await createAccount(t);
      const alias = unique('byaddress');
      await link(account, { alias, url: 'https://default.example/' });
      for (const host of [
        '10.0.0.7:3000',
        '10.0.0.7',
        '[::1]:3000',
        'not a host!',
        `${unique('x')}.example`,
      ]) {
        // Twice: the second answer comes from what the first left in memory.
        expectRedirect(await get(`/${alias}`, { host }), 'https://default.example/');
        expectRedirect(await get(`/${alias}`, { host }), 'https://default.example/');
        expect((await t.http().get('/health').set('Host', host)).status).toBe(200);
      }
    });

    it("sends GET / to the domain's index_page, else a page that names the service and the domain", async () => {
      const account = await createAccount(t);
      const withIndex = await createDomain(account, { index_page: 'https://example.com/home' });
      const without = await createDomain(account);
      expectRedirect(await get('/', { host: withIndex.name }), 'https://example.com/home');
      const own = expectPage(await get('/', { host: without.name }), {
        status: 200,
        title: 'localhost:3000',
      });
      expect(own).toContain(`<p>${without.name} serves short links.`);
      // A customer's domain is for its visitors: it does not lead them into the service's dashboard.
      expect(own).not.toContain('href="/app"');
      expect(own).not.toContain('href="/docs"');
      const home = expectPage(await get('/'), { status: 200, title: 'localhost:3000' });
      expect(home).toContain('<p>localhost:3000 serves short links.');
    });

    it("leads from the service's own domain to the dashboard and the API docs", async () => {
      const home = expectPage(await get('/'), { status: 200, title: 'localhost:3000' });
      expect(home).toContain('<a href="/app">Open the dashboard</a>');
      expect(home).toContain('<a href="/docs">Read the API documentation</a>');
    });
  });
});
