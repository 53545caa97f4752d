import { describe, expect, it } from 'vitest';
import { familyOf, metricNames } from '../helpers/promql.js';

/** The tokenizer the dashboard and rule tests read metric names with. */
describe('metric names in PromQL', () => {
  it.each([
    ['sum by (namespace, job) (rate(bff_graphql_requests_total{outcome=~"A|B"}[5m]))', ['bff_graphql_requests_total']],
    ['histogram_quantile(0.99, sum by (le) (rate(x_bucket{job="$job"}[$__rate_interval])))', ['x_bucket']],
    ['a:b:c / on (namespace, job) group_left(version) bff_build_info', ['a:b:c', 'bff_build_info']],
    ['process_resident_memory_bytes > 400 * 1024 * 1024 and on (job, instance) bff_build_info', ['process_resident_memory_bytes', 'bff_build_info']],
    ['max_over_time(bff_backend_breaker_state[1m]) == 2', ['bff_backend_breaker_state']],
    ['(sum(rate(a[5m])) or b * 0) / c offset 1h', ['a', 'b', 'c']],
    ['1e3 * up == 0 unless absent(z)', ['up', 'z']],
    ['sum without (instance) (m{instance=~"${instance:regex}"})', ['m']],
    ['label_replace(m, "dst", "$1", "src", "(.*)") # a comment naming nothing_total', ['m']],
    ['topk(5, sum by (operation) (increase(n[1h])))', ['n']],
    ['count(count by (version) (bff_build_info))', ['bff_build_info']],
    ['rate(x[5m:1m]) > bool 0', ['x']],
  ])('%s', (expression, names) => {
    expect([...metricNames(expression)].sort()).toEqual([...names].sort());
  });

  it('maps a histogram\'s series to the histogram', () => {
    const histograms = new Set(['h_seconds']);
    expect(['h_seconds_bucket', 'h_seconds_sum', 'h_seconds_count', 'c_count', 'h_seconds'].map((n) => familyOf(n, histograms))).toEqual([
      'h_seconds', 'h_seconds', 'h_seconds', 'c_count', 'h_seconds',
    ]);
  });
});
