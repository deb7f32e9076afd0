import type { TestApp } from './app';

/** The `METRICS_TOKEN` of the test apps that scrape their metrics on the public port. */
export const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

/** `METRICS_TOKEN` for a test app whose `/metrics` the tests read. */
export const SCRAPED = { METRICS_TOKEN } as const;

/** The app's metrics, in Prometheus's text format, as a scraper with the token reads them. */
export async function scrape(t: TestApp): Promise<string> {
  const response = await t.http().get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text;
}
