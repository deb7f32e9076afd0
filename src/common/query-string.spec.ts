import { locationUrl } from '../common/url-rules';
import {
  parseApiQuery,
  MAX_VISITOR_QUERY_LENGTH,
  MAX_VISITOR_QUERY_PARAMETERS,
  mergeQuery,
  visitorQueryFits,
} from './query-string';

describe('mergeQuery', () => {
  it.each`
    case                                      | destination                                                       | query                       | expected
    ${'no visitor query'}                     | ${'https://example.com/landing?a=1'}                              | ${''}                       | ${'https://example.com/landing?a=1'}
    ${'a bare question mark'}                 | ${'https://example.com/landing?a=1'}                              | ${'?'}                      | ${'https://example.com/landing?a=1'}
    ${'only separators'}                      | ${'https://example.com/landing?a=1'}                              | ${'&&'}                     | ${'https://example.com/landing?a=1'}
    ${'a leading question mark'}              | ${'https://example.com/landing'}                                  | ${'?b=2'}                   | ${'https://example.com/landing?b=2'}
    ${'no leading question mark'}             | ${'https://example.com/landing'}                                  | ${'b=2'}                    | ${'https://example.com/landing?b=2'}
    ${'visitor wins in place'}                | ${'https://example.com/landing?a=1'}                              | ${'b=2&a=3'}                | ${'https://example.com/landing?a=3&b=2'}
    ${'destination order kept'}               | ${'https://example.com/?x=1&a=1&y=2'}                             | ${'a=9'}                    | ${'https://example.com/?x=1&a=9&y=2'}
    ${'repeated names replaced together'}     | ${'https://example.com/?t=a&z=1&t=b'}                             | ${'t=x&t=y'}                | ${'https://example.com/?t=x&t=y&z=1'}
    ${'repeated visitor names kept in order'} | ${'https://example.com/'}                                         | ${'t=x&b=1&t=y'}            | ${'https://example.com/?t=x&t=y&b=1'}
    ${'empty values'}                         | ${'https://example.com/?a=1'}                                     | ${'a=&b'}                   | ${'https://example.com/?a=&b'}
    ${'a bare name is a parameter'}           | ${'https://example.com/?flag&b=2'}                                | ${'flag=on'}                | ${'https://example.com/?flag=on&b=2'}
    ${'names compared decoded'}               | ${'https://example.com/?a%5B%5D=1'}                               | ${'a[]=2'}                  | ${'https://example.com/?a[]=2'}
    ${'plus is a space in names'}             | ${'https://example.com/?a+b=1'}                                   | ${'a%20b=2'}                | ${'https://example.com/?a%20b=2'}
    ${'a bad escape is compared as written'}  | ${'https://example.com/?%zz=1'}                                   | ${'%zz=2'}                  | ${'https://example.com/?%zz=2'}
    ${'the fragment stays last'}              | ${'https://example.com/p#top'}                                    | ${'a=1'}                    | ${'https://example.com/p?a=1#top'}
    ${'a bare host gets its path'}            | ${'https://example.com'}                                          | ${'a=1'}                    | ${'https://example.com/?a=1'}
    ${"the destination's text kept"}          | ${'https://example.com/p?next=https://o.example/x&q=a%20b&s=c+d'} | ${'utm=1'}                  | ${'https://example.com/p?next=https://o.example/x&q=a%20b&s=c+d&utm=1'}
    ${"the visitor's text kept"}              | ${'https://example.com/'}                                         | ${'q=a%20b&r=c+d&e=%C3%A9'} | ${'https://example.com/?q=a%20b&r=c+d&e=%C3%A9'}
    ${'unsafe characters encoded'}            | ${'https://example.com/'}                                         | ${'x="><script>'}           | ${'https://example.com/?x=%22%3E%3Cscript%3E'}
    ${'non-ASCII encoded'}                    | ${'https://example.com/'}                                         | ${'q=café'}                 | ${'https://example.com/?q=caf%C3%A9'}
    ${'a fragment marker encoded'}            | ${'https://example.com/'}                                         | ${'a=1%232'}                | ${'https://example.com/?a=1%232'}
  `('$case', ({ destination, query, expected }: Record<string, string>) => {
    expect(mergeQuery(destination, query)).toBe(expected);
  });

  it('never lets line breaks or control characters through', () => {
    const merged = mergeQuery('https://example.com/', 'a=1\r\nSet-Cookie: x=1&b=\u0001');
    expect(merged).toBe('https://example.com/?a=1Set-Cookie:%20x=1&b=%01');
  });

  it('merges thousands of parameters, repeated names grouped in the place of their first', () => {
    const visitor = Array.from({ length: 5200 }, (_unused, index) => `p${index % 50}=${index}`);
    const merged = new URL(mergeQuery('https://example.com/?a=1&p7=x&b=2', [...visitor, 'a=9'].join('&')));
    const names = [...merged.searchParams.keys()];
    expect(names.slice(0, 105)).toEqual(['a', ...Array<string>(104).fill('p7')]);
    expect(merged.searchParams.getAll('p7')).toHaveLength(104);
    expect(merged.searchParams.getAll('a')).toEqual(['9']);
    expect(names.indexOf('b')).toBe(105);
    expect(new Set(names).size).toBe(52);
  });

  it('leaves a destination that is not a URL alone', () => {
    expect(mergeQuery('not a url', 'a=1')).toBe('not a url');
  });
});

describe('locationUrl', () => {
  it.each([
    ['https://example.com', 'https://example.com'],
    ['https://example.com/p?q="x"&r=<y>', 'https://example.com/p?q=%22x%22&r=%3Cy%3E'],
    ['https:a.example', 'https://a.example/'],
    ['https:\\\\a.example/p', 'https://a.example/p'],
    ['HTTPS://A.EXAMPLE:443/x/../y', 'https://a.example/y'],
    [
      'https://example.com/caf\u00e9?q=na\u00efve#\u00e9',
      'https://example.com/caf%C3%A9?q=na%C3%AFve#%C3%A9',
    ],
    ['https://example.com/\u65e5\u672c', 'https://example.com/%E6%97%A5%E6%9C%AC'],
    ['https://b\u00fccher.example/', 'https://xn--bcher-kva.example/'],
    ['https://example.com/a b', 'https://example.com/a%20b'],
  ])('%s → %s', (url, expected) => {
    expect(locationUrl(url)).toBe(expected);
  });

  it('percent-encodes what is not a URL rather than sending it raw', () => {
    expect(locationUrl('not a url \u00e9')).toBe('not%20a%20url%20%C3%A9');
  });
});

describe('visitorQueryFits', () => {
  const parameters = (count: number) =>
    Array.from({ length: count }, (_unused, index) => `p${index}=1`).join('&');

  it.each([
    ['no query', '', true],
    [`${MAX_VISITOR_QUERY_PARAMETERS} parameters`, parameters(MAX_VISITOR_QUERY_PARAMETERS), true],
    [`${MAX_VISITOR_QUERY_PARAMETERS + 1} parameters`, parameters(MAX_VISITOR_QUERY_PARAMETERS + 1), false],
    [`${MAX_VISITOR_QUERY_LENGTH} characters`, `q=${'x'.repeat(MAX_VISITOR_QUERY_LENGTH - 2)}`, true],
    [`${MAX_VISITOR_QUERY_LENGTH + 1} characters`, `q=${'x'.repeat(MAX_VISITOR_QUERY_LENGTH - 1)}`, false],
    ['5,200 short parameters', parameters(5200), false],
  ])('%s: %s', (_label, query, fits) => {
    expect(visitorQueryFits(query)).toBe(fits);
  });
});

describe('parseApiQuery', () => {
  it.each([
    ['tag=a', { tag: 'a' }],
    ['tag=a&tag=b', { tag: ['a', 'b'] }],
    ['tag[]=a', { tag: ['a'] }],
    ['tag[]=a&tag[]=b', { tag: ['a', 'b'] }],
    ['tag%5B%5D=a&tag%5B%5D=b', { tag: ['a', 'b'] }],
    ['tag[0]=a&tag[1]=b', { tag: ['a', 'b'] }],
    ['tag=a&tag[]=b', { tag: ['a', 'b'] }],
    ['tag[]=a&tag=b&page=2', { tag: ['a', 'b'], page: '2' }],
    ['tag[x]=a', { 'tag[x]': 'a' }],
    ['a[b][]=c', { 'a[b][]': 'c' }],
    ['', {}],
  ])('reads %p', (query, expected) => {
    expect({ ...parseApiQuery(query) }).toEqual(expected);
  });

  it('keeps a parameter named __proto__ a parameter, not the prototype', () => {
    const parsed = parseApiQuery('__proto__=a&__proto__=b&x[]=1');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(parsed.__proto__).toEqual(['a', 'b']);
    expect(parsed.x).toEqual(['1']);
  });
});
