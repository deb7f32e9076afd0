import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { encode } from 'iconv-lite';
import { isPublicAddress } from '../common/outbound-address';
import {
  DEFAULT_TITLE_FETCH_OPTIONS,
  extractTitle,
  TitleFetcher,
  type TitleFetchOptions,
} from './title-fetcher';
import { closeServer, listenOnLoopback, scriptedServer } from '../../test/support/http-server';

describe('extractTitle', () => {
  it('replaces a NUL character, which PostgreSQL cannot store', () => {
    expect(extractTitle('<title>a\u0000b</title>')).toBe('a\ufffdb');
    // As the HTML standard decodes it.
    expect(extractTitle('<title>a&#0;b</title>')).toBe('a\ufffdb');
  });

  it('reads the text of the title element', () => {
    expect(extractTitle('<html><head><title>Hello</title></head><body>x</body></html>')).toBe('Hello');
  });

  it.each([
    ['&amp;', 'Tom &amp; Jerry', 'Tom & Jerry'],
    ['&lt; and &gt;', '&lt;b&gt;', '<b>'],
    ['&quot; and &apos;', '&quot;q&quot; &apos;a&apos;', '"q" \'a\''],
    ['upper-case names', 'A &AMP; B', 'A & B'],
    ['&nbsp;', 'a&nbsp;b', 'a b'],
    ['a decimal reference', 'caf&#233;', 'café'],
    ['a hexadecimal reference', 'caf&#xE9; &#X1F600;', 'café 😀'],
    ['&ndash;, &mdash; and &hellip;', 'a &ndash; b &mdash; c&hellip;', 'a – b — c…'],
    ['accented letters', 'Caf&eacute; cr&egrave;me &Uuml;ber', 'Café crème Über'],
    ['&copy;, &reg; and &euro;', '&copy; 2026 &reg; 5&euro;', '© 2026 ® 5€'],
    ['quotes', '&ldquo;quoted&rdquo; &lsquo;single&rsquo; &laquo;fr&raquo;', '“quoted” ‘single’ «fr»'],
    ['an entity of two code points', 'a &NotEqualTilde; b', 'a \u2242\u0338 b'],
    ['a legacy entity without its semicolon', 'a &amp b &copy 2026', 'a & b © 2026'],
    ['a reference in the windows-1252 range, as browsers do', 'a &#150; b &#x80;', 'a – b €'],
    ['a reference to code point 0', 'a&#0;b', 'a\ufffdb'],
    ['a reference beyond Unicode', 'a&#x110000;b', 'a\ufffdb'],
  ])('decodes %s', (_label, text, expected) => {
    expect(extractTitle(`<title>${text}</title>`)).toBe(expected);
  });

  it.each([
    ['an unknown named entity', 'a &nosuchentity; b', 'a &nosuchentity; b'],
    ['a lone ampersand', 'a & b && c', 'a & b && c'],
  ])('keeps %s as written', (_label, text, expected) => {
    expect(extractTitle(`<title>${text}</title>`)).toBe(expected);
  });

  it('decodes once: an escaped entity stays an entity', () => {
    expect(extractTitle('<title>&amp;lt;script&amp;gt;</title>')).toBe('&lt;script&gt;');
  });

  it('folds white space and trims it', () => {
    expect(extractTitle('<title>\n\t  Many \r\n   spaces\t\there  \n</title>')).toBe('Many spaces here');
  });

  it('takes the first title, with attributes, in any case', () => {
    const html = '<HEAD><TITLE lang="en">First</TITLE ></HEAD><svg><title>Second</title></svg>';

    expect(extractTitle(html)).toBe('First');
  });

  it('spans lines inside the title', () => {
    expect(extractTitle('<title>\nline one\nline two\n</title>')).toBe('line one line two');
  });

  it.each([
    ['no title element', '<html><head></head><body>Hello</body></html>'],
    ['an empty document', ''],
    ['an unclosed title', '<title>Never closed'],
    ['an empty title', '<title></title>'],
    ['a title of white space only', '<title> \n\t </title>'],
    ['a title of &nbsp; only', '<title>&nbsp;&nbsp;</title>'],
  ])('is null for %s', (_label, html) => {
    expect(extractTitle(html)).toBeNull();
  });

  it('keeps at most 255 characters', () => {
    expect(extractTitle(`<title>${'a'.repeat(300)}</title>`)).toBe('a'.repeat(255));
    expect(extractTitle(`<title>${'b'.repeat(255)}</title>`)).toBe('b'.repeat(255));
  });

  it('counts the 255 characters as code points, never splitting a surrogate pair', () => {
    const title = extractTitle(`<title>${'😀'.repeat(300)}</title>`);

    expect([...title!]).toHaveLength(255);
    expect(title).toBe('😀'.repeat(255));
  });

  it('caps after decoding and folding', () => {
    const title = extractTitle(`<title>${'&amp;'.repeat(200)}   ${'x'.repeat(200)}</title>`);

    expect(title).toBe(`${'&'.repeat(200)} ${'x'.repeat(54)}`);
  });

  it('ignores elements whose name only begins with title', () => {
    expect(extractTitle('<titles>No</titles><title-bar>No</title-bar><title>Yes</title>')).toBe('Yes');
  });

  it('reads a title whose tag name ends in white space or a slash', () => {
    expect(extractTitle('<title\n  lang="en">Spaced</title>')).toBe('Spaced');
    expect(extractTitle('<title/>Slashed</title>')).toBe('Slashed');
  });

  it('skips a closing tag that is not one and reads to the real one', () => {
    expect(extractTitle('<title>a</titlex>b</title \n>c</title>')).toBe('a</titlex>b');
  });

  it('looks for the title in the first 64 KiB of the page only', () => {
    const title = '<title>Late</title>';

    expect(extractTitle(`<!--${'x'.repeat(60 * 1024)}-->${title}`)).toBe('Late');
    expect(extractTitle(`<!--${'x'.repeat(64 * 1024)}-->${title}`)).toBeNull();
  });

  it('keeps 255 characters of a title thousands of characters long', () => {
    expect(extractTitle(`<title>${'a'.repeat(50_000)}</title>`)).toBe('a'.repeat(255));
    expect(extractTitle(`<title>${'&lt;'.repeat(10_000)}</title>`)).toBe('<'.repeat(255));
  });

  describe('on pages built to be slow to scan', () => {
    const PAGE_CHARS = 512 * 1024;
    /** One link create must not hold the event loop longer than this. */
    const BUDGET_MS = 50;

    /** `head`, then `unit` repeated to make 512 KiB in all. */
    function page(unit: string, head = ''): string {
      const rest = PAGE_CHARS - head.length;
      return head + unit.repeat(Math.ceil(rest / unit.length)).slice(0, rest);
    }

    /** A title closed well within the scan bound, padded out to 512 KiB after it. */
    function titled(text: string): string {
      return page(' ', `<title>${text}</title>`);
    }

    /** The fastest of up to three runs, stopping at the first within budget: only a scan always slow fails. */
    function scanMs(html: string): number {
      let fastest = Infinity;
      for (let run = 0; run < 3 && fastest >= BUDGET_MS; run += 1) {
        const started = performance.now();
        extractTitle(html);
        fastest = Math.min(fastest, performance.now() - started);
      }
      return fastest;
    }

    it.each([
      ['"<title" repeated', page('<title')],
      ['"<TiTlE " repeated', page('<TiTlE ')],
      ['"<title>" repeated, never closed', page('<title>')],
      ['"<titlex" repeated', page('<titlex')],
      ['"<titl" repeated', page('<titl')],
      ['"<" repeated', page('<')],
      ['a title followed by "</titl" repeated', page('</titl', '<title>')],
      ['a title followed by "</title " repeated', page('</title ', '<title>')],
      ['a title followed by "</" repeated', page('</', '<title>')],
      ['a title followed by one "</title" and white space', page('\t', '<title></title')],
      ['a title of white space runs', titled(' \n\t'.repeat(20_000) + 'x')],
      ['a title of "&#x" repeated', titled('&#x'.repeat(20_000))],
      ['a title of "&#" repeated', titled('&#'.repeat(30_000))],
      ['a title of one long named-entity-like run', titled(`&${'a'.repeat(60_000)}`)],
      ['a title of one long hexadecimal-reference-like run', titled(`&#x${'f'.repeat(60_000)}`)],
      ['a title of "&amp;" repeated', titled('&amp;'.repeat(12_000))],
    ])(`scans %s (512 KiB) in under ${BUDGET_MS} ms`, (_label, html) => {
      expect(html).toHaveLength(PAGE_CHARS);
      expect(scanMs(html)).toBeLessThan(BUDGET_MS);
    });
  });
});

const DEFAULT_LIMITS = { titleFetchConcurrency: 8, titleFetchPerHost: 2, titleFetchQueue: 10_000 };

describe('TitleFetcher.fetchTitle', () => {
  const served = scriptedServer({ describe: (request) => request.url ?? '' });

  /** A fetcher that may reach this test's server, as `page.test`, and nothing else. */
  function fetcher(options: Partial<TitleFetchOptions> = {}): TitleFetcher {
    return new TitleFetcher(
      {
        ...DEFAULT_TITLE_FETCH_OPTIONS,
        resolve: (host) =>
          host === 'page.test' ? Promise.resolve(['127.0.0.1']) : Promise.reject(new Error(`no ${host}`)),
        allowAddress: (address) => address === '127.0.0.1',
        timeoutMs: 2000,
        ...options,
      },
      DEFAULT_LIMITS,
    );
  }

  function html(body: string, type = 'text/html; charset=utf-8') {
    return (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(200, { 'content-type': type });
      response.end(body);
    };
  }

  it('reads the title of an HTML page', async () => {
    served.handler = html('<html><head><title>Hello &amp; welcome</title></head></html>');

    await expect(fetcher().fetchTitle(`http://page.test:${served.port}/a`)).resolves.toBe('Hello & welcome');
    expect(served.requests).toEqual(['/a']);
  });

  describe('in the character set the page declares', () => {
    const LATIN = 'Café crème – “quoted” 5 €';
    const JAPANESE = '日本語のページ｜ニュース';

    function page(bytes: Buffer, type: string) {
      return (_request: IncomingMessage, response: ServerResponse) => {
        response.writeHead(200, { 'content-type': type });
        response.end(bytes);
      };
    }

    it.each([
      [
        'windows-1252 in the header',
        'text/html; charset=windows-1252',
        'windows-1252',
        `<title>${LATIN}</title>`,
      ],
      // Browsers read ISO-8859-1 as windows-1252, where “ ” – € live.
      [
        'ISO-8859-1 in the header, quoted',
        'text/html; charset="ISO-8859-1"',
        'windows-1252',
        `<title>${LATIN}</title>`,
      ],
      ['Shift_JIS in the header', 'text/html;charset=Shift_JIS', 'shift_jis', `<title>${JAPANESE}</title>`],
      [
        'Shift_JIS in <meta charset>',
        'text/html',
        'shift_jis',
        `<head><meta charset="Shift_JIS"><title>${JAPANESE}</title>`,
      ],
      [
        'Shift_JIS in <meta http-equiv>',
        'text/html',
        'shift_jis',
        `<head><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=x-sjis"><title>${JAPANESE}</title>`,
      ],
      [
        'windows-1252 in <meta http-equiv>',
        'text/html',
        'windows-1252',
        `<meta http-equiv="content-type" content="text/html; charset=windows-1252"><title>${LATIN}</title>`,
      ],
      ['UTF-8 in the header', 'text/html; charset=utf-8', 'utf-8', `<title>${JAPANESE}</title>`],
      ['UTF-8 undeclared', 'text/html', 'utf-8', `<title>${JAPANESE}</title>`],
      [
        'the header over <meta>',
        'text/html; charset=windows-1252',
        'windows-1252',
        `<meta charset="utf-8"><title>${LATIN}</title>`,
      ],
      ['an unknown charset as UTF-8', 'text/html; charset=no-such-set', 'utf-8', `<title>${LATIN}</title>`],
      [
        'undeclared bytes that are not UTF-8 as windows-1252',
        'text/html',
        'windows-1252',
        `<title>${LATIN}</title>`,
      ],
    ])('reads %s', async (_label, type, encoding, html) => {
      served.handler = page(encode(html, encoding), type);

      await expect(fetcher().fetchTitle(`http://page.test:${served.port}/`)).resolves.toBe(
        html.includes(JAPANESE) ? JAPANESE : LATIN,
      );
    });

    it('reads UTF-16 by its byte order mark', async () => {
      served.handler = page(
        Buffer.concat([Buffer.from([0xff, 0xfe]), encode(`<title>${JAPANESE}</title>`, 'utf-16le')]),
        'text/html',
      );

      await expect(fetcher().fetchTitle(`http://page.test:${served.port}/`)).resolves.toBe(JAPANESE);
    });

    it('decodes entities after the characters', async () => {
      served.handler = page(
        encode('<title>日本 &ndash; &#x65E5;&eacute;</title>', 'shift_jis'),
        'text/html; charset=shift_jis',
      );

      await expect(fetcher().fetchTitle(`http://page.test:${served.port}/`)).resolves.toBe('日本 – 日é');
    });
  });

  it('never connects to an address the policy refuses', async () => {
    served.handler = html('<title>Secret</title>');

    await expect(
      fetcher({ allowAddress: isPublicAddress }).fetchTitle(`http://page.test:${served.port}/`),
    ).rejects.toThrow('refused to connect to page.test');
    await expect(
      fetcher({ allowAddress: isPublicAddress }).fetchTitle(`http://127.0.0.1:${served.port}/`),
    ).rejects.toThrow('refused to connect to 127.0.0.1');
    expect(served.requests).toEqual([]);
  });

  it.each([
    '[::7f00:1]',
    '[::a9fe:a9fe]',
    '[::127.0.0.1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[64:ff9b::7f00:1]',
    '[2002:7f00:1::]',
    '[2001:0:808:808::80ff:fffe]',
    '2130706433',
    '0x7f.1',
    '017700000001',
    '127.1',
  ])('refuses http://%s/ with the default policy, without connecting or resolving', async (host) => {
    served.handler = html('<title>Secret</title>');
    const resolved: string[] = [];
    const asked: string[] = [];
    const guarded = fetcher({
      resolve: (name) => {
        resolved.push(name);
        return Promise.resolve(['127.0.0.1']);
      },
      allowAddress: (address) => {
        asked.push(address);
        return isPublicAddress(address);
      },
    });

    await expect(guarded.fetchTitle(`http://${host}:${served.port}/`)).rejects.toThrow(
      'refused to connect to',
    );
    expect(resolved).toEqual([]);
    expect(asked).toHaveLength(1);
    expect(served.connections).toBe(0);
    expect(served.requests).toEqual([]);
  });

  it.each(['::7f00:1', '::127.0.0.1', '::a9fe:a9fe', '::ffff:7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::'])(
    'refuses a name that resolves to %s with the default policy, without connecting',
    async (address) => {
      served.handler = html('<title>Secret</title>');
      const guarded = fetcher({ resolve: () => Promise.resolve([address]), allowAddress: isPublicAddress });

      await expect(guarded.fetchTitle(`http://page.test:${served.port}/`)).rejects.toThrow(
        'refused to connect to page.test',
      );
      expect(served.connections).toBe(0);
    },
  );

  it('refuses a name when any of its addresses is refused', async () => {
    served.handler = html('<title>Secret</title>');
    const mixed = fetcher({
      resolve: () => Promise.resolve(['127.0.0.1', '10.0.0.1']),
      allowAddress: (address) => address === '127.0.0.1',
    });

    await expect(mixed.fetchTitle(`http://page.test:${served.port}/`)).rejects.toThrow('refused');
    expect(served.requests).toEqual([]);
  });

  it('checks every redirect hop against the policy', async () => {
    served.handler = (_request, response) => {
      response.writeHead(302, { location: 'http://10.0.0.1/internal' });
      response.end();
    };

    await expect(fetcher().fetchTitle(`http://page.test:${served.port}/start`)).rejects.toThrow(
      'refused to connect to 10.0.0.1',
    );
    expect(served.requests).toEqual(['/start']);
  });

  it('follows at most maxRedirects redirects', async () => {
    served.handler = (request, response) => {
      response.writeHead(302, { location: `/hop${(request.url ?? '').length}` });
      response.end();
    };

    await expect(
      fetcher({ maxRedirects: 2 }).fetchTitle(`http://page.test:${served.port}/`),
    ).resolves.toBeNull();
    expect(served.requests).toEqual(['/', '/hop1', '/hop5']);
  });

  it('follows a relative redirect', async () => {
    served.handler = (request, response) => {
      if (request.url === '/old') {
        response.writeHead(301, { location: '/new' });
        response.end();
      } else html('<title>Moved here</title>')(request, response);
    };

    await expect(fetcher().fetchTitle(`http://page.test:${served.port}/old`)).resolves.toBe('Moved here');
    expect(served.requests).toEqual(['/old', '/new']);
  });

  it('does not follow a redirect to another scheme', async () => {
    served.handler = (_request, response) => {
      response.writeHead(302, { location: 'file:///etc/passwd' });
      response.end();
    };

    await expect(fetcher().fetchTitle(`http://page.test:${served.port}/`)).resolves.toBeNull();
    expect(served.requests).toEqual(['/']);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['application/json', 'application/json'],
    ['no content type', ''],
  ])('is null for %s', async (_label, type) => {
    served.handler = (_request, response) => {
      if (type !== '') response.setHeader('content-type', type);
      response.end('<title>Not a page</title>');
    };

    await expect(fetcher().fetchTitle(`http://page.test:${served.port}/`)).resolves.toBeNull();
  });

  it.each([404, 500, 204])('is null for status %i', async (status) => {
    served.handler = (_request, response) => {
      response.writeHead(status, { 'content-type': 'text/html' });
      response.end(status === 204 ? undefined : '<title>Error page</title>');
    };

    await expect(fetcher().fetchTitle(`http://page.test:${served.port}/`)).resolves.toBeNull();
  });

  it('reads no further than maxBytes, even when one chunk crosses the cap', async () => {
    const padding = `<html><head><!--${'x'.repeat(2000)}-->`;
    served.handler = html(`${padding}<title>Too far</title></head></html>`);

    await expect(
      fetcher({ maxBytes: 1024 }).fetchTitle(`http://page.test:${served.port}/`),
    ).resolves.toBeNull();
    await expect(fetcher({ maxBytes: 4096 }).fetchTitle(`http://page.test:${served.port}/`)).resolves.toBe(
      'Too far',
    );
  });

  it('gives up after timeoutMs on a server that never answers', async () => {
    served.handler = () => undefined;
    const started = Date.now();

    await expect(fetcher({ timeoutMs: 300 }).fetchTitle(`http://page.test:${served.port}/`)).rejects.toThrow(
      'timed out',
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives up after timeoutMs when the name never resolves', async () => {
    const stalled = fetcher({ timeoutMs: 300, resolve: () => new Promise<string[]>(() => undefined) });
    const started = Date.now();
    let guard: NodeJS.Timeout | undefined;

    const outcome = await Promise.race([
      stalled.fetchTitle('http://page.test/').then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
      new Promise<string>((resolve) => {
        guard = setTimeout(() => resolve('still waiting after 3 s'), 3000);
      }),
    ]).finally(() => clearTimeout(guard));

    expect(outcome).toBe('title fetch timed out');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives up after timeoutMs on a server that sends the page a byte at a time', async () => {
    let timer: NodeJS.Timeout | undefined;
    served.handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      timer = setInterval(() => response.write(' '), 50);
      response.on('close', () => clearInterval(timer));
    };
    const started = Date.now();

    try {
      await expect(
        fetcher({ timeoutMs: 400 }).fetchTitle(`http://page.test:${served.port}/`),
      ).rejects.toThrow('timed out');
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      clearInterval(timer);
    }
  });
});

describe('TitleFetcher.schedule', () => {
  let server: Server;
  let port: number;
  /** Requests the server holds unanswered, by the host they were sent to. */
  let held: { host: string; response: ServerResponse }[] = [];
  /** The most requests the server held at once, overall and per host. */
  let most = 0;
  let mostFor = new Map<string, number>();
  let seen: string[] = [];
  /** Hosts looked up: a fetch begins with its lookup. */
  let lookups: string[] = [];
  let onRequest: () => void = () => undefined;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const host = (request.headers.host ?? '').split(':')[0];
      seen.push(`${host}${request.url ?? ''}`);
      held.push({ host, response });
      most = Math.max(most, held.length);
      mostFor.set(host, Math.max(mostFor.get(host) ?? 0, held.filter((each) => each.host === host).length));
      onRequest();
    });
    port = await listenOnLoopback(server);
  });

  afterAll(() => closeServer(server));

  beforeEach(() => {
    held = [];
    most = 0;
    mostFor = new Map();
    seen = [];
    lookups = [];
  });

  /** A fetcher for which every `*.test` host is this test's server. */
  function fetcher(limits: Partial<typeof DEFAULT_LIMITS>): TitleFetcher {
    return new TitleFetcher(
      {
        ...DEFAULT_TITLE_FETCH_OPTIONS,
        resolve: (host) => {
          lookups.push(host);
          return host.endsWith('.test')
            ? Promise.resolve(['127.0.0.1'])
            : Promise.reject(new Error(`no ${host}`));
        },
        allowAddress: (address) => address === '127.0.0.1',
        timeoutMs: 5000,
      },
      { ...DEFAULT_LIMITS, ...limits },
    );
  }

  /** Resolves once the server has seen `count` requests in all. */
  function requestsSeen(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (seen.length >= count) resolve();
      };
      onRequest = check;
      check();
    });
  }

  /** Answers every request held, and those that come after, until `titles` have been stored. */
  async function answerAll(stored: string[], titles: number): Promise<void> {
    const answer = () => {
      for (const { response } of held.splice(0)) {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<title>Page</title>');
      }
    };
    onRequest = answer;
    answer();
    while (stored.length < titles) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Schedules a fetch of each URL; the titles stored are pushed, with the URL, to the list returned. */
  function scheduleAll(titles: TitleFetcher, urls: string[]): string[] {
    const stored: string[] = [];
    for (const url of urls) {
      titles.schedule(url, (title) => {
        stored.push(`${url} ${title}`);
        return Promise.resolve();
      });
    }
    return stored;
  }

  it('fetches from one host at most TITLE_FETCH_PER_HOST at a time; the rest wait their turn', async () => {
    const urls = Array.from({ length: 6 }, (_, index) => `http://same.test:${port}/${index}`);
    const stored = scheduleAll(fetcher({ titleFetchPerHost: 2 }), urls);

    await requestsSeen(2);
    // Nothing has been answered: the others have not even begun.
    expect(lookups).toEqual(['same.test', 'same.test']);
    await answerAll(stored, 6);

    expect(mostFor.get('same.test')).toBe(2);
    expect(stored.sort()).toEqual(urls.map((url) => `${url} Page`).sort());
  });

  it('lets another host through while one is at its cap', async () => {
    const titles = fetcher({ titleFetchPerHost: 1 });
    const stored = scheduleAll(titles, [`http://busy.test:${port}/1`, `http://busy.test:${port}/2`]);
    scheduleAll(titles, [`http://free.test:${port}/1`]).forEach((each) => stored.push(each));

    await requestsSeen(2);

    expect(lookups).toEqual(['busy.test', 'free.test']);
    expect(seen.sort()).toEqual(['busy.test/1', 'free.test/1']);
    await answerAll(stored, 2);
  });

  it('fetches at most TITLE_FETCH_CONCURRENCY at a time over every host', async () => {
    const urls = Array.from({ length: 6 }, (_, index) => `http://host${index}.test:${port}/`);
    const stored = scheduleAll(fetcher({ titleFetchConcurrency: 3, titleFetchPerHost: 10 }), urls);

    await requestsSeen(3);
    expect(lookups).toEqual(['host0.test', 'host1.test', 'host2.test']);
    await answerAll(stored, 6);

    expect(most).toBe(3);
    expect(seen).toHaveLength(6);
  });

  it('skips a fetch when TITLE_FETCH_QUEUE fetches already wait', async () => {
    const urls = Array.from({ length: 4 }, (_, index) => `http://one.test:${port}/${index}`);
    const titles = fetcher({ titleFetchConcurrency: 1, titleFetchQueue: 2 });
    const stored = scheduleAll(titles, urls);

    await requestsSeen(1);
    expect(lookups).toEqual(['one.test']);
    await answerAll(stored, 3);
    await titles.beforeApplicationShutdown();

    expect(seen).toEqual(['one.test/0', 'one.test/1', 'one.test/2']);
    expect(stored).toHaveLength(3);
  });

  it('fetches nothing when TITLE_FETCH_CONCURRENCY is 0', async () => {
    const titles = fetcher({ titleFetchConcurrency: 0 });
    const stored = scheduleAll(titles, [`http://none.test:${port}/`]);

    await titles.beforeApplicationShutdown();

    expect([seen, stored]).toEqual([[], []]);
  });

  it('drops the fetches still waiting at shutdown, and finishes those under way', async () => {
    const urls = Array.from({ length: 5 }, (_, index) => `http://stop.test:${port}/${index}`);
    const titles = fetcher({ titleFetchConcurrency: 1 });
    const stored = scheduleAll(titles, urls);
    await requestsSeen(1);

    const stopped = titles.beforeApplicationShutdown();
    await answerAll(stored, 1);
    await stopped;

    expect(seen).toEqual(['stop.test/0']);
    expect(stored).toEqual([`${urls[0]} Page`]);
  });
});
