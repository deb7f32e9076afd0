import { createAccount, type TestApp } from '../support/app';
import { clickRows, expectPage, showLink, UA } from '../support/visitors';
import { DESTINATION, expectRedirect, withVisitor, createListeningApp, visitClient } from './support';

/** Bots and link previews, never counted; the visitor's query, merged into the destination and bounded. */
describe('Visiting short links', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createListeningApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  const { get, post, link, expectClicks } = visitClient(() => t);

  describe('bots and link previews', () => {
    it.each([
      ['Googlebot', UA.googlebot],
      ['Slackbot', UA.slackbot],
      ['facebookexternalhit', UA.facebookPreview],
      ['Twitterbot', UA.twitterPreview],
      ['WhatsApp', UA.whatsAppPreview],
      ['Discordbot', UA.discordPreview],
      ['LinkedInBot', UA.linkedInPreview],
      ['curl', UA.curl],
      ['no user agent', null],
    ])('redirects %s to the destination without counting it', async (_name, ua) => {
      const account = await createAccount(t);
      const created = await link(account, { url: 'https://example.com/landing?a=1' });
      expectRedirect(await get(`/${created.alias}?b=2`, { ua }), 'https://example.com/landing?a=1&b=2');
      await expectClicks(account, created.id, 0);
    });

    it('answers a HEAD request with the redirect, without counting it', async () => {
      const account = await createAccount(t);
      const created = await link(account, {});
      const response = await withVisitor(t.http().head(`/${created.alias}`), {});
      expect({ status: response.status, location: response.headers.location }).toEqual({
        status: 302,
        location: DESTINATION,
      });
      await expectClicks(account, created.id, 0);
    });

    it("counts a person in an app's own browser", async () => {
      const account = await createAccount(t);
      const created = await link(account, {});
      expectRedirect(await get(`/${created.alias}`, { ua: UA.facebookInApp }), DESTINATION);
      await expectClicks(account, created.id, 1);
      expect(await clickRows(t, created.id)).toMatchObject([{ operating_system: 'iOS', device: 'Mobile' }]);
    });

    it('does not move a rotation on', async () => {
      const account = await createAccount(t);
      const created = await link(account, {
        targets_type: 'rotations',
        targets: [{ value: 'https://a.example/' }, { value: 'https://b.example/' }],
      });
      expectRedirect(await get(`/${created.alias}`, { ua: UA.googlebot }), DESTINATION);
      expect((await showLink(t, account, created.id)).last_rotation).toBeNull();
      expectRedirect(await get(`/${created.alias}`), 'https://a.example/');
    });
  });

  describe("the visitor's query", () => {
    it.each([
      [
        'nothing added without a query',
        'https://example.com/landing?a=1',
        '',
        'https://example.com/landing?a=1',
      ],
      [
        'the visitor wins, destination order kept',
        'https://example.com/landing?a=1',
        '?b=2&a=3',
        'https://example.com/landing?a=3&b=2',
      ],
      ['added to a URL without one', 'https://example.com', '?b=2', 'https://example.com/?b=2'],
      [
        'repeated parameters replace together',
        'https://example.com/?tag=a&z=1&tag=b',
        '?tag=x&tag=y',
        'https://example.com/?tag=x&tag=y&z=1',
      ],
      ['before the fragment', 'https://example.com/p#top', '?a=1', 'https://example.com/p?a=1#top'],
      [
        "the destination's own encoding kept",
        'https://example.com/p?next=https://other.example/x&q=a%20b',
        '?utm_source=news',
        'https://example.com/p?next=https://other.example/x&q=a%20b&utm_source=news',
      ],
      [
        "the visitor's own encoding kept",
        'https://example.com/p',
        '?q=a%20b&r=%C3%A9&s=c+d',
        'https://example.com/p?q=a%20b&r=%C3%A9&s=c+d',
      ],
      [
        'names compared decoded',
        'https://example.com/p?a%5B%5D=1&b=2',
        '?a[]=3',
        'https://example.com/p?a[]=3&b=2',
      ],
      [
        'a bare name counts as a parameter',
        'https://example.com/p?flag&b=2',
        '?flag=on',
        'https://example.com/p?flag=on&b=2',
      ],
    ])('is merged into the destination: %s', async (_case, url, query, location) => {
      const account = await createAccount(t);
      const created = await link(account, { url });
      expectRedirect(await get(`/${created.alias}${query}`), location);
    });
  });

  describe('the cost of a visit', () => {
    const parameters = (count: number) =>
      Array.from({ length: count }, (_unused, index) => `p${index}=1`).join('&');

    it('merges a query of 100 parameters', async () => {
      const account = await createAccount(t);
      const created = await link(account, {});
      const response = await get(`/${created.alias}?${parameters(100)}`);
      expectRedirect(response, `${DESTINATION}?${parameters(100)}`);
      await expectClicks(account, created.id, 1);
    });

    it.each([
      ['5,200 short parameters', 'a&'.repeat(5200)],
      ['101 parameters', parameters(101)],
      ['4 KB in one parameter', `q=${'x'.repeat(4095)}`],
    ])('answers a query of %s with the 414 page, uncounted', async (_label, query) => {
      const account = await createAccount(t);
      const created = await link(account, {});
      const html = expectPage(await get(`/${created.alias}?${query}`), {
        status: 414,
        title: 'Address too long',
      });
      expect(html).toContain('more query parameters than a short link passes on');
      await expectClicks(account, created.id, 0);
    });

    it('drops a query carried by a form that is longer than a visit carries', async () => {
      const account = await createAccount(t);
      const created = await link(account, { sensitive_content: '1' });
      const response = await post(`/${created.alias}/sensitive-consent`, { q: parameters(101) });
      expectRedirect(response, DESTINATION);
    });

    it('is off with VISITOR_RATE_LIMIT_PER_MINUTE=0', async () => {
      const account = await createAccount(t);
      const created = await link(account, {});
      const responses = await Promise.all(Array.from({ length: 40 }, () => get(`/${created.alias}/+`)));
      expect(new Set(responses.map((response) => response.status))).toEqual(new Set([200]));
    });
  });
});
