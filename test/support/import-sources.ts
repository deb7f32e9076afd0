import { isPublicAddress, resolveHost } from '../../src/common/outbound-address';
import { SourceError, type ImportSource, type SourcePage } from '../../src/imports/sources/source';
import {
  SourceHttp,
  type SourceConnector,
  type SourceHttpOptions,
} from '../../src/imports/sources/source-http';
import { undocumentedRequests, type RecordedRequest } from '../fixtures/openapi/conformance';

/** How the tests read a source: on loopback (private addresses allowed), quickly, without a tight rate or size. */
export const TEST_SOURCE_HTTP: SourceHttpOptions = {
  resolve: resolveHost,
  allowAddress: isPublicAddress,
  allowPrivateAddresses: true,
  timeoutMs: 5000,
  requestsPerSecond: 1000,
  maxResponseBytes: 8 << 20,
};

/** The connector the adapters are given in the tests. */
export const connectForTests: SourceConnector = (base, headers) =>
  new SourceHttp(base, headers, TEST_SOURCE_HTTP);

/** Every page of `source`, from the first to the one without a next, as an import reads them; then closes it. */
export async function readAllPages(source: ImportSource): Promise<SourcePage[]> {
  const pages: SourcePage[] = [];
  let cursor: string | null = null;
  do {
    const page = await source.page(cursor);
    pages.push(page);
    cursor = page.next;
  } while (cursor !== null);
  await source.close();
  return pages;
}

/** A fake of a shortener's API (test/support/fake-*.ts): what it was asked, and the mishaps it can be told to make. */
export interface FakeSourceApi {
  readonly requests: readonly RecordedRequest[];
  /** The next request gets a 429 with `Retry-After: seconds`. */
  rateLimitOnce(seconds: number): void;
  /** The next request gets a 200 whose body is not JSON. */
  malformedOnce(): void;
}

/** An adapter of a shortener's API under test, with the fake its describe starts before each test. */
export interface ApiSourceUnderTest {
  /** Its OpenAPI document, beside test/fixtures/openapi/conformance.ts. */
  document: 'shlink' | 'kutt' | 'bitly';
  fake(): FakeSourceApi;
  /** The adapter on the fake, with the right credential unless given another. */
  source(credential?: string): ImportSource;
  /** The status the fake refuses a wrong credential with. */
  refusal: 401 | 403;
  /** The first request `open` makes, as the adapter names it (relative to the base URL). */
  firstRequest: string;
  /** The requests `open` and then a whole read make. */
  requests: number;
  /** A request the document does not describe, which the check must tell. */
  undocumented: RecordedRequest;
}

/**
 * What every adapter of a shortener's API does alike: it refuses wrong credentials on `open`, waits out a 429, fails
 * with a SourceError on an answer that is not JSON, asks only what the source's OpenAPI document describes, goes on
 * from a cursor it wrote in a fresh adapter, and refuses one it did not. Called inside the adapter's describe.
 */
export function itReadsLikeAnApiSource(under: ApiSourceUnderTest): void {
  it('refuses a wrong credential when opened', async () => {
    const opened = under.source('wrong-credential').open();

    await expect(opened).rejects.toBeInstanceOf(SourceError);
    await expect(opened).rejects.toThrow(`refused the credentials (${under.refusal})`);
  });

  it('waits as long as a 429 says before asking again', async () => {
    under.fake().rateLimitOnce(1);
    const started = Date.now();

    await expect(under.source().open()).resolves.toMatchObject({ linksTotal: expect.any(Number) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    const first = `/${under.firstRequest}`;
    expect(
      under
        .fake()
        .requests.slice(0, 2)
        .map((request) => request.path),
    ).toEqual([first, first]);
  });

  it('fails with a SourceError on an answer that is not JSON', async () => {
    under.fake().malformedOnce();

    await expect(under.source().open()).rejects.toThrow(
      new SourceError(`the source answered ${under.firstRequest} with something other than JSON`),
    );
  });

  it('asks only what the source’s OpenAPI document describes', async () => {
    await under.source().open();
    await readAllPages(under.source());

    expect(under.fake().requests).toHaveLength(under.requests);
    expect(undocumentedRequests(under.document, under.fake().requests)).toEqual([]);
    // The check itself tells a request the document does not describe.
    expect(undocumentedRequests(under.document, [under.undocumented])).toHaveLength(1);
  });

  it('goes on from the cursor of the first page in a fresh adapter', async () => {
    const pages = await readAllPages(under.source());

    const resumed = await under.source().page(pages[0].next);

    expect(resumed.links.map((link) => link.sourceId)).toEqual(pages[1].links.map((link) => link.sourceId));
    expect(resumed.next).toBe(pages[1].next);
  });

  it('refuses a cursor it did not write', async () => {
    await expect(under.source().page('{"elsewhere": 3}')).rejects.toThrow(SourceError);
  });
}
