import { useId } from 'react';
import type { Bar } from '../../components/BarChart';

export interface Series {
  label: string;
  bars: readonly Bar[];
}

interface ComparisonChartProps {
  title: string;
  series: readonly Series[];
  labelHeading: string;
  showTable: string;
  formatNumber: (value: number) => string;
}

const WIDTH = 640;
const HEIGHT = 260;
const PAD = { top: 12, right: 12, bottom: 28, left: 44 };
/** A series' line: solid, dashed, dotted..., so that the series differ without their colours. */
const DASHES = ['', '8 4', '2 4', '10 4 2 4', '1 6'];
/** Points drawn with a marker at most, so that markers stay apart on a long period. */
const MARKED_POINTS = 40;

/** A series' marker at (x, y): circle, square, triangle, diamond, cross. */
function Marker({ shape, x, y }: { shape: number; x: number; y: number }) {
  switch (shape % 5) {
    case 0:
      return <circle cx={x} cy={y} r={4} />;
    case 1:
      return <rect x={x - 3.5} y={y - 3.5} width={7} height={7} />;
    case 2:
      return <path d={`M${x},${y - 5}L${x + 5},${y + 4}L${x - 5},${y + 4}Z`} />;
    case 3:
      return <path d={`M${x},${y - 5}L${x + 5},${y}L${x},${y + 5}L${x - 5},${y}Z`} />;
    default:
      return <path d={`M${x - 4},${y - 4}L${x + 4},${y + 4}M${x + 4},${y - 4}L${x - 4},${y + 4}`} />;
  }
}

/** Every bucket any series has, in order: the buckets' labels (`Y-m-d`, `Y-m`...) sort as text. */
function allLabels(series: readonly Series[]): string[] {
  return [...new Set(series.flatMap((one) => one.bars.map((bar) => bar.label)))].sort();
}

/**
 * Clicks over time of a few items on one chart, a line each: each line has its own dash and marker beside its
 * colour, the legend shows all three, and a table gives every number.
 */
export function ComparisonChart({
  title,
  series,
  labelHeading,
  showTable,
  formatNumber,
}: ComparisonChartProps) {
  const titleId = useId();
  const labels = allLabels(series);
  const values = series.map((one) => {
    const counts = new Map(one.bars.map((bar) => [bar.label, bar.value]));
    return labels.map((label) => counts.get(label) ?? 0);
  });
  const top = Math.max(1, ...values.flat());
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number) =>
    PAD.left + (labels.length <= 1 ? plotWidth / 2 : (index / (labels.length - 1)) * plotWidth);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const markEvery = Math.max(1, Math.ceil(labels.length / MARKED_POINTS));
  const last = labels.length - 1;

  return (
    <figure className="chart comparison">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} className="chart-svg">
        <title id={titleId}>{title}</title>
        {[0, 0.5, 1].map((share) => (
          <g key={share} className="chart-grid">
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(share * top)} y2={y(share * top)} />
            <text x={PAD.left - 6} y={y(share * top)} dy="0.32em" textAnchor="end">
              {Number.isInteger(share * top) ? formatNumber(share * top) : ''}
            </text>
          </g>
        ))}
        {labels.length > 0 && (
          <g className="chart-grid">
            <text x={x(0)} y={HEIGHT - 8} textAnchor={last > 0 ? 'start' : 'middle'}>
              {labels[0]}
            </text>
            {last > 0 && (
              <text x={x(last)} y={HEIGHT - 8} textAnchor="end">
                {labels[last]}
              </text>
            )}
          </g>
        )}
        {values.map((points, index) => (
          <g key={series[index]?.label ?? index} className={`series series-${index + 1}`}>
            <polyline
              points={points.map((value, at) => `${x(at)},${y(value)}`).join(' ')}
              strokeDasharray={DASHES[index % DASHES.length]}
            />
            {points.map((value, at) =>
              at % markEvery === 0 || at === last ? (
                <Marker key={labels[at]} shape={index} x={x(at)} y={y(value)} />
              ) : null,
            )}
          </g>
        ))}
      </svg>
      <ul className="legend">
        {series.map((one, index) => (
          <li key={one.label}>
            <svg viewBox="0 0 36 12" aria-hidden="true" className={`legend-key series series-${index + 1}`}>
              <line x1={2} x2={34} y1={6} y2={6} strokeDasharray={DASHES[index % DASHES.length]} />
              <Marker shape={index} x={18} y={6} />
            </svg>
            {one.label}
          </li>
        ))}
      </ul>
      <details className="chart-table">
        <summary>{showTable}</summary>
        <div className="table-scroll">
          <table>
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{labelHeading}</th>
                {series.map((one) => (
                  <th key={one.label} scope="col">
                    {one.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((label, at) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  {values.map((points, index) => (
                    <td key={series[index]?.label ?? index} className="number">
                      {formatNumber(points[at] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
