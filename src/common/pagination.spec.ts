import type { Request } from 'express';
import { pageWindow, paginatedEnvelope, requestPath } from './pagination';

function fakeRequest(originalUrl: string, host = 'sho.rt', protocol = 'https'): Request {
  return {
    originalUrl,
    protocol,
    get: (name: string) => (name.toLowerCase() === 'host' ? host : undefined),
  } as unknown as Request;
}

const path = 'https://sho.rt/api/v1/spaces';

describe('requestPath', () => {
  it('is the absolute URL without the query string', () => {
    expect(requestPath(fakeRequest('/api/v1/spaces?page=2&search=x'))).toBe(path);
    expect(requestPath(fakeRequest('/api/v1/spaces', 'localhost:3000', 'http'))).toBe(
      'http://localhost:3000/api/v1/spaces',
    );
  });
});

describe('paginatedEnvelope', () => {
  it('reports an empty collection as one empty page', () => {
    expect(
      paginatedEnvelope(fakeRequest('/api/v1/spaces'), { page: 1, perPage: 10 }, { items: [], total: 0 }),
    ).toEqual({
      data: [],
      links: { first: `${path}?page=1`, last: `${path}?page=1`, prev: null, next: null },
      meta: {
        current_page: 1,
        from: null,
        last_page: 1,
        links: [
          { url: null, label: '&laquo; Previous', active: false },
          { url: `${path}?page=1`, label: '1', active: true },
          { url: null, label: 'Next &raquo;', active: false },
        ],
        path,
        per_page: 10,
        to: null,
        total: 0,
      },
      status: 200,
    });
  });

  it('links both ways from a middle page', () => {
    const items = Array.from({ length: 10 }, (_, index) => index + 11);
    const envelope = paginatedEnvelope(
      fakeRequest('/api/v1/spaces?page=2'),
      { page: 2, perPage: 10 },
      { items, total: 25 },
    );
    expect(envelope.links).toEqual({
      first: `${path}?page=1`,
      last: `${path}?page=3`,
      prev: `${path}?page=1`,
      next: `${path}?page=3`,
    });
    expect(envelope.meta).toEqual({
      current_page: 2,
      from: 11,
      last_page: 3,
      links: [
        { url: `${path}?page=1`, label: '&laquo; Previous', active: false },
        { url: `${path}?page=1`, label: '1', active: false },
        { url: `${path}?page=2`, label: '2', active: true },
        { url: `${path}?page=3`, label: '3', active: false },
        { url: `${path}?page=3`, label: 'Next &raquo;', active: false },
      ],
      path,
      per_page: 10,
      to: 20,
      total: 25,
    });
    expect(envelope.data).toBe(items);
  });

  it('has no next link on the last page, and counts its short length', () => {
    const envelope = paginatedEnvelope(
      fakeRequest('/api/v1/spaces?page=3'),
      { page: 3, perPage: 10 },
      { items: [21, 22, 23, 24, 25], total: 25 },
    );
    expect(envelope.links.prev).toBe(`${path}?page=2`);
    expect(envelope.links.next).toBeNull();
    expect(envelope.meta).toMatchObject({ current_page: 3, from: 21, to: 25, last_page: 3, total: 25 });
  });

  it('reports a page beyond the last as empty, pointing back to the one before it', () => {
    const envelope = paginatedEnvelope(
      fakeRequest('/api/v1/spaces?page=9'),
      { page: 9, perPage: 10 },
      { items: [], total: 25 },
    );
    expect(envelope.data).toEqual([]);
    expect(envelope.links).toEqual({
      first: `${path}?page=1`,
      last: `${path}?page=3`,
      prev: `${path}?page=8`,
      next: null,
    });
    expect(envelope.meta).toMatchObject({ current_page: 9, from: null, to: null, last_page: 3, total: 25 });
  });

  it('keeps a full last page exact', () => {
    const envelope = paginatedEnvelope(
      fakeRequest('/api/v1/spaces'),
      { page: 2, perPage: 25 },
      {
        items: new Array<number>(25).fill(0),
        total: 50,
      },
    );
    expect(envelope.meta).toMatchObject({ from: 26, to: 50, last_page: 2, per_page: 25 });
    expect(envelope.links.next).toBeNull();
  });

  it("keeps the request's other query parameters in every link and replaces page", () => {
    const envelope = paginatedEnvelope(
      fakeRequest('/api/v1/spaces?search=a%26b&page=2&per_page=25&sort=asc'),
      { page: 2, perPage: 25 },
      { items: new Array<number>(25).fill(0), total: 60 },
    );
    const next = new URL(envelope.links.next!);
    expect(`${next.origin}${next.pathname}`).toBe(path);
    expect([...next.searchParams.entries()]).toEqual([
      ['search', 'a&b'],
      ['per_page', '25'],
      ['sort', 'asc'],
      ['page', '3'],
    ]);
    for (const link of [envelope.links.first, envelope.links.last, envelope.links.prev!]) {
      const url = new URL(link);
      expect(url.searchParams.getAll('page')).toHaveLength(1);
      expect(url.searchParams.get('search')).toBe('a&b');
    }
    expect(envelope.meta.path).toBe(path);
  });

  it('marks no page active beyond the last', () => {
    const envelope = paginatedEnvelope(
      fakeRequest('/api/v1/spaces?page=9'),
      { page: 9, perPage: 10 },
      { items: [], total: 25 },
    );
    expect(envelope.meta.links.map((link) => [link.label, link.active])).toEqual([
      ['&laquo; Previous', false],
      ['1', false],
      ['2', false],
      ['3', false],
      ['Next &raquo;', false],
    ]);
    expect(envelope.meta.links[0].url).toBe(`${path}?page=8`);
  });
});

describe('pageWindow', () => {
  it('lists every page while there are fewer than 14', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(7, 13)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('near the start: the first ten, then the last two', () => {
    expect(pageWindow(1, 14)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, null, 13, 14]);
    expect(pageWindow(7, 50)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, null, 49, 50]);
  });

  it('near the end: the first two, then the last ten', () => {
    expect(pageWindow(44, 50)).toEqual([1, 2, null, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
    expect(pageWindow(50, 50)).toEqual([1, 2, null, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
  });

  it('in the middle: both ends and three pages on each side of the current one', () => {
    expect(pageWindow(8, 50)).toEqual([1, 2, null, 5, 6, 7, 8, 9, 10, 11, null, 49, 50]);
    expect(pageWindow(25, 50)).toEqual([1, 2, null, 22, 23, 24, 25, 26, 27, 28, null, 49, 50]);
  });
});
