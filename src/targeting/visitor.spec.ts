import { TargetsType } from './allowed-values';
import { matchTarget } from './matcher';
import { asksNotToBeTracked, profileVisitor, type TrackingPolicy, type VisitorProfile } from './visitor';

const UA = {
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  iPad: 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  windowsEdge:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  ubuntuFirefox: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  androidFirefox: 'Mozilla/5.0 (Android 14; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  chromeOs:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  samsungTv:
    'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
};

interface Extra {
  acceptLanguage?: string;
  referer?: string;
  country?: string | null;
  city?: string | null;
  doNotTrack?: boolean;
  policy?: Partial<TrackingPolicy>;
}

/** The settings' defaults: keep the referrer and the city, but not of a visitor who opted out. */
const DEFAULT_POLICY: TrackingPolicy = { honorDoNotTrack: true, trackReferrer: true, trackCity: true };

function profile(userAgent: string | undefined, extra: Extra = {}) {
  return profileVisitor(
    {
      userAgent,
      acceptLanguage: extra.acceptLanguage,
      referer: extra.referer,
      place: { country: extra.country ?? null, city: extra.city ?? null },
      doNotTrack: extra.doNotTrack ?? false,
    },
    { ...DEFAULT_POLICY, ...extra.policy },
  );
}

describe('profileVisitor', () => {
  it.each<[keyof typeof UA, string | null, string | null, string]>([
    ['iPhone', 'iOS', 'Safari', 'Mobile'],
    ['iPad', 'iOS', 'Safari', 'Tablet'],
    ['android', 'Android', 'Chrome', 'Mobile'],
    ['windowsEdge', 'Windows', 'Edge', 'Desktop'],
    ['linuxFirefox', 'Linux', 'Firefox', 'Desktop'],
    ['ubuntuFirefox', 'Ubuntu', 'Firefox', 'Desktop'],
    ['androidFirefox', 'Android', 'Firefox Mobile', 'Mobile'],
    ['mac', 'OS X', 'Safari', 'Desktop'],
    ['chromeOs', 'Chrome OS', 'Chrome', 'Desktop'],
    ['samsungTv', null, 'Samsung Internet', 'Television'],
  ])('reads %s as %s / %s / %s, not a bot', (name, os, browser, device) => {
    const visitor = profile(UA[name]);
    expect(visitor).toMatchObject({ os, browser, device, bot: false });
  });

  it.each(['googlebot', 'slack', 'facebook'] as const)('flags %s as a bot', (name) => {
    expect(profile(UA[name]).bot).toBe(true);
  });

  it('treats a request without a user agent as a bot', () => {
    expect(profile(undefined).bot).toBe(true);
  });

  it('takes the language from the first two letters of Accept-Language', () => {
    expect(profile(UA.mac, { acceptLanguage: 'fr-CH, fr;q=0.9, en;q=0.8' }).language).toBe('fr');
    expect(profile(UA.mac, { acceptLanguage: 'EN-us' }).language).toBe('en');
    expect(profile(UA.mac, { acceptLanguage: '*' }).language).toBeNull();
    expect(profile(UA.mac, { acceptLanguage: 'xx-YY' }).language).toBeNull();
  });

  it('keeps only the referrer host, and the continent of the country', () => {
    const visitor = profile(UA.mac, { referer: 'https://news.example.org/a?b=c', country: 'GB' });
    expect(visitor).toMatchObject({ referrer: 'news.example.org', country: 'GB', continent: 'EU' });
    expect(profile(UA.mac, { referer: 'android-app://x' }).referrer).toBeNull();
    expect(profile(UA.mac, { referer: 'not a url' }).referrer).toBeNull();
  });

  it('gives a visitor like the last one of the same agent the same profile, and any other one a new profile', () => {
    const first = profile(UA.android, { referer: 'https://a.example/', country: 'DE', acceptLanguage: 'de' });
    const again = profile(UA.android, { referer: 'https://a.example/', country: 'DE', acceptLanguage: 'de' });
    expect(again).toBe(first);
    const others = [
      profile(UA.android, { referer: 'https://b.example/', country: 'DE', acceptLanguage: 'de' }),
      profile(UA.android, { referer: 'https://b.example/', country: 'FR', acceptLanguage: 'de' }),
      profile(UA.android, { referer: 'https://b.example/', country: 'FR', acceptLanguage: 'fr' }),
      profile(UA.android, {
        referer: 'https://b.example/',
        country: 'FR',
        acceptLanguage: 'fr',
        city: 'Paris',
      }),
    ];
    expect(
      others.map(({ referrer, country, language, city }) => [referrer, country, language, city]),
    ).toEqual([
      ['b.example', 'DE', 'de', null],
      ['b.example', 'FR', 'de', null],
      ['b.example', 'FR', 'fr', null],
      ['b.example', 'FR', 'fr', 'Paris'],
    ]);
    expect(new Set(others).size).toBe(4);
    expect(
      profile(UA.iPhone, { referer: 'https://a.example/', country: 'DE', acceptLanguage: 'de' }),
    ).not.toBe(first);
  });

  it('profiles a visitor with very long headers each time, with the same answer', () => {
    const referer = `https://long.example/${'a'.repeat(2000)}`;
    const first = profile(UA.mac, { referer });
    const again = profile(UA.mac, { referer });
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(again.referrer).toBe('long.example');
  });
});

describe('asksNotToBeTracked', () => {
  it.each([
    [{ 'sec-gpc': '1' }, true],
    [{ dnt: '1' }, true],
    [{ 'sec-gpc': '1', dnt: '0' }, true],
    [{ 'sec-gpc': '0', dnt: '1' }, true],
    [{ 'sec-gpc': '0' }, false],
    [{ dnt: '0' }, false],
    [{ dnt: 'null' }, false],
    [{}, false],
  ])('reads %j as %s', (headers, expected) => {
    expect(asksNotToBeTracked(headers)).toBe(expected);
  });
});

describe('profileVisitor and what a click keeps', () => {
  const SENT: Extra = {
    referer: 'https://news.example.org/a',
    country: 'GB',
    city: 'London',
    acceptLanguage: 'en-GB',
  };
  const TRACKED = { referrer: 'news.example.org', city: 'London' };
  const KEPT_OUT = { referrer: null, city: null };
  /** What targeting reads: the same whatever is kept. */
  const TARGETED = { country: 'GB', continent: 'EU', language: 'en', os: 'Android', browser: 'Chrome' };

  it('leaves out the referrer and city of a visitor who opted out, and still profiles the rest', () => {
    expect(profile(UA.android, SENT)).toMatchObject({ ...TARGETED, ...TRACKED, bot: false });
    expect(profile(UA.android, { ...SENT, doNotTrack: true })).toMatchObject({
      ...TARGETED,
      ...KEPT_OUT,
      bot: false,
    });
  });

  it('keeps them when HONOR_DO_NOT_TRACK is off', () => {
    const visitor = profile(UA.android, { ...SENT, doNotTrack: true, policy: { honorDoNotTrack: false } });
    expect(visitor).toMatchObject({ ...TARGETED, ...TRACKED });
  });

  it('leaves out the referrer of everyone with TRACK_REFERRER off, and the city with TRACK_CITY off', () => {
    expect(profile(UA.android, { ...SENT, policy: { trackReferrer: false } })).toMatchObject({
      ...TARGETED,
      referrer: null,
      city: 'London',
    });
    expect(profile(UA.android, { ...SENT, policy: { trackCity: false } })).toMatchObject({
      ...TARGETED,
      referrer: 'news.example.org',
      city: null,
    });
    expect(
      profile(UA.android, { ...SENT, doNotTrack: true, policy: { trackReferrer: false, trackCity: false } }),
    ).toMatchObject({ ...TARGETED, ...KEPT_OUT });
  });

  it('never hands a remembered profile to a visitor who chose otherwise, nor under other settings', () => {
    const tracked = profile(UA.iPad, SENT);
    const optedOut = profile(UA.iPad, { ...SENT, doNotTrack: true });
    expect(optedOut).not.toBe(tracked);
    expect(optedOut).toMatchObject(KEPT_OUT);
    const trackedAgain = profile(UA.iPad, SENT);
    expect(trackedAgain).toMatchObject(TRACKED);
    expect(trackedAgain).not.toBe(optedOut);
    // Even where nothing would differ, the choice decides the profile.
    const bare: Extra = { country: 'GB', acceptLanguage: 'en-GB' };
    const bareTracked = profile(UA.iPad, bare);
    expect(profile(UA.iPad, { ...bare, doNotTrack: true })).not.toBe(bareTracked);
    // Under settings that keep less, the same visitor gets a profile that keeps less.
    const noReferrer = profile(UA.iPad, { ...SENT, policy: { trackReferrer: false } });
    expect(noReferrer).toMatchObject({ referrer: null, city: 'London' });
    const noCity = profile(UA.iPad, { ...SENT, policy: { trackCity: false } });
    expect(noCity).toMatchObject({ referrer: 'news.example.org', city: null });
    expect(profile(UA.iPad, SENT)).toMatchObject(TRACKED);
  });

  it('gives a returning visitor who opted out the same profile', () => {
    const first = profile(UA.windowsEdge, { ...SENT, doNotTrack: true });
    expect(profile(UA.windowsEdge, { ...SENT, doNotTrack: true })).toBe(first);
    // What is left out does not tell them apart: another referrer or city is the same visitor as kept.
    expect(
      profile(UA.windowsEdge, {
        ...SENT,
        referer: 'https://other.example/',
        city: 'Leeds',
        doNotTrack: true,
      }),
    ).toBe(first);
  });
});

describe('matchTarget', () => {
  const visitor: VisitorProfile = {
    country: 'US',
    city: null,
    continent: 'NA',
    os: 'Ubuntu',
    browser: 'Firefox',
    device: 'Desktop',
    language: 'en',
    referrer: null,
    bot: false,
  };

  it('picks the first target whose key matches', () => {
    const targets = [
      { key: 'GB', value: 'https://gb' },
      { key: 'US', value: 'https://us-1' },
      { key: 'US', value: 'https://us-2' },
    ];
    expect(matchTarget(TargetsType.Countries, targets, visitor)).toBe('https://us-1');
  });

  it('matches each type on its own field', () => {
    expect(matchTarget(TargetsType.Continents, [{ key: 'NA', value: 'c' }], visitor)).toBe('c');
    expect(matchTarget(TargetsType.Browsers, [{ key: 'Firefox', value: 'b' }], visitor)).toBe('b');
    expect(matchTarget(TargetsType.Devices, [{ key: 'Desktop', value: 'd' }], visitor)).toBe('d');
    expect(matchTarget(TargetsType.Languages, [{ key: 'en', value: 'l' }], visitor)).toBe('l');
  });

  it('lets a Linux target take Ubuntu visitors, after an Ubuntu target', () => {
    expect(matchTarget(TargetsType.OperatingSystems, [{ key: 'Linux', value: 'linux' }], visitor)).toBe(
      'linux',
    );
    expect(
      matchTarget(
        TargetsType.OperatingSystems,
        [
          { key: 'Ubuntu', value: 'ubuntu' },
          { key: 'Linux', value: 'linux' },
        ],
        visitor,
      ),
    ).toBe('ubuntu');
  });

  it('falls back to null when nothing matches, the visitor is unknown, or the type is rotations', () => {
    expect(matchTarget(TargetsType.Countries, [{ key: 'FR', value: 'x' }], visitor)).toBeNull();
    expect(
      matchTarget(TargetsType.Countries, [{ key: 'FR', value: 'x' }], { ...visitor, country: null }),
    ).toBeNull();
    expect(matchTarget(TargetsType.Rotations, [{ key: '', value: 'x' }], visitor)).toBeNull();
    expect(matchTarget(null, null, visitor)).toBeNull();
  });
});
