// Child process of the timing gate: loads the engine of one source tree (`--root`), then answers
// requests on stdin, one JSON line each ({"key": "<scenario key>"}), with the median time of that
// scenario as one JSON line on stdout. The gate keeps one probe per tree alive and asks them in
// turn, so both trees are measured moments apart under the same load. The harness (this file) is
// always the candidate's; only the engine under test differs. It uses the tree's public entry
// points only: loadScheduleFile, resolveSolverConfig, simulate and solveWithGlpk, solving on this
// thread (no worker pool, no HTTP).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Disruption } from '../src/domain/disruption.ts';
import { measure, median } from './lib/stats.ts';

export interface ProbeScenario {
  key: string; schedule: string; airline: string; config?: Record<string, unknown>;
  /** The request in both engines' terms: a list of disruptions (this tree's), and the single delay (trees before the several-disruption request read these). */
  disruptions: Disruption[]; disrupted_flight: string | null; min_delay_minutes: number | null;
}
export interface ProbeAnswer {
  key: string;
  /** Median wall-clock time of one simulate() call, milliseconds. */
  median_ms: number;
  /** Median CPU time (user + system of this process) of one call, milliseconds. */
  median_cpu_ms: number;
  n: number;
}

const { values } = parseArgs({
  options: {
    root: { type: 'string' },
    scenarios: { type: 'string' },
    'schedules-dir': { type: 'string' },
    'budget-ms': { type: 'string', default: '300' },
    'min-reps': { type: 'string', default: '5' },
    /** Planted regression (gate self-test only): spin this fraction of each call's own time after it. */
    slowdown: { type: 'string', default: '0' },
  },
});
const root = values.root!;
const scenarios = new Map((JSON.parse(readFileSync(values.scenarios!, 'utf8')) as ProbeScenario[]).map((s) => [s.key, s]));
const load = (path: string) => import(pathToFileURL(join(root, path)).href);

// The schedule reader moved to src/formats/ in the restructure: a baseline tree from before it has it in the domain.
const { loadScheduleFile } = existsSync(join(root, 'src/formats/schedule-json/read-schedule.ts'))
  ? await load('src/formats/schedule-json/read-schedule.ts') : await load('src/domain/schedule.ts');
const { simulate } = await load('src/recovery/pipeline.ts');
// The solver config moved into src/recovery/model/ when recovery/ was split into rooms.
const { resolveSolverConfig } = existsSync(join(root, 'src/recovery/model/solver-config.ts'))
  ? await load('src/recovery/model/solver-config.ts') : await load('src/recovery/solver-config.ts');
const { solveWithGlpk } = await load('solver-wasm/glpk-solve.ts');
const glpkEntry = createRequire(join(root, 'package.json')).resolve('glpk.js/node');
const glpk = await ((await import(pathToFileURL(glpkEntry).href)).default as () => Promise<unknown>)();
const port = { solve: async (task: unknown) => solveWithGlpk(glpk, task) };

const schedules = new Map<string, unknown>();
const options = { minReps: Number(values['min-reps']), maxReps: 500, budgetMs: Number(values['budget-ms']), warmup: 2 };
const slowdown = Number(values.slowdown);

async function time(key: string): Promise<ProbeAnswer> {
  const s = scenarios.get(key);
  if (!s) throw new Error(`unknown scenario ${key}`);
  if (!schedules.has(s.schedule)) schedules.set(s.schedule, loadScheduleFile(join(values['schedules-dir']!, `${s.schedule}.json`)));
  const resolved = resolveSolverConfig(s.config ?? {});
  if (!resolved.valid) throw new Error(`${s.key}: its config is invalid in this tree`);
  const request = {
    scenarioId: 'timing', disruptedFlightId: s.disrupted_flight, minDelayMinutes: s.min_delay_minutes, disruptions: s.disruptions,
    airline: s.airline, scheduleName: s.schedule, config: resolved.config,
  };
  const cpu: number[] = [];
  const samples = await measure(async () => {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    await simulate(schedules.get(s.schedule), request, port);
    if (slowdown > 0) {
      const until = performance.now() + (performance.now() - started) * slowdown;
      while (performance.now() < until) { /* planted regression */ }
    }
    const used = process.cpuUsage(cpuStarted);
    cpu.push((used.user + used.system) / 1000);
  }, options);
  // measure() ran `warmup` unmeasured calls first: their CPU times are the first entries.
  return { key, median_ms: median(samples)!, median_cpu_ms: median(cpu.slice(cpu.length - samples.length))!, n: samples.length };
}

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { key } = JSON.parse(line) as { key: string };
  process.stdout.write(`${JSON.stringify(await time(key))}\n`);
}
