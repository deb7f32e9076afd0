import { geoEqualEarth, geoPath } from 'd3-geo';
import codes from 'i18n-iso-countries/codes.json';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { useId } from 'react';
import atlas from 'world-atlas/countries-110m.json';

export interface CountryCount {
  /** ISO 3166-1 alpha-2, as the API's country values begin (`GB:United Kingdom`). */
  code: string;
  /** The country's name in the reader's language. */
  name: string;
  count: number;
}

interface Shape {
  code: string | undefined;
  d: string;
}

const WIDTH = 960;
const HEIGHT = 470;
/** Shades of the legend, the first for no clicks. */
export const MAP_STEPS = 5;

let shapes: Shape[] | undefined;

/**
 * The countries of Natural Earth's 1:110m map (the `world-atlas` package, bundled: nothing is fetched), projected
 * once on first use; Antarctica is left out, as no visit comes from it and it would take a fifth of the height.
 */
function worldShapes(): Shape[] {
  if (shapes !== undefined) return shapes;
  // world-atlas names countries by their ISO 3166-1 numeric code; the API by the alpha-2 one.
  const alpha2 = new Map(codes.map(([two, , numeric]) => [numeric, two]));
  const topology = atlas as unknown as Topology<{ countries: GeometryCollection }>;
  const countries = feature(topology, topology.objects.countries);
  countries.features = countries.features.filter((country) => country.id !== '010');
  // A tenth of a unit of a 960-wide drawing is finer than any screen shows it.
  const path = geoPath(geoEqualEarth().fitSize([WIDTH, HEIGHT], countries)).digits(1);
  shapes = countries.features.flatMap((country) => {
    const d = path(country);
    return d === null ? [] : [{ code: alpha2.get(String(country.id)), d }];
  });
  return shapes;
}

/** The shade of a count: 0 for none, else 1..MAP_STEPS-1 by its share of the highest. */
export function mapStep(count: number, max: number): number {
  if (count <= 0 || max <= 0) return 0;
  return Math.max(1, Math.ceil((count / max) * (MAP_STEPS - 1)));
}

interface WorldMapProps {
  title: string;
  rows: readonly CountryCount[];
  /** The text of a country's shape and row: its name and its count. */
  describe: (name: string, count: number) => string;
  countryHeading: string;
  countHeading: string;
  legendTitle: string;
  /** The legend's words for no clicks, and for a shade's range of counts. */
  none: string;
  between: (low: string, high: string) => string;
  formatNumber: (value: number) => string;
  /** The country's name where the reader's names lack one (a shape the data names by no code). */
  nameOf: (code: string) => string;
}

/**
 * Visits by country on a world map, with the same numbers in a table beside it: the shades are never the only way
 * to read a count. Each shape names its country and count (its title), and the legend gives each shade's range.
 */
export function WorldMap(props: WorldMapProps) {
  const { title, rows, describe, formatNumber } = props;
  const titleId = useId();
  const counts = new Map(rows.map((row) => [row.code, row.count]));
  const max = Math.max(0, ...rows.map((row) => row.count));
  const sorted = [...rows].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  // A shade's counts: those whose share of the highest rounds up to it; a shade no whole count reaches is left out.
  const ranges = Array.from({ length: MAP_STEPS - 1 }, (_, index) => {
    const step = index + 1;
    return {
      step,
      low: Math.floor(((step - 1) / (MAP_STEPS - 1)) * max) + 1,
      high: Math.floor((step / (MAP_STEPS - 1)) * max),
    };
  }).filter((range) => range.low <= range.high);

  return (
    <div className="world-map">
      <figure className="world-map-figure">
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-labelledby={titleId}
          className="world-map-svg"
        >
          <title id={titleId}>{title}</title>
          {worldShapes().map((shape, index) => {
            const count = shape.code === undefined ? 0 : (counts.get(shape.code) ?? 0);
            const name = shape.code === undefined ? '' : props.nameOf(shape.code);
            return (
              <path
                key={shape.code ?? `shape-${index}`}
                d={shape.d}
                className={`map-step-${mapStep(count, max)}`}
              >
                {name !== '' && <title>{describe(name, count)}</title>}
              </path>
            );
          })}
        </svg>
        <figcaption>
          <span className="world-map-legend-title">{props.legendTitle}</span>
          <ul className="world-map-legend">
            <li>
              <Swatch step={0} />
              {props.none}
            </li>
            {ranges.map(({ step, low, high }) => (
              <li key={step}>
                <Swatch step={step} />
                {props.between(formatNumber(low), formatNumber(high))}
              </li>
            ))}
          </ul>
        </figcaption>
      </figure>
      <div className="world-map-table table-scroll">
        <table>
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{props.countryHeading}</th>
              <th scope="col">{props.countHeading}</th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((row) => (
              <tr key={row.code}>
                <th scope="row">{row.name}</th>
                <td className="number">{formatNumber(row.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Swatch({ step }: { step: number }) {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" className="world-map-swatch">
      <rect width="16" height="16" className={`map-step-${step}`} />
    </svg>
  );
}
