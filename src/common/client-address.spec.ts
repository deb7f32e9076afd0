import { clientKey, recordedAddress } from './client-address';

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

describe('recordedAddress', () => {
  it.each([
    ['an IPv4 address', '198.51.100.7', '198.51.100.7'],
    ['an IPv6 address', '2001:db8::1', '2001:db8::1'],
    ['nothing', undefined, null],
    ['text a proxy forwarded as the address', '\u00e2\u00ac'.repeat(250), null],
  ])('keeps %s as %p', (_label, address, kept) => {
    expect(recordedAddress(address)).toBe(kept);
  });
});
