import {
  cookieValues,
  issueStatsAccess,
  STATS_ACCESS_LIFETIME_MS,
  statsAccessCookie,
  verifyStatsAccess,
} from './stats-access';

const HASH = 'scrypt$16384$8$5$c2FsdA$aGFzaA';
const NOW = 1_800_000_000_000;

describe('stats access', () => {
  it('opens the link it was issued for, with the password hash it was issued with, for a day', () => {
    const value = issueStatsAccess(7, HASH, NOW);
    expect(value).toMatch(/^7\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyStatsAccess(value, 7, HASH, NOW)).toBe(true);
    expect(verifyStatsAccess(value, 7, HASH, NOW + STATS_ACCESS_LIFETIME_MS)).toBe(true);
    expect(verifyStatsAccess(value, 7, HASH, NOW + STATS_ACCESS_LIFETIME_MS + 1)).toBe(false);
    expect(verifyStatsAccess(value, 8, HASH, NOW)).toBe(false);
    expect(verifyStatsAccess(value, 7, `${HASH}x`, NOW)).toBe(false);
  });

  it.each([
    '',
    '7',
    '7.1',
    '7.abc.sig',
    '7.9999999999999999.sig',
    '07.1800086400000.x',
    '7.1800086400000.sig.extra',
  ])('refuses the malformed value %j', (value) => {
    expect(verifyStatsAccess(value, 7, HASH, NOW)).toBe(false);
  });

  it('refuses a value whose expiry or signature was changed', () => {
    const [id, expires, signature] = issueStatsAccess(7, HASH, NOW).split('.');
    expect(verifyStatsAccess(`${id}.${Number(expires) + 1}.${signature}`, 7, HASH, NOW)).toBe(false);
    expect(verifyStatsAccess(`${id}.${expires}.${signature.slice(1)}`, 7, HASH, NOW)).toBe(false);
  });

  it('reads every cookie of its name from a Cookie header, and nothing else', () => {
    expect(cookieValues(undefined, 'stats_access')).toEqual([]);
    expect(
      cookieValues('a=1; stats_access=x.y.z; stats_access_2=no; stats_access=second', 'stats_access'),
    ).toEqual(['x.y.z', 'second']);
    expect(cookieValues('stats_access', 'stats_access')).toEqual([]);
  });

  it('is set HttpOnly, SameSite=Lax, for the stats page only, and Secure over HTTPS', () => {
    expect(statsAccessCookie('v', '/promo/stats', false)).toBe(
      'stats_access=v; Path=/promo/stats; Max-Age=86400; HttpOnly; SameSite=Lax',
    );
    expect(statsAccessCookie('v', '/promo/stats', true)).toBe(
      'stats_access=v; Path=/promo/stats; Max-Age=86400; HttpOnly; SameSite=Lax; Secure',
    );
  });
});
