// Child process of the timing gate: times the engine of one source tree (`--root`) on the given
// scenarios and prints the medians as JSON on stdout. The harness (this file) is always the
// candidate's, so both trees are measured the same way; only the engine under test differs.
// It uses the tree's public entry points only: loadScheduleFile, resolveSolverConfig, simulate and
// solveWithGlpk, solving on this thread (no worker pool, no HTTP).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { measure, median } from './lib/stats.ts';

export interface ProbeScenario { key: string; schedule: string; disrupted_flight: string; min_delay_minutes: number; airline: string; config?: Record<string, unknown> }
export interface ProbeResult { root: string; scenarios: Record<string, { median_ms: number; n: number }> }

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    scenarios: { type: 'string' },
    'schedules-dir': { type: 'string' },
    'budget-ms': { type: 'string', default: '400' },
    'min-reps': { type: 'string', default: '5' },
    /** Planted regression (gate self-test only): spin this fraction of each call's own time after it. */
    slowdown: { type: 'string', default: '0' },
  },
});
const root = values.root!;
const scenarios = JSON.parse(readFileSync(values.scenarios!, 'utf8')) as ProbeScenario[];
const load = (path: string) => import(pathToFileURL(join(root, path)).href);

const { loadScheduleFile } = await load('src/domain/schedule.ts');
const { simulate } = await load('src/recovery/simulate.ts');
const { resolveSolverConfig } = await load('src/recovery/solver-config.ts');
const { solveWithGlpk } = await load('solver-wasm/glpk-solve.ts');
const glpkEntry = createRequire(join(root, 'package.json')).resolve('glpk.js/node');
const glpk = await ((await import(pathToFileURL(glpkEntry).href)).default as () => Promise<unknown>)();
const port = { solve: async (task: unknown) => solveWithGlpk(glpk, task) };

const schedules = new Map<string, unknown>();
const result: ProbeResult = { root, scenarios: {} };
const options = { minReps: Number(values['min-reps']), maxReps: 500, budgetMs: Number(values['budget-ms']), warmup: 2 };
for (const s of scenarios) {
  if (!schedules.has(s.schedule)) schedules.set(s.schedule, loadScheduleFile(join(values['schedules-dir']!, `${s.schedule}.json`)));
  const resolved = resolveSolverConfig(s.config ?? {});
  if (!resolved.valid) throw new Error(`${s.key}: invalid config in this tree`);
  const request = {
    scenarioId: 'timing', disruptedFlightId: s.disrupted_flight, minDelayMinutes: s.min_delay_minutes,
    airline: s.airline, scheduleName: s.schedule, config: resolved.config,
  };
  const slowdown = Number(values.slowdown);
  const samples = await measure(async () => {
    const started = performance.now();
    await simulate(schedules.get(s.schedule), request, port);
    if (slowdown > 0) {
      const until = performance.now() + (performance.now() - started) * slowdown;
      while (performance.now() < until) { /* planted regression */ }
    }
  }, options);
  result.scenarios[s.key] = { median_ms: median(samples)!, n: samples.length };
}
process.stdout.write(`${JSON.stringify(result)}\n`);
