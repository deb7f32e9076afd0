import { GeoIp } from './geoip';

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
});
