import { clientKey } from './client-address';

describe('clientKey', () => {
  it.each([
    ['an IPv4 address', '198.51.100.7', '198.51.100.7'],
    ['an IPv4-mapped IPv6 address', '::ffff:198.51.100.7', '198.51.100.7'],
    ['an IPv6 address', '2001:db8:7:7::1', '2001:db8:7:7::/64'],
    ['another address of the same /64', '2001:db8:7:7:ffff:ffff:ffff:ffff', '2001:db8:7:7::/64'],
    ['an address of the next /64', '2001:db8:7:8::1', '2001:db8:7:8::/64'],
    ['nothing', undefined, 'unknown'],
    ['something that is no address', 'proxy', 'unknown'],
  ])('keys %s', (_label, address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});
