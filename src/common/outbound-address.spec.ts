import { createServer, get, type Server } from 'node:http';
import type { LookupAddress } from 'node:dns';
import {
  AddressRefusedError,
  checkedAddress,
  isPublicAddress,
  lookupPinnedTo,
  withDeadline,
  type AddressPolicy,
} from './outbound-address';
import { closeServer, listenOnLoopback } from '../../test/support/http-server';

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', 'IPv4 loopback'],
    ['127.255.255.254', 'the rest of 127/8'],
    ['10.1.2.3', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'the top of 172.16/12'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'IPv6 unique-local'],
    ['fd12:3456::1', 'IPv6 unique-local fd00/8'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['8.8.8.8', 'a public IPv4 address'],
    ['1.1.1.1', 'another public IPv4 address'],
    ['172.32.0.1', 'just outside 172.16/12'],
    ['2606:4700::1111', 'a public IPv6 address'],
    ['::ffff:8.8.8.8', 'an IPv4-mapped public address'],
  ])('allows %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(['127.1', '0x7f.0.0.1', '0177.0.0.1', '2130706433', '::ffff:7f00:1'])(
    'refuses the loopback address written as %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );

  describe('IPv6 forms that carry an IPv4 address', () => {
    it.each([
      ['::7f00:1', 'IPv4-compatible 127.0.0.1'],
      ['::127.0.0.1', 'IPv4-compatible 127.0.0.1, dotted'],
      ['0:0:0:0:0:0:7f00:1', 'IPv4-compatible 127.0.0.1, uncompressed'],
      ['::a9fe:a9fe', 'IPv4-compatible 169.254.169.254 (cloud metadata)'],
      ['::a00:1', 'IPv4-compatible 10.0.0.1'],
      ['::808:808', 'IPv4-compatible 8.8.8.8: a form no network routes'],
      ['::8.8.8.8', 'IPv4-compatible 8.8.8.8, dotted, which a lenient parser reads as IPv4-mapped'],
      ['::ffff:a9fe:a9fe', 'IPv4-mapped 169.254.169.254'],
      ['::ffff:0:0', 'IPv4-mapped 0.0.0.0'],
      ['::ffff:0:7f00:1', 'IPv4-translated 127.0.0.1'],
      ['::ffff:0:808:808', 'IPv4-translated 8.8.8.8: a form no network routes'],
      ['64:ff9b::7f00:1', 'NAT64 127.0.0.1'],
      ['64:ff9b::127.0.0.1', 'NAT64 127.0.0.1, dotted'],
      ['64:ff9b::a9fe:a9fe', 'NAT64 169.254.169.254'],
      ['64:ff9b::c0a8:101', 'NAT64 192.168.1.1'],
      ['64:ff9b:1::808:808', 'local-use NAT64, a private network’s translator'],
      ['64:ff9b:1:7f00:1::', 'local-use NAT64 with 127.0.0.1 after its /48'],
      ['2002:7f00:1::', '6to4 of 127.0.0.1'],
      ['2002:7f00:0001::1', '6to4 of 127.0.0.1, an interface in it'],
      ['2002:a9fe:a9fe::', '6to4 of 169.254.169.254'],
      ['2002:a00:1::1', '6to4 of 10.0.0.1'],
      ['2001:0:808:808::80ff:fffe', 'Teredo with client 127.0.0.1'],
      ['2001:0:808:808:8000:0:5601:5601', 'Teredo with client 169.254.169.254'],
      ['2001:0:a00:1::f7f7:f7f7', 'Teredo through server 10.0.0.1'],
    ])('refuses %s (%s)', (address) => {
      expect(isPublicAddress(address)).toBe(false);
    });

    it.each([
      ['::ffff:808:808', 'IPv4-mapped 8.8.8.8, in hexadecimal'],
      ['64:ff9b::808:808', 'NAT64 8.8.8.8, as DNS64 answers on an IPv6-only network'],
      ['64:ff9b::1.1.1.1', 'NAT64 1.1.1.1, dotted'],
      ['2002:808:808::1', '6to4 of 8.8.8.8'],
      ['2001:0:808:808::f7f7:f7f7', 'Teredo through server 8.8.8.8 with client 8.8.8.8'],
    ])('allows %s (%s)', (address) => {
      expect(isPublicAddress(address)).toBe(true);
    });
  });

  it.each([
    ['fec0::1', 'deprecated site-local'],
    ['100::1', 'the discard prefix'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation, RFC 9637'],
    ['2001:2::1', 'benchmarking'],
    ['5f00::1', 'segment routing'],
    ['::1:0:0:1', 'elsewhere in the reserved ::/8'],
    ['4000::1', 'outside the global unicast 2000::/3'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['2606:4700::1111%eth0', 'a public IPv6 address with a zone, which only names a link'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['', 'localhost', 'example.com', '999.1.1.1', 'not an address'])(
    'refuses %j, which is not an address',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );
});

describe('checkedAddress', () => {
  const NO_DEADLINE = { ms: 5000, error: () => new Error('timed out') };

  /** A policy whose resolver answers from `names`, and that records what it resolved and judged. */
  function policy(names: Record<string, string[]>, allowAddress = isPublicAddress) {
    const resolved: string[] = [];
    const judged: string[] = [];
    const checked: AddressPolicy = {
      resolve: (host) => {
        resolved.push(host);
        const addresses = names[host];
        return addresses === undefined ? Promise.reject(new Error(`no ${host}`)) : Promise.resolve(addresses);
      },
      allowAddress: (address) => {
        judged.push(address);
        return allowAddress(address);
      },
    };
    return { checked, resolved, judged };
  }

  it('gives the first address of a name whose every address is allowed', async () => {
    const { checked, judged } = policy({ 'two.test': ['8.8.8.8', '2606:4700::1111'] });

    await expect(checkedAddress('two.test', checked, NO_DEADLINE)).resolves.toEqual({
      address: '8.8.8.8',
      family: 4,
    });
    expect(judged).toEqual(['8.8.8.8', '2606:4700::1111']);
  });

  it.each([
    ['a private address after a public one', ['8.8.8.8', '10.0.0.1']],
    ['a loopback address before a public one', ['127.0.0.1', '8.8.8.8']],
    ['no address at all', []],
  ])('refuses a name with %s', async (_label, addresses) => {
    const { checked } = policy({ 'mixed.test': addresses });

    await expect(checkedAddress('mixed.test', checked, NO_DEADLINE)).rejects.toThrow(
      new AddressRefusedError('mixed.test'),
    );
  });

  it('judges an address literal as written, without resolving it', async () => {
    const { checked, resolved, judged } = policy({});

    await expect(checkedAddress('[2606:4700::1111]', checked, NO_DEADLINE)).resolves.toEqual({
      address: '2606:4700::1111',
      family: 6,
    });
    await expect(checkedAddress('127.0.0.1', checked, NO_DEADLINE)).rejects.toThrow(
      'refused to connect to 127.0.0.1',
    );
    expect(resolved).toEqual([]);
    expect(judged).toEqual(['2606:4700::1111', '127.0.0.1']);
  });

  it('passes on what the resolver throws', async () => {
    const { checked } = policy({});

    await expect(checkedAddress('nowhere.test', checked, NO_DEADLINE)).rejects.toThrow('no nowhere.test');
  });

  it('gives up on a resolver that never answers with the deadline’s error', async () => {
    const stalled: AddressPolicy = {
      resolve: () => new Promise<string[]>(() => undefined),
      allowAddress: () => true,
    };
    const started = Date.now();

    await expect(
      checkedAddress('stalled.test', stalled, { ms: 100, error: () => new Error('resolution timed out') }),
    ).rejects.toThrow('resolution timed out');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('withDeadline', () => {
  it('gives what the promise gives when it settles in time', async () => {
    await expect(withDeadline(Promise.resolve('done'), 1000, () => new Error('late'))).resolves.toBe('done');
    await expect(
      withDeadline(Promise.reject(new Error('failed')), 1000, () => new Error('late')),
    ).rejects.toThrow('failed');
  });

  it('rejects with the error given once the time has passed', async () => {
    await expect(withDeadline(new Promise(() => undefined), 20, () => new Error('late'))).rejects.toThrow(
      'late',
    );
  });
});

describe('lookupPinnedTo', () => {
  let server: Server;
  let port: number;
  const hosts: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      hosts.push(request.headers.host ?? '');
      response.end('pinned');
    });
    port = await listenOnLoopback(server);
  });

  afterAll(() => closeServer(server));

  it('answers a single lookup and an all-addresses lookup with the checked address only', () => {
    const lookup = lookupPinnedTo({ address: '2606:4700::1111', family: 6 });
    const single = jest.fn();
    const all = jest.fn();

    lookup('elsewhere.test', { family: 0 }, single);
    lookup('elsewhere.test', { all: true }, all);

    expect(single).toHaveBeenCalledWith(null, '2606:4700::1111', 6);
    expect(all).toHaveBeenCalledWith(null, [
      { address: '2606:4700::1111', family: 6 },
    ] satisfies LookupAddress[]);
  });

  it('connects a request for a name no resolver knows to the checked address, keeping the name as Host', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      get(
        `http://unresolvable.invalid:${port}/`,
        { lookup: lookupPinnedTo({ address: '127.0.0.1', family: 4 }) },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve(text));
        },
      ).on('error', reject);
    });

    expect(body).toBe('pinned');
    expect(hosts).toEqual([`unresolvable.invalid:${port}`]);
  });
});
