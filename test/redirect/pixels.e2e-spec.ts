import { createAccount, type TestApp } from '../support/app';
import { expectPage, UA } from '../support/visitors';
import { DESTINATION, expectRedirect, createListeningApp, visitClient } from './support';

/** A link with pixels: the page that loads them and forwards, and bots sent straight on. */
describe('Visiting short links', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createListeningApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, link, expectClicks, createPixel } = visitClient(() => t);

  describe('a link with pixels', () => {
    it('sends the visitor through a page that loads the pixel and refreshes to the destination', async () => {
      const account = await createAccount(t);
      const pixel = await createPixel(account, 'facebook', '123456789012345');
      const created = await link(account, { url: 'https://example.com/landing?a=1', pixel_ids: [pixel] });
      const response = await get(`/${created.alias}?b=2&a=3`);
      const html = expectPage(response, { status: 200, title: 'Redirecting', heading: 'Redirecting…' });
      const destination = 'https://example.com/landing?a=3&amp;b=2';
      // The service's script forwards once the pixels have loaded; without scripts, an immediate refresh does.
      expect(html).toContain(
        `<noscript><meta http-equiv="refresh" content="0; url=${destination}" /></noscript>`,
      );
      expect(html).toContain(`<script src="/assets/pixels.js" data-forward="${destination}"></script>`);
      expect(html).toContain(`<a class="url" href="${destination}">${destination}</a>`);
      expect(html).toContain(
        '<noscript><img src="https://www.facebook.com/tr?id=123456789012345&amp;ev=PageView&amp;noscript=1" width="1" height="1" alt="" /></noscript>',
      );
      expect(html).toContain(
        '<script src="/assets/pixels.js" data-pixels="[{&quot;type&quot;:&quot;facebook&quot;,&quot;value&quot;:&quot;123456789012345&quot;}]"></script>',
      );
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("img-src 'self' https:;");
      expect(policy).toContain("script-src 'self' https://connect.facebook.net;");
      expect(policy).toContain('connect-src https:;');
      // The service's own two: the pixel starter and the forwarder.
      expect(html.match(/<script/g)).toHaveLength(2);
      await expectClicks(account, created.id, 1);
    });

    it('loads every pixel as phpShort writes it through the service script, nothing inline', async () => {
      const account = await createAccount(t);
      const analytics = await createPixel(account, 'google-analytics', 'G-ABC123DEF4');
      const tagManager = await createPixel(account, 'google-tag-manager', 'GTM-ABC1234');
      const ads = await createPixel(account, 'google-ads', '123456789');
      const adroll = await createPixel(account, 'adroll', 'ADV123-PIX456');
      const created = await link(account, { pixel_ids: [analytics, tagManager, ads, adroll] });
      const response = await get(`/${created.alias}`);
      const html = expectPage(response, { status: 200, title: 'Redirecting', heading: 'Redirecting…' });
      const listed = /<script src="\/assets\/pixels\.js" data-pixels="([^"]*)"><\/script>/.exec(html);
      expect(JSON.parse(listed![1].replace(/&quot;/g, '"'))).toEqual([
        { type: 'google-analytics', value: 'G-ABC123DEF4' },
        { type: 'google-tag-manager', value: 'GTM-ABC1234' },
        { type: 'google-ads', value: '123456789' },
        { type: 'adroll', value: 'ADV123-PIX456' },
      ]);
      expect(html).toContain(
        '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-ABC1234" width="0" height="0" title="Google Tag Manager" hidden></iframe></noscript>',
      );
      // The service's own two: the pixel starter and the forwarder.
      expect(html.match(/<script/g)).toHaveLength(2);
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("script-src 'self' https://www.googletagmanager.com https://s.adroll.com;");
      expect(html).toContain(
        '<script src="/assets/pixels.js" data-forward="https://example.com/landing"></script>',
      );
      expect(policy).toContain('frame-src https://www.googletagmanager.com;');
      const script = await t.http().get('/assets/pixels.js');
      expect(script.status).toBe(200);
      expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
      // The sandboxed page that loads it has an opaque origin.
      expect(script.headers['cross-origin-resource-policy']).toBe('cross-origin');
      await expectClicks(account, created.id, 1);
    });

    it('redirects bots straight to the destination, uncounted', async () => {
      const account = await createAccount(t);
      const pixel = await createPixel(account, 'facebook', '123456789012345');
      const created = await link(account, { pixel_ids: [pixel] });
      expectRedirect(await get(`/${created.alias}`, { ua: UA.facebookPreview }), DESTINATION);
      await expectClicks(account, created.id, 0);
    });
  });
});
