import type { Request } from 'express';
import { paginatedEnvelope, requestPath } from './pagination';

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
      meta: { current_page: 1, from: null, last_page: 1, path, per_page: 10, to: null, total: 0 },
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
});
