import { Registry, type Metric } from 'prom-client';
import { TallyCounter, TallyHistogram } from './tally';

describe('tally metrics in a prom-client registry', () => {
  it('writes a counter per label set and a cumulative histogram with +Inf, sum and count', async () => {
    const registry = new Registry();
    const counter = new TallyCounter('visits_total', 'Visits.');
    const histogram = new TallyHistogram('answer_seconds', 'Answers.', [0.01, 0.1]);
    registry.registerMetric(counter as unknown as Metric);
    registry.registerMetric(histogram as unknown as Metric);
    counter.series$('a', { outcome: 'a' }).value += 2;
    counter.series$('a', { outcome: 'a' }).value += 1;
    counter.series$('b', { outcome: 'b' }).value += 5;
    for (const seconds of [0.005, 0.05, 0.05, 3]) histogram.observe('GET', { method: 'GET' }, seconds);
    expect((await registry.metrics()).trim().split('\n')).toEqual([
      '# HELP visits_total Visits.',
      '# TYPE visits_total counter',
      'visits_total{outcome="a"} 3',
      'visits_total{outcome="b"} 5',
      '',
      '# HELP answer_seconds Answers.',
      '# TYPE answer_seconds histogram',
      'answer_seconds_bucket{method="GET",le="0.01"} 1',
      'answer_seconds_bucket{method="GET",le="0.1"} 3',
      'answer_seconds_bucket{method="GET",le="+Inf"} 4',
      'answer_seconds_sum{method="GET"} 3.105',
      'answer_seconds_count{method="GET"} 4',
    ]);
  });
});
