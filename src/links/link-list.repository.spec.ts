import {
  catchUpListedClicks,
  foundPageQuery,
  hasTrigrams,
  searchPath,
  linkCountQuery,
  linkPageQuery,
  readsListedClicks,
  type LinkListFilter,
  type LinkListOrder,
} from './link-list.repository';
import { LinkStatus } from './status/link-status';

const NONE: LinkListFilter = {
  accountId: 7,
  reach: null,
  search: null,
  status: null,
  spaceId: null,
  domainId: null,
  pixelId: null,
  tagIds: null,
  archived: false,
  health: null,
};
const BY_ID: LinkListOrder = { by: 'id', direction: 'DESC' };
const BY_TITLE: LinkListOrder = { by: 'title', direction: 'ASC' };

describe('linkPageQuery, given few matches', () => {
  const FEW = { count: 3, links: 1_000_000 };

  it.each<[string, Partial<LinkListFilter>, LinkListOrder, boolean]>([
    ['no filter', {}, BY_TITLE, false],
    ['expired links, sorted anyway', { status: LinkStatus.Expired }, BY_TITLE, false],
    ['a space in id order', { spaceId: 3 }, BY_ID, false],
    ['no space in id order', { spaceId: 0 }, BY_ID, false],
    ['a domain in id order', { domainId: 3 }, BY_ID, false],
    ['a pixel in id order', { pixelId: 3 }, BY_ID, false],
    ['disabled links in id order', { status: LinkStatus.Disabled }, BY_ID, false],
    ['the archive in id order', { archived: true }, BY_ID, false],
    ['a tag', { tagIds: [3] }, BY_ID, true],
    ['active links', { status: LinkStatus.Active }, BY_ID, true],
    ['a search', { search: { by: 'title', term: 'x' } }, BY_ID, true],
    ['a space sorted by title', { spaceId: 3 }, BY_TITLE, true],
    ['a space and a domain', { spaceId: 3, domainId: 4 }, BY_ID, true],
  ])('%s: sorts them rather than walk the order: %s', (_name, filter, order, sorts) => {
    const { text } = linkPageQuery({ ...NONE, ...filter }, order, 0, 10, FEW);

    expect(text.includes('MATERIALIZED')).toBe(sorts);
  });
});

describe('linkPageQuery', () => {
  const search: LinkListFilter = { ...NONE, search: { by: 'alias', term: '50%_off' } };

  it('walks the order when the matches are many, and sorts them when they are few', () => {
    const walk = linkPageQuery(search, BY_TITLE, 9900, 100, { count: 500_000, links: 1_000_000 });
    const sort = linkPageQuery(search, BY_TITLE, 9900, 100, { count: 1000, links: 1_000_000 });

    expect(walk.text).not.toContain('MATERIALIZED');
    expect(walk.text).toMatch(/ORDER BY lower\(link\.title\) ASC, link\.id ASC/);
    expect(sort.text).toContain('WITH matching AS MATERIALIZED');
    expect(sort.text).toMatch(/ORDER BY matching\.key ASC, matching\.id ASC/);
  });

  it('passes the values as parameters, the search term escaped', () => {
    const { text, values } = linkPageQuery(search, BY_ID, 20, 10, { count: 5, links: 5 });

    expect(values).toEqual([7, '%50\\%\\_off%', 10, 20]);
    expect(text).toContain("lower(link.alias) LIKE lower($2) ESCAPE '\\'");
    expect(text).not.toContain('50%');
  });

  it('reads the clicks order from the counters alone when nothing is filtered, by their listed copy', () => {
    const { text } = linkPageQuery(NONE, { by: 'clicks', direction: 'ASC' }, 0, 10);

    // The links are read only to leave the archive out, through its own index.
    expect(text).not.toMatch(/JOIN links|FROM links link/);
    expect(text).toMatch(
      /NOT EXISTS \(SELECT 1 FROM links archived\s+WHERE archived\.account_id = \$1 AND archived\.archived/,
    );
    expect(text).toMatch(/ORDER BY counter\.listed_clicks ASC, counter\.link_id ASC/);
  });
});

describe('foundPageQuery', () => {
  const search: LinkListFilter = { ...NONE, search: { by: 'title', term: 'sale 42' } };

  it('reads at most one match past the bound, and counts and sorts what it read', () => {
    const { text, values } = foundPageQuery(search, BY_TITLE, 20, 10, 500);

    expect(values).toEqual([7, '%sale 42%', 501, 10, 20]);
    expect(text).toMatch(/WITH matching AS MATERIALIZED \(\s*SELECT link\.id, lower\(link\.title\) AS key/);
    expect(text).toMatch(
      /LIKE lower\(\$2\) ESCAPE '\\' AND NOT EXISTS \([^)]*\) ORDER BY lower\(link\.title\), link\.id LIMIT \$3\)/,
    );
    expect(text).toMatch(/\(SELECT count\(\*\)::int AS found FROM matching\) counted/);
    expect(text).toMatch(/CASE WHEN counted\.found < \$3 THEN ARRAY\(/);
    expect(text).toMatch(/ORDER BY matching\.key ASC, matching\.id ASC\s+LIMIT \$4 OFFSET \$5\) END AS ids/);
  });

  it('sorts by the listed clicks through the counters, and keeps the other filters', () => {
    const filter = { ...search, spaceId: 3, status: LinkStatus.Disabled };
    const { text } = foundPageQuery(filter, { by: 'clicks', direction: 'DESC' }, 0, 10, 500);

    expect(text).toContain('counter.listed_clicks AS key');
    expect(text).toMatch(/JOIN link_counters counter ON counter\.link_id = link\.id/);
    expect(text).toContain('link.space_id = $2');
    expect(text).toContain('link.disabled');
    // Along the title index only when the search is the one filter, as the count.
    expect(text).not.toMatch(/ORDER BY lower\(link\.title\)/);
  });

  it('on the trigram path, compares the account so that no index of the account serves it, and never stops along the title', () => {
    const { text, values } = foundPageQuery(search, BY_TITLE, 0, 10, 500, 'trigram');

    expect(values).toEqual([7, '%sale 42%', 501, 10, 0]);
    expect(text).toContain('WHERE link.account_id + 0 = $1 AND lower(link.title) LIKE lower($2)');
    expect(text).not.toMatch(/ORDER BY lower\(link\.title\), link\.id/);
    expect(text).toMatch(/ESCAPE '\\' AND NOT EXISTS \([^)]*\)\s+LIMIT \$3\)/);
  });

  it('finds the links of a URL term by its trigram index alone: the URL index holds no text to match', () => {
    const { text } = foundPageQuery({ ...NONE, search: { by: 'url', term: '/p/7' } }, BY_ID, 0, 10, 500);

    expect(text).toMatch(/ESCAPE '\\' AND NOT EXISTS \([^)]*\)\s+LIMIT \$3\)/);
  });
});

describe('searchPath', () => {
  const unanalysed = (accountLinks: number) => ({ accountLinks, unanalysed: true });
  it.each([
    ['sale 42', 20_001, 'trigram'],
    ['Straße', 1_000_000, 'trigram'],
    ['/p/777', 1_000_000, 'trigram'],
    ['sale 42', 20_000, 'account'],
    ['ab', 1_000_000, 'account'],
    ['a b c', 1_000_000, 'account'],
    ['%_%', 1_000_000, 'account'],
  ])('searches for %j in an account of %i links, statistics stale, on the %s path', (term, links, path) => {
    expect(searchPath(term, unanalysed(links))).toBe(path);
  });

  it("leaves the path to the planner where the table's statistics are fresh", () => {
    expect(searchPath('sale 42', { accountLinks: 1_000_000, unanalysed: false })).toBe('account');
  });

  it('reads a term by its runs of letters and digits in any script', () => {
    expect(hasTrigrams('日本語')).toBe(true);
    expect(hasTrigrams('42x')).toBe(true);
    expect(hasTrigrams('4-2-x')).toBe(false);
  });
});

describe('the listed clicks', () => {
  it('are brought up to date for the lists that sort or filter by them, and only those', () => {
    expect(readsListedClicks(NONE, { by: 'clicks', direction: 'DESC' })).toBe(true);
    expect(readsListedClicks({ ...NONE, status: LinkStatus.Active }, BY_TITLE)).toBe(true);
    expect(readsListedClicks({ ...NONE, status: LinkStatus.Expired }, BY_ID)).toBe(true);
    expect(readsListedClicks({ ...NONE, status: LinkStatus.Disabled }, BY_ID)).toBe(false);
    expect(readsListedClicks(NONE, BY_ID)).toBe(false);
    expect(readsListedClicks({ ...NONE, spaceId: 3, search: { by: 'url', term: 'x' } }, BY_TITLE)).toBe(
      false,
    );
  });

  it('are caught up for one account, the counters locked in link order as click batches lock them', () => {
    const { text, values } = catchUpListedClicks(7);

    expect(values).toEqual([7]);
    expect(text).toMatch(/WHERE account_id = \$1 AND listed_behind\s+ORDER BY link_id FOR NO KEY UPDATE/);
    expect(text).toMatch(/SET listed_clicks = c\.clicks, listed_behind = false/);
  });
});

describe('linkCountQuery', () => {
  it('reads the maintained counts for the filters they know', () => {
    for (const filter of [{}, { spaceId: 0 }, { domainId: 2, status: LinkStatus.Disabled }]) {
      const { text } = linkCountQuery({ ...NONE, ...filter });

      expect(text).toContain('FROM link_counts');
      // Links are read only to take the archived ones off, through the archive's index.
      for (const read of text.match(/FROM links link WHERE [^)]*/g) ?? []) {
        expect(read).toMatch(/^FROM links link WHERE link\.account_id = \$1 AND link\.archived\b/);
      }
    }
  });

  it('leaves out nothing, and subtracts nothing, for an account that has no archived links', () => {
    for (const filter of [
      {},
      { spaceId: 3 },
      { domainId: 2, status: LinkStatus.Active },
      { reach: [1, 2] },
    ]) {
      const count = linkCountQuery({ ...NONE, ...filter, noneArchived: true });
      expect(count.text).not.toMatch(/archived/);
      // Every parameter is one the statement reads.
      for (let n = 1; n <= count.values.length; n += 1) expect(count.text).toContain(`$${n}`);
    }
    const page = foundPageQuery(
      { ...NONE, noneArchived: true, search: { by: 'title', term: 'x' } },
      BY_ID,
      0,
      10,
      500,
    );
    expect(page.text).not.toMatch(/archived/);
  });

  it('counts the archive alone from the links, and never from the maintained counts', () => {
    const { text } = linkCountQuery({ ...NONE, archived: true, spaceId: 3 });

    expect(text).toMatch(
      /SELECT 1 FROM links link WHERE link\.account_id = \$1 AND link\.space_id = \$2 AND link\.archived\)/,
    );
  });

  it('subtracts the expired links from the enabled ones for active links', () => {
    const { text } = linkCountQuery({ ...NONE, status: LinkStatus.Active, spaceId: 4 });

    expect(text).toMatch(
      /NOT c\.disabled\) - \(SELECT count\(\*\) FROM links link WHERE .* AND NOT link\.disabled\) - \(SELECT count\(\*\)/s,
    );
  });
});

describe('every statement', () => {
  const filters: Partial<LinkListFilter>[] = [];
  for (const status of [null, LinkStatus.Active, LinkStatus.Expired, LinkStatus.Disabled]) {
    for (const spaceId of [null, 0, 3]) {
      for (const extra of [
        {},
        { domainId: 2 },
        { pixelId: 5 },
        { search: { by: 'url' as const, term: 'a' } },
      ]) {
        filters.push({ status, spaceId, ...extra });
      }
    }
  }
  const orders: LinkListOrder[] = ['id', 'clicks', 'title'].map((by) => ({
    by: by as LinkListOrder['by'],
    direction: 'DESC',
  }));

  // A parameter the text never names has no type for the server, which refuses the statement.
  it('names each of its parameters', () => {
    for (const filter of filters) {
      const statements = [linkCountQuery({ ...NONE, ...filter })];
      for (const order of orders) {
        statements.push(linkPageQuery({ ...NONE, ...filter }, order, 0, 10));
        statements.push(linkPageQuery({ ...NONE, ...filter }, order, 0, 10, { count: 1, links: 100 }));
        if (filter.search !== undefined && filter.status !== LinkStatus.Expired) {
          statements.push(foundPageQuery({ ...NONE, ...filter }, order, 0, 10, 100));
          statements.push(foundPageQuery({ ...NONE, ...filter }, order, 0, 10, 100, 'trigram'));
        }
      }
      for (const { text, values } of statements) {
        const named = new Set([...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
        expect({ filter, named: [...named].sort((a, b) => a - b) }).toEqual({
          filter,
          named: values.map((_value, index) => index + 1),
        });
      }
    }
  });
});
