import { SCRAPED, scrape } from './support/metrics';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClickWriter } from '../src/clicks/click-writer';
import { createAccount, createTestApp, type TestAccount, type TestApp } from './support/app';
import { createLink, UA } from './support/visitors';

const ROOT = join(__dirname, '..');

/** Words of PromQL that are not metric names. */
const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/**
 * The metric names one PromQL expression reads: label matchers, strings, ranges, groupings and functions left out,
 * and a histogram's `_bucket`, `_sum` and `_count` series named by the histogram.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/(?<![\w:$.])([a-zA-Z_:][\w:]*)(?![\w:]|\s*\()/g)) {
    const name = match[1];
    if (KEYWORDS.has(name.toLowerCase())) continue;
    names.add(name.replace(/_(?:bucket|sum|count)$/, ''));
  }
  return [...names];
}

/** The `route="..."` values an expression matches exactly. */
function routes(expr: string): string[] {
  return [...expr.matchAll(/\broute="([^"]*)"/g)].map((match) => match[1]);
}

/** Every expression of the dashboard: its panels' queries and its variables' label_values() metric. */
function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(readFileSync(join(ROOT, 'deploy/grafana/shortlink.json'), 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
    templating: { list: { query: { query: string } | string }[] };
  };
  const exprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
  for (const variable of dashboard.templating.list) {
    const query = typeof variable.query === 'string' ? variable.query : variable.query.query;
    const metric = /^label_values\((.*),\s*\w+\)$/.exec(query);
    if (metric !== null) exprs.push(metric[1]);
  }
  return exprs;
}

/** Every `expr:` of the alert rules, inline or as a block scalar (`expr: |` and the lines indented under it). */
function ruleExpressions(): string[] {
  const lines = readFileSync(join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8').split('\n');
  const exprs: string[] = [];
  lines.forEach((line, index) => {
    const match = /^(\s*)expr:\s*(.*)$/.exec(line);
    if (match === null) return;
    if (!/^[|>][-+]?$/.test(match[2])) {
      exprs.push(match[2]);
      return;
    }
    const block: string[] = [];
    for (const next of lines.slice(index + 1)) {
      if (next.trim() !== '' && next.search(/\S/) <= match[1].length) break;
      block.push(next);
    }
    exprs.push(block.join('\n'));
  });
  return exprs;
}

describe('the Grafana dashboard and the Prometheus alert rules', () => {
  let t: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    t = await createTestApp(SCRAPED);
    account = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const dashboard = dashboardExpressions();
  const rules = ruleExpressions();

  it('reads expressions from both files, and the metric names out of them', () => {
    expect(dashboard.length).toBeGreaterThan(15);
    expect(rules.length).toBeGreaterThanOrEqual(5);
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (job, le) (rate(http_request_duration_seconds_bucket{route="/:alias"}[5m]))) > 0.1',
      ),
    ).toEqual(['http_request_duration_seconds']);
    expect(
      metricNames(
        'sum(rate(a_total{job=~"$job"}[$__rate_interval])) / sum by (x) (b) and on (y) c_count > bool 1e3 unless d offset 5m',
      ),
    ).toEqual(['a_total', 'b', 'c', 'd']);
  });

  it('use only metrics that /metrics serves, described by HELP and TYPE before any of them has a series', async () => {
    const text = await scrape(t);
    const served = new Set([...text.matchAll(/^# TYPE ([a-zA-Z_:][\w:]*) \w+$/gm)].map((match) => match[1]));
    const described = new Set([...text.matchAll(/^# HELP ([a-zA-Z_:][\w:]*) /gm)].map((match) => match[1]));
    const used = (exprs: string[]) => [...new Set(exprs.flatMap(metricNames))].sort();
    for (const [file, names] of [
      ['deploy/grafana/shortlink.json', used(dashboard)],
      ['deploy/prometheus/alerts.yml', used(rules)],
    ] as const) {
      expect(names.length).toBeGreaterThan(3);
      expect({ file, missing: names.filter((name) => !served.has(name) || !described.has(name)) }).toEqual({
        file,
        missing: [],
      });
    }
  });

  it('match route labels that the service gives its requests', async () => {
    const link = await createLink(t, account, { url: 'https://example.com/dashboards' });
    expect((await t.http().get(`/${link.alias}`).set('User-Agent', UA.macSafari)).status).toBe(302);
    expect((await t.http().get('/health/ready')).status).toBe(200);
    await t.app.get(ClickWriter).settle();
    const text = await scrape(t);
    const wanted = [...new Set([...dashboard, ...rules].flatMap(routes))].sort();
    expect(wanted).toEqual(['/:alias', '/health/ready']);
    for (const route of wanted) {
      expect({ route, served: text.includes(`route="${route}"`) }).toEqual({ route, served: true });
    }
  });

  it('serves the click buffer, its size and the event backlog by sink', async () => {
    const text = await scrape(t);
    expect(text).toMatch(/^shortlink_clicks_buffered \d+$/m);
    expect(text).toMatch(/^shortlink_clicks_buffer_max [1-9]\d*$/m);
    for (const sink of ['webhook', 'redis', 'amqp']) {
      expect(text).toMatch(new RegExp(`^shortlink_event_backlog\\{sink="${sink}"\\} \\d+$`, 'm'));
    }
  });
});
