import type { ClickSeriesResult, SeriesBucket, SeriesUnit } from '../../stats/click-series';
import { DIMENSION_TITLES, displayValue, type PageDimension } from './display-names';
import { html, type Html } from '../../common/html';
import type { MessageKey } from '../pages/messages';
import type { Page } from '../pages/page';
import type { Translator } from '../pages/translator';
import { worldMap } from './world-map';

/** The periods the stats page offers, as its `range` parameter names them. */
export const STATS_RANGES = ['7', '30', '90', 'all'] as const;
export type StatsRangeChoice = (typeof STATS_RANGES)[number];
export const DEFAULT_STATS_RANGE: StatsRangeChoice = '30';

const RANGE_LABELS: Record<StatsRangeChoice, MessageKey> = {
  '7': 'range7',
  '30': 'range30',
  '90': 'range90',
  all: 'rangeAll',
};

const COLUMN_LABELS: Record<SeriesUnit, MessageKey> = {
  hour: 'columnHour',
  day: 'columnDay',
  month: 'columnMonth',
  year: 'columnYear',
};

export interface DimensionRow {
  value: string | null;
  count: number;
}

export interface StatsPageData {
  /** The link's title, or its alias when it has none. */
  name: string;
  alias: string;
  shortUrl: string;
  range: StatsRangeChoice;
  from: Date;
  to: Date;
  total: number;
  series: ClickSeriesResult;
  dimensions: { name: PageDimension; rows: DimensionRow[] }[];
  /** Every country with clicks in the period, for the map. */
  countries: DimensionRow[];
}

/** Width of one bar in the chart's own units; its height is 100. */
const SLOT = 10;

function bucketLabel(t: Translator, unit: SeriesUnit, bucket: SeriesBucket): string {
  switch (unit) {
    case 'hour':
      return t.hour(bucket.start);
    case 'day':
      return t.day(bucket.start);
    case 'month':
      return t.month(bucket.start);
    case 'year':
      return String(bucket.start.getUTCFullYear());
  }
}

function nowrap(text: string): Html {
  return html`<span class="nowrap">${text}</span>`;
}

/**
 * Clicks over time as inline SVG (no script, nothing for the policy to allow), scaled to its box; its labels are
 * HTML beside it, so that they keep their size on any screen. A summary names it for screen readers, and a table
 * under a disclosure gives every number.
 */
function chart(t: Translator, data: StatsPageData): Html {
  const { unit, buckets } = data.series;
  const peak = buckets.reduce<SeriesBucket | null>(
    (best, bucket) => (bucket.count > (best?.count ?? 0) ? bucket : best),
    null,
  );
  const max = Math.max(1, peak?.count ?? 0);
  const width = Math.max(1, buckets.length) * SLOT;
  const bars = buckets.map((bucket, index) => {
    if (bucket.count === 0) return '';
    const height = Math.max(1, (bucket.count / max) * 100);
    const label = `${bucketLabel(t, unit, bucket)}: ${t.plural('clicks', bucket.count)}`;
    return html`<rect x="${index * SLOT + 1}" y="${(100 - height).toFixed(2)}" width="${SLOT - 2}" height="${height.toFixed(2)}"><title>${label}</title></rect>`;
  });
  const summary =
    peak === null
      ? t.text('chartEmpty')
      : t.text('chartPeak', {
          when: bucketLabel(t, unit, peak),
          clicks: t.plural('clicks', peak.count),
        });
  const first = buckets[0];
  const last = buckets[buckets.length - 1];
  const rows = buckets.map(
    (bucket) =>
      html`<tr><th scope="row">${bucketLabel(t, unit, bucket)}</th><td>${t.number(bucket.count)}</td></tr>`,
  );
  const axis =
    first === undefined
      ? ''
      : html`<div class="chart-axis" aria-hidden="true"><span>${bucketLabel(t, unit, first)}</span><span>${bucketLabel(t, unit, last)}</span></div>`;
  return html`<section class="panel panel-wide" aria-labelledby="chart-heading">
  <h2 id="chart-heading">${t.text('chartHeading')}</h2>
  <p id="chart-summary" class="muted">${summary}</p>
  <div class="chart">
    <div class="chart-scale" aria-hidden="true"><span>${t.number(max)}</span><span>0</span></div>
    <svg class="chart-bars" viewBox="0 0 ${width} 100" preserveAspectRatio="none" role="img" aria-labelledby="chart-heading chart-summary" focusable="false">${bars}</svg>
    ${axis}
  </div>
  <details>
    <summary>${t.text('chartTable')}</summary>
    <div class="table-scroll"><table>
      <thead><tr><th scope="col">${t.text(COLUMN_LABELS[unit])}</th><th scope="col">${t.text('columnClicks')}</th></tr></thead>
      <tbody>${rows}</tbody>
    </table></div>
  </details>
</section>`;
}

/** One dimension as a ranked list of bars: each value's name, its clicks and its share of the period's. */
function rankedList(t: Translator, name: PageDimension, rows: DimensionRow[], total: number): Html {
  const id = `dimension-${name.replace('_', '-')}`;
  const items = rows.map((row) => {
    const share = total > 0 ? row.count / total : 0;
    return html`<li>
      <span class="bar-name">${displayValue(name, row.value, t)}</span>
      <span class="bar-count">${t.number(row.count)} <span class="muted">${t.percent(share)}</span></span>
      <svg class="bar" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect class="bar-track" width="100" height="4" /><rect width="${(share * 100).toFixed(2)}" height="4" /></svg>
    </li>`;
  });
  const list =
    rows.length === 0
      ? html`<p class="muted">${t.text('noClicks')}</p>`
      : html`<ol class="bars">${items}</ol>`;
  return html`<section class="panel" aria-labelledby="${id}">
  <h2 id="${id}">${t.text(DIMENSION_TITLES[name])}</h2>
  ${list}
</section>`;
}

/** The public stats page: a small dashboard of one link, for the period chosen. */
export function statsPage(t: Translator, data: StatsPageData): Page {
  const ranges = STATS_RANGES.map((choice) => {
    const current = choice === data.range ? html` aria-current="page"` : '';
    return html`<a href="?range=${choice}"${current}>${t.text(RANGE_LABELS[choice])}</a>`;
  });
  const total = t.html('statsTotal', {
    clicks: html`<strong>${t.plural('clicks', data.total)}</strong>`,
    from: nowrap(t.day(data.from)),
    to: nowrap(t.day(data.to)),
  });
  return {
    title: t.text('statsTitle', { name: data.name }),
    heading: data.name,
    wide: true,
    before: html`<p class="kicker">${t.text('statsKicker')}</p>`,
    body: html`<p class="short-url"><a class="url" href="/${data.alias}">${data.shortUrl}</a></p>
      <nav class="ranges" aria-label="${t.text('statsRange')}">${ranges}</nav>
      <p class="total">${total}</p>
      <div class="dashboard">
        ${chart(t, data)}
        ${worldMap(t, data.countries)}
        ${data.dimensions.map((dimension) => rankedList(t, dimension.name, dimension.rows, data.total))}
      </div>
      <p class="muted">${t.html('geoCredit', { source: html`<a href="https://db-ip.com">DB-IP</a>` })}</p>`,
  };
}
