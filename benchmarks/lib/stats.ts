// Small statistics and formatting helpers shared by the benchmark scripts. Percentiles use the
// nearest-rank method on the sorted samples (no interpolation), so p95 of 20 samples is the 19th.

export function percentile(samples: readonly number[], p: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** Median; for an even count, the mean of the two middle samples. */
export function median(samples: readonly number[]): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function geometricMean(values: readonly number[]): number | null {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (positive.length === 0) return null;
  return Math.exp(positive.reduce((sum, v) => sum + Math.log(v), 0) / positive.length);
}

export interface Summary { n: number; median_ms: number | null; p95_ms: number | null; min_ms: number | null; max_ms: number | null }

export function summarize(samplesMs: readonly number[]): Summary {
  return {
    n: samplesMs.length,
    median_ms: round(median(samplesMs)),
    p95_ms: round(percentile(samplesMs, 95)),
    min_ms: round(samplesMs.length ? Math.min(...samplesMs) : null),
    max_ms: round(samplesMs.length ? Math.max(...samplesMs) : null),
  };
}

/** Rounds to 3 decimals (microseconds for millisecond figures); keeps null. */
export function round(value: number | null, digits = 3): number | null {
  if (value === null || !Number.isFinite(value)) return value === null ? null : value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export interface MeasureOptions {
  /** Samples always taken (after one unmeasured warm-up call). */
  minReps: number;
  /** Samples never exceeded. */
  maxReps: number;
  /** Stop after minReps once this much time has been spent measuring, milliseconds. */
  budgetMs: number;
  /** Unmeasured calls before sampling (JIT warm-up, caches); default 1. */
  warmup?: number;
}

/**
 * Time `fn` repeatedly: `warmup` unmeasured calls, then at least minReps and at most maxReps
 * samples, stopping early once budgetMs of measured time has passed. Returns milliseconds per call.
 */
export async function measure(fn: () => unknown | Promise<unknown>, options: MeasureOptions): Promise<number[]> {
  for (let i = 0; i < (options.warmup ?? 1); i++) await fn();
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < options.maxReps) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
    if (samples.length >= options.minReps && performance.now() - started >= options.budgetMs) break;
  }
  return samples;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)}s`;
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  return ms.toFixed(2);
}

export function formatRatio(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '-';
  return ratio >= 10 ? `${ratio.toFixed(0)}x` : `${ratio.toFixed(2)}x`;
}
