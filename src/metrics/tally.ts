/**
 * Counts kept in plain numbers and read by Prometheus at scrape time, for the paths where prom-client's own
 * metrics cost too much: each of its `inc` and `observe` calls hashes the labels, which on the redirect path came
 * to a tenth of the time of a visit. A series is created once per distinct set of labels (the sets are bounded:
 * route patterns, statuses, outcomes) and then updated with arithmetic alone.
 */

type Labels = Record<string, string | number>;

/** What a prom-client Registry reads of a metric at scrape time. */
interface Scraped {
  name: string;
  help: string;
  type: string;
  aggregator: string;
  values: { metricName?: string; labels: Labels; value: number }[];
}

/** A counter by labels, registered in a prom-client Registry as a metric of its own. */
export class TallyCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, { labels: Labels; value: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  /** The series of these labels, to count into with `.value += n`. */
  series$(key: string, labels: Labels): { value: number } {
    let entry = this.series.get(key);
    if (entry === undefined) {
      entry = { labels, value: 0 };
      this.series.set(key, entry);
    }
    return entry;
  }

  get(): Promise<Scraped> {
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: [...this.series.values()].map(({ labels, value }) => ({ labels, value })),
    });
  }

  reset(): void {
    for (const entry of this.series.values()) entry.value = 0;
  }
}

export interface HistogramSeries {
  labels: Labels;
  /** Observations per bucket, not cumulative (the last one is +Inf). */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** A histogram by labels, with the same bookkeeping. */
export class TallyHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  /** The series of these labels, to record into with {@link record}. */
  series$(key: string, labels: Labels): HistogramSeries {
    let entry = this.series.get(key);
    if (entry === undefined) {
      entry = { labels, buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.series.set(key, entry);
    }
    return entry;
  }

  record(entry: HistogramSeries, value: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]) bucket += 1;
    entry.buckets[bucket] += 1;
    entry.sum += value;
    entry.count += 1;
  }

  observe(key: string, labels: Labels, value: number): void {
    this.record(this.series$(key, labels), value);
  }

  get(): Promise<Scraped> {
    const values: Scraped['values'] = [];
    for (const { labels, buckets, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += buckets[index];
        values.push({
          metricName: `${this.name}_bucket`,
          labels: { ...labels, le: bound },
          value: cumulative,
        });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels, value: sum });
      values.push({ metricName: `${this.name}_count`, labels, value: count });
    }
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    });
  }

  reset(): void {
    for (const entry of this.series.values()) {
      entry.buckets.fill(0);
      entry.sum = 0;
      entry.count = 0;
    }
  }
}
