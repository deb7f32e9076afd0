import { useEffect, useId, useRef, useState, type RefObject } from 'react';

export interface Bar {
  /** The bucket's name on the axis and in the table (a day, an hour, a month). */
  label: string;
  value: number;
}

interface BarChartProps {
  title: string;
  bars: readonly Bar[];
  /** The column headings of the table that says the same as the chart. */
  labelHeading: string;
  valueHeading: string;
  showTable: string;
  formatNumber: (value: number) => string;
}

/** The drawing's width before the page is measured (and where it cannot be, as in tests). */
const DEFAULT_WIDTH = 640;
const HEIGHT = 240;
const PAD = { top: 12, right: 8, bottom: 28, left: 44 };
/** Room for one date under the axis. */
const LABEL_WIDTH = 84;

/**
 * The element's width in CSS pixels, followed as it changes: the chart is drawn at its real size, so its text keeps
 * its size from a phone to a wide screen instead of being scaled with the drawing.
 */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const element = ref.current;
    if (element === null || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.round(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** A round upper bound for the axis: 1, 2 or 5 times a power of ten, at least `max`. */
function niceCeiling(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= max) ?? 10;
  return step * power;
}

/**
 * Clicks over time as plain SVG bars: a few hundred bytes of code where a chart library is a hundred kilobytes.
 * The same numbers follow in a table for screen readers and for copying.
 */
export function BarChart({
  title,
  bars,
  labelHeading,
  valueHeading,
  showTable,
  formatNumber,
}: BarChartProps) {
  const titleId = useId();
  const figure = useRef<HTMLElement>(null);
  const width = Math.max(240, useWidth(figure));
  const top = niceCeiling(Math.max(0, ...bars.map((bar) => bar.value)));
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, bars.length);
  const barWidth = Math.max(1, slot * 0.8);
  const maxLabels = Math.max(1, Math.floor(plotWidth / LABEL_WIDTH));
  const labelEvery = Math.max(1, Math.ceil(bars.length / maxLabels));
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => share * top);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;

  return (
    <figure className="chart" ref={figure}>
      <svg viewBox={`0 0 ${width} ${HEIGHT}`} role="img" aria-labelledby={titleId} className="chart-svg">
        <title id={titleId}>{title}</title>
        {ticks.map((tick) => (
          <g key={tick} className="chart-grid">
            <line x1={PAD.left} x2={width - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text x={PAD.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
              {Number.isInteger(tick) ? formatNumber(tick) : ''}
            </text>
          </g>
        ))}
        {bars.map((bar, index) => {
          const x = PAD.left + index * slot + (slot - barWidth) / 2;
          return (
            <g key={bar.label} className="chart-bar">
              <rect x={x} y={y(bar.value)} width={barWidth} height={Math.max(0, y(0) - y(bar.value))}>
                <title>{`${bar.label}: ${formatNumber(bar.value)}`}</title>
              </rect>
              {index % labelEvery === 0 && (
                <text
                  x={x + barWidth / 2}
                  y={HEIGHT - PAD.bottom + 16}
                  textAnchor="middle"
                  className="chart-label"
                >
                  {bar.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <details className="chart-table">
        <summary>{showTable}</summary>
        <table>
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{labelHeading}</th>
              <th scope="col">{valueHeading}</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.label}>
                <td>{bar.label}</td>
                <td className="number">{formatNumber(bar.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
