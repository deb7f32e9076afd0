import { createAccount, type TestApp } from '../support/app';
import { clickRows, UA } from '../support/visitors';
import { createListeningApp, expectRedirect, visitClient } from './support';

/**
 * Contract §13 at the redirect: a link's UTM parameters in the destination (the link's win over the destination's
 * and the visitor's), its app links for visitors on iOS and Android before any targeting and without a page on the
 * way, and its social preview for the crawlers of social networks and chat apps, while people are redirected.
 */
describe('Visiting short links: UTM parameters, app links and social previews', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createListeningApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, link, expectClicks, createPixel } = visitClient(() => t);

  describe('UTM parameters', () => {
    it("are added to the destination, and replace the same names in the destination's query", async () => {
      const account = await createAccount(t);
      const created = await link(account, {
        url: 'https://example.com/p?utm_source=old&a=1',
        utm_source: 'news letter',
        utm_campaign: 'spring&sale',
      });
      expectRedirect(
        await get(`/${created.alias}`),
        'https://example.com/p?utm_source=news%20letter&a=1&utm_campaign=spring%26sale',
      );
      await expectClicks(account, created.id, 1);
    });

    it("win over the visitor's own parameters of the same names, and leave the others", async () => {
      const account = await createAccount(t);
      const created = await link(account, { url: 'https://example.com/p?a=1', utm_medium: 'email' });
      expectRedirect(
        await get(`/${created.alias}?utm_medium=sms&utm_term=shoes&b=2`),
        'https://example.com/p?a=1&utm_medium=email&utm_term=shoes&b=2',
      );
    });

    it('are added to the target that targeting picks, and to a bot’s redirect', async () => {
      const account = await createAccount(t);
      const created = await link(account, {
        url: 'https://example.com/desktop',
        utm_source: 'qr',
        targets_type: 'operating_systems',
        targets: [{ key: 'Android', value: 'https://example.com/android' }],
      });
      expectRedirect(
        await get(`/${created.alias}`, { ua: UA.androidChrome }),
        'https://example.com/android?utm_source=qr',
      );
      expectRedirect(
        await get(`/${created.alias}`, { ua: UA.googlebot }),
        'https://example.com/desktop?utm_source=qr',
      );
    });

    it('stop being added once cleared', async () => {
      const account = await createAccount(t);
      const created = await link(account, { url: 'https://example.com/p', utm_source: 'qr' });
      expectRedirect(await get(`/${created.alias}`), 'https://example.com/p?utm_source=qr');
      const cleared = await t
        .http()
        .patch(`/api/v1/links/${created.id}`)
        .set('Authorization', account.auth)
        .send({ utm_source: null });
      expect(cleared.status).toBe(200);
      expectRedirect(await get(`/${created.alias}`), 'https://example.com/p');
    });
  });

  describe('app links', () => {
    const apps = { ios_url: 'myapp://item/7', android_url: 'https://app.example.com/item/7' };

    it.each([
      ['an iPhone', UA.iPhoneSafari, 'myapp://item/7'],
      ['an iPad', UA.iPadSafari, 'myapp://item/7'],
      ['an Android phone', UA.androidChrome, 'https://app.example.com/item/7'],
      ['a desktop', UA.windowsChrome, 'https://example.com/web'],
    ])('send %s where its system goes, counted', async (_label, ua, location) => {
      const account = await createAccount(t);
      const created = await link(account, { url: 'https://example.com/web', ...apps });
      expectRedirect(await get(`/${created.alias}`, { ua }), location);
      await expectClicks(account, created.id, 1);
    });

    it('come before any targeting, and the visitor’s query and UTM parameters go along', async () => {
      const account = await createAccount(t);
      const created = await link(account, {
        url: 'https://example.com/web',
        ...apps,
        utm_source: 'qr',
        targets_type: 'devices',
        targets: [{ key: 'Mobile', value: 'https://example.com/mobile' }],
      });
      expectRedirect(
        await get(`/${created.alias}?ref=7`, { ua: UA.androidChrome }),
        'https://app.example.com/item/7?ref=7&utm_source=qr',
      );
      expectRedirect(await get(`/${created.alias}`, { ua: UA.iPhoneSafari }), 'myapp://item/7?utm_source=qr');
    });

    it('send the visitor straight into the app, past the pixels page the others get', async () => {
      const account = await createAccount(t);
      const pixel = await createPixel(account, 'google-analytics', 'G-ABCDEF1234');
      const created = await link(account, { url: 'https://example.com/web', ...apps, pixel_ids: [pixel] });
      expectRedirect(await get(`/${created.alias}`, { ua: UA.iPhoneSafari }), 'myapp://item/7');
      const desktop = await get(`/${created.alias}`, { ua: UA.windowsChrome });
      expect(desktop.status).toBe(200);
      expect(desktop.text).toContain('https://example.com/web');
      await expectClicks(account, created.id, 2);
    });

    it('leave a rotation’s turns to the visitors who take them', async () => {
      const account = await createAccount(t);
      const targets = ['https://example.com/1', 'https://example.com/2'].map((value) => ({ value }));
      const created = await link(account, {
        url: 'https://example.com/web',
        ...apps,
        targets_type: 'rotations',
        targets,
      });
      const desktop = async () => (await get(`/${created.alias}`, { ua: UA.windowsChrome })).headers.location;
      expect(await desktop()).toBe('https://example.com/1');
      expectRedirect(await get(`/${created.alias}`, { ua: UA.iPhoneSafari }), 'myapp://item/7');
      expect(await desktop()).toBe('https://example.com/2');
    });
  });

  describe('social previews', () => {
    const preview = {
      og_title: 'Spring <sale> "now"',
      og_description: 'Half off & more',
      og_image_url: 'https://cdn.example.com/card.png',
    };

    it.each([
      ['Facebook', UA.facebookPreview],
      ['X', UA.twitterPreview],
      ['LinkedIn', UA.linkedInPreview],
      ['Slack', UA.slackbot],
      ['Discord', UA.discordPreview],
      ['WhatsApp', UA.whatsAppPreview],
      ['Telegram', 'TelegramBot (like TwitterBot)'],
    ])("show %s's crawler a page of the preview's tags, escaped, uncounted", async (_network, ua) => {
      const account = await createAccount(t);
      const created = await link(account, { url: 'https://example.com/sale', ...preview });
      const response = await get(`/${created.alias}`, { ua });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['content-security-policy']).toContain("default-src 'none'");
      const html = response.text;
      expect(html).toContain('<meta property="og:title" content="Spring &lt;sale&gt; &quot;now&quot;" />');
      expect(html).toContain('<meta property="og:description" content="Half off &amp; more" />');
      expect(html).toContain('<meta property="og:image" content="https://cdn.example.com/card.png" />');
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
      expect(html).toContain('<title>Spring &lt;sale&gt; &quot;now&quot;');
      expect(html).not.toContain('<sale>');
      await expectClicks(account, created.id, 0);
    });

    it('a card without an image is a summary card', async () => {
      const account = await createAccount(t);
      const created = await link(account, { url: 'https://example.com/sale', og_title: 'Only a title' });
      const html = (await get(`/${created.alias}`, { ua: UA.twitterPreview })).text;
      expect(html).toContain('<meta name="twitter:card" content="summary" />');
      expect(html).not.toContain('og:image');
    });

    it('leave people, other bots and links without a preview to the redirect', async () => {
      const account = await createAccount(t);
      const created = await link(account, { url: 'https://example.com/sale', ...preview });
      expectRedirect(await get(`/${created.alias}`), 'https://example.com/sale');
      expectRedirect(await get(`/${created.alias}`, { ua: UA.googlebot }), 'https://example.com/sale');
      expectRedirect(await get(`/${created.alias}`, { ua: UA.facebookInApp }), 'https://example.com/sale');
      expect(await clickRows(t, created.id)).toHaveLength(2);
      const plain = await link(account, { url: 'https://example.com/plain' });
      expectRedirect(await get(`/${plain.alias}`, { ua: UA.facebookPreview }), 'https://example.com/plain');
    });
  });
});
