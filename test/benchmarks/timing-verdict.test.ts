// The timing gate's decision on made-up pairs: medians of paired ratios against the threshold.
import { describe, expect, it } from 'vitest';
import { MIN_GATED_MS, timingVerdict, type TimingPair } from '../../benchmarks/lib/timing-gate.ts';

const pair = (baseline: Record<string, number>, candidate: Record<string, number>): TimingPair => ({ baseline, candidate });

describe('timing verdict', () => {
  it('same speed with noise, one outlier pair: passes (the median of pair ratios ignores the outlier)', () => {
    const pairs = [
      pair({ 'default/a': 100, 'default/b': 10 }, { 'default/a': 103, 'default/b': 9.8 }),
      pair({ 'default/a': 100, 'default/b': 10 }, { 'default/a': 180, 'default/b': 19 }), // a burst of load hit the candidate
      pair({ 'default/a': 105, 'default/b': 11 }, { 'default/a': 101, 'default/b': 10.9 }),
    ];
    const verdict = timingVerdict(pairs, 10, 'HEAD');
    expect(verdict.failures).toEqual([]);
    expect(verdict.passed).toBe(true);
  });

  it('a scenario 30% slower in every pair fails, with a sentence naming the scenario and the figure', () => {
    const pairs = [0, 1, 2, 3].map((i) => pair({ 'large/x': 50 + i, 'large/y': 20 }, { 'large/x': (50 + i) * 1.3, 'large/y': 20 }));
    const verdict = timingVerdict(pairs, 10, 'main (abc)');
    expect(verdict.passed).toBe(false);
    expect(verdict.failures[0]).toBe('large/x: the engine (simulate in process) takes 67.0 ms, 51.5 ms at main (abc); the median of 4 paired ratios is 1.300, more than the allowed 1.10 (+10%).');
    // The sum over scenarios is slower too (70 → 89 ms, +27%).
    expect(verdict.failures[1]).toMatch(/^all scenarios \(sum\): .* ratios is 1\.2\d\d, more than the allowed 1\.10/);
  });

  it(`scenarios under ${MIN_GATED_MS} ms are reported but not gated one by one`, () => {
    const pairs = [pair({ 'small/tiny': 0.1, 'small/big': 40 }, { 'small/tiny': 0.2, 'small/big': 40 })];
    const verdict = timingVerdict(pairs, 10, 'HEAD');
    expect(verdict.rows.find((r) => r.key === 'small/tiny')).toMatchObject({ ratio: 2, gated: false, slower: false });
    expect(verdict.passed).toBe(true);
  });
});
