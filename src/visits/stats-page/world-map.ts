import { geoEqualEarth, geoPath } from 'd3-geo';
import codes from 'i18n-iso-countries/codes.json';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'world-atlas/countries-110m.json';
import { escapeHtml, html, trusted, type Html } from '../../common/html';
import type { Translator } from '../pages/translator';
import { countryName } from './display-names';

const WIDTH = 960;
const HEIGHT = 470;
/** Shades of the legend, the first for no clicks. */
const STEPS = 5;

interface Shape {
  /** ISO 3166-1 alpha-2, as clicks store it (`GB`); undefined for the few shapes the map names by no code. */
  code: string | undefined;
  /** `<path d="…"`, open for its class and title: built once, as the shapes never change. */
  open: string;
  /** The whole element unshaded, as most countries are on any page. */
  plain: string;
}

/**
 * The countries of Natural Earth's 1:110m map (the `world-atlas` package: nothing is fetched), projected once when
 * the service starts and kept as path strings, so that a page only picks each shape's shade. Antarctica is left
 * out: no visit comes from it, and it would take a fifth of the height.
 */
function projectWorld(): Shape[] {
  // world-atlas names countries by their ISO 3166-1 numeric code; clicks by the alpha-2 one.
  const alpha2 = new Map(codes.map(([two, , numeric]) => [numeric, two]));
  const topology = atlas as unknown as Topology<{ countries: GeometryCollection }>;
  const countries = feature(topology, topology.objects.countries);
  countries.features = countries.features.filter((country) => country.id !== '010');
  // Whole units of a 960-wide drawing: finer would only weigh on the page.
  const path = geoPath(geoEqualEarth().fitSize([WIDTH, HEIGHT], countries)).digits(0);
  return countries.features.flatMap((country) => {
    const d = path(country);
    if (d === null) return [];
    // d3 builds a path by appending to a string, which V8 keeps as a chain of pieces that every page's join would
    // walk again: copied once, it is one flat string (the map's share of a page, 2 ms to 0.1 ms).
    const open = Buffer.from(`<path d="${d}"`).toString();
    return [
      {
        code: alpha2.get(String(country.id)),
        open,
        plain: Buffer.from(`${open} class="map-step-0"/>`).toString(),
      },
    ];
  });
}

const SHAPES = projectWorld();

/** The shade of a count: 0 for none, else 1..STEPS-1 by its share of the highest. */
function step(count: number, max: number): number {
  return count <= 0 || max <= 0 ? 0 : Math.max(1, Math.ceil((count / max) * (STEPS - 1)));
}

function swatch(shade: number): Html {
  return html`<svg class="map-swatch" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><rect class="map-step-${shade}" width="16" height="16" /></svg>`;
}

/**
 * Visits by country: a world map in inline SVG (no script, nothing for the policy to allow), each country's shape
 * titled with its name and clicks and shaded by them, a legend of the shades, and a table of the same numbers, so
 * that colour is never the only way to read them.
 */
export function worldMap(t: Translator, rows: readonly { value: string | null; count: number }[]): Html {
  const known = rows.flatMap((row) => {
    const code = row.value?.toUpperCase() ?? '';
    return /^[A-Z]{2}$/.test(code) ? [{ code, name: countryName(code, t), count: row.count }] : [];
  });
  const counts = new Map(known.map((row) => [row.code, row]));
  const max = Math.max(0, ...known.map((row) => row.count));
  // One string joined from the shapes' own, most of them as built at start: a page adds only its countries' titles.
  const shapes = SHAPES.map((shape) => {
    const row = shape.code === undefined ? undefined : counts.get(shape.code);
    if (row === undefined) return shape.plain;
    const title = escapeHtml(`${row.name}: ${t.plural('clicks', row.count)}`);
    return `${shape.open} class="map-step-${step(row.count, max)}"><title>${title}</title></path>`;
  }).join('');
  const legend = Array.from({ length: STEPS - 1 }, (_, index) => ({
    shade: index + 1,
    low: Math.floor((index / (STEPS - 1)) * max) + 1,
    high: Math.floor(((index + 1) / (STEPS - 1)) * max),
  }))
    .filter((range) => range.low <= range.high)
    .map(
      (range) =>
        html`<li>${swatch(range.shade)}${t.number(range.low)}${range.low === range.high ? '' : html`–${t.number(range.high)}`}</li>`,
    );
  const table = known.map(
    (row) => html`<tr><th scope="row">${row.name}</th><td>${t.number(row.count)}</td></tr>`,
  );
  return html`<section class="panel panel-wide" aria-labelledby="map-heading">
  <h2 id="map-heading">${t.text('mapHeading')}</h2>
  <div class="world-map">
    <figure>
      <svg class="map" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="map-heading" focusable="false">${trusted(shapes)}</svg>
      <figcaption><span>${t.text('mapLegend')}</span> <ul class="map-legend"><li>${swatch(0)}${t.text('mapNone')}</li>${legend}</ul></figcaption>
    </figure>
    ${
      // Without a known country the map and the period's total say it all: a table would be empty.
      known.length > 0 &&
      html`<div class="table-scroll"><table id="map-table">
      <caption class="sr-only">${t.text('mapHeading')}</caption>
      <thead><tr><th scope="col">${t.text('columnCountry')}</th><th scope="col">${t.text('columnClicks')}</th></tr></thead>
      <tbody>${table}</tbody>
    </table></div>`
    }
  </div>
</section>`;
}
