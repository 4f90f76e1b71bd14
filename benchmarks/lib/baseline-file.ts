// benchmarks/baseline.json: the committed counter baseline the gate compares against.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COUNTER_TIME_LIMIT_MS, type CounterReport } from './counters.ts';
import { DEFAULT_TOLERANCES, type Baseline } from './gate.ts';
import { reviewableJson } from './json.ts';

export const BASELINE_FILE = fileURLToPath(new URL('../baseline.json', import.meta.url));

export function readBaseline(file = BASELINE_FILE): Baseline | null {
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as Baseline;
}

/**
 * Write a baseline: `report`'s scenarios replace those of `previous`; other scenarios of `previous`
 * are kept when `order` (the keys of scenarios.json, in its order) still names them.
 */
export function writeBaseline(report: CounterReport, glpkJs: string, previous: Baseline | null, order: readonly string[], file = BASELINE_FILE): Baseline {
  const ordered: CounterReport['scenarios'] = {};
  for (const key of order) {
    const value = report.scenarios[key] ?? previous?.scenarios[key];
    if (value) ordered[key] = value;
  }
  const baseline: Baseline = {
    format: 1,
    about: 'Machine-independent counters of every benchmark scenario, compared by `npm run bench:check`. Rewrite deliberately with `npm run bench:baseline` and review the diff: every changed line is one solve whose model or work changed.',
    tolerances: previous?.tolerances ?? DEFAULT_TOLERANCES,
    glpk_js: glpkJs,
    counter_time_limit_ms: COUNTER_TIME_LIMIT_MS,
    scenarios: ordered,
  };
  writeFileSync(file, `${reviewableJson(baseline)}\n`);
  return baseline;
}
