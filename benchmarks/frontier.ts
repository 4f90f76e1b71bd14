// `npm run bench -- --frontier`: the cost/time frontier of the scope's size (issue 24, item 4). The
// same single delays (the committed ones and those drawn with a fixed seed) posted over HTTP to this
// tree's service with config.solver.max_candidate_aircraft set so that the scope holds 7, 10, 14, 20
// aircraft and the most the configuration allows (61: 73 % of the default schedule's 84 NV aircraft,
// a ninth of the large one's 540), all at the default time limit, one size after the other per
// scenario. Per size: p50 / p95 of the answer, how many integrated options were proven optimal, and
// what the wider scope bought against the default one (how many plans cheaper, by how much).
//
//   npm run bench -- --frontier [--only default,large] [--seeded 30] [--seed 24] [--sizes 7,10,14,20,61] [--out file.json]
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { readCommandLine, usageError } from '../src/cli/args.ts';
import { DEFAULT_SOLVER_CONFIG } from '../src/recovery/model/solver-config.ts';
import { postJson, startServer } from './lib/http.ts';
import { announce, progress } from './lib/progress.ts';
import { BENCHMARKS_DIR, loadScenarios, SCHEDULE_NAMES, selectScenarios, simulateBody, type Scenario } from './lib/scenarios.ts';
import { loadSchedulesFor } from './lib/schedules.ts';
import { DEFAULT_SEED, seededSingleDelays } from './lib/seeded-delays.ts';
import { formatMs, median, percentile } from './lib/stats.ts';
import { table } from './lib/table.ts';

export function frontierRequested(argv: readonly string[]): boolean {
  return argv.includes('--frontier');
}

interface Answer { ms: number; cost: number | null; proven: boolean; bounded: boolean }

export async function runFrontier(argv: readonly string[]): Promise<number> {
  const { values } = readCommandLine({
    command: 'npm run bench',
    usage: `Usage: npm run bench -- --frontier [--only default,large] [--seeded 30] [--seed ${DEFAULT_SEED}] [--sizes 7,10,14,20,61] [--out FILE]

The cost/time frontier of the scope's size: the same single delays posted with scopes of each size,
at the default time limit; per size p50 / p95, integrated options proven optimal, plans made cheaper.
  --only LIST             schedules (default default,large)
  --seeded N              single delays drawn with the seed, besides the committed ones (default 30)
  --seed N                the seed of the drawn delays
  --sizes LIST            scope sizes in aircraft (default 7,10,14,20,61; the default size is always added)
  --out FILE              the JSON report
  --help                  this text`,
    args: [...argv],
    options: {
      frontier: { type: 'boolean' },
      only: { type: 'string', default: 'default,large' },
      seeded: { type: 'string', default: '30' },
      seed: { type: 'string', default: String(DEFAULT_SEED) },
      sizes: { type: 'string', default: '7,10,14,20,61' },
      out: { type: 'string' },
    },
  });
  const only = values.only.split(',').map((s) => s.trim());
  for (const name of only) if (!(SCHEDULE_NAMES as readonly string[]).includes(name)) usageError('npm run bench', `--only: unknown schedule '${name}'`);
  const sizes = values.sizes.split(',').map(Number);
  const defaultSize = DEFAULT_SOLVER_CONFIG.solver.max_candidate_aircraft + 1;
  if (!sizes.includes(defaultSize)) sizes.unshift(defaultSize);
  const committed = selectScenarios(loadScenarios(), { schedules: only }).filter((s) => s.disrupted_flight !== undefined);
  const schedules = loadSchedulesFor(committed);
  const scenarios: Scenario[] = [];
  for (const name of only) {
    const mine = committed.filter((s) => s.schedule === name);
    scenarios.push(...mine, ...seededSingleDelays(schedules.get(name)!, name as Scenario['schedule'], mine[0]!, Number(values.seeded), Number(values.seed), mine));
  }
  // The widest scope needs more routes per model than the service allows by default.
  const routes = DEFAULT_SOLVER_CONFIG.solver.max_routes_per_aircraft * Math.max(...sizes);
  const server = await startServer({ SIMULATION_MAX_MODEL_ROUTES: String(routes), RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_SIMULATE_PER_MINUTE: '0' });
  try {
    const load = loadavg()[0]!;
    const answers = new Map<string, Map<number, Answer>>();
    for (const [i, scenario] of scenarios.entries()) {
      const bySize = new Map<number, Answer>();
      answers.set(scenario.key, bySize);
      // The sizes in turn, the order reversed every other scenario (the load drifts).
      for (const size of i % 2 === 0 ? sizes : [...sizes].reverse()) {
        progress(`${i + 1}/${scenarios.length} ${scenario.key}, ${size} aircraft`);
        const body = simulateBody(scenario);
        body.config = { ...(scenario.config ?? {}), solver: { ...((scenario.config?.solver as object | undefined) ?? {}), max_candidate_aircraft: size - 1 } };
        const answer = await postJson(server, '/simulate', body);
        const options = (answer.body as { options?: { strategy: string; summary: { cost: number }; solver: { status: string; lower_bound: number | null } }[] }).options ?? [];
        const integrated = options.find((o) => o.strategy === 'integrated');
        bySize.set(size, { ms: answer.ms, cost: answer.status === 200 ? integrated?.summary.cost ?? null : null, proven: integrated?.solver.status === 'optimal', bounded: (integrated?.solver.lower_bound ?? 0) > 0 });
      }
    }
    const loadAfter = loadavg()[0]!;
    const rows: string[][] = [];
    const report: Record<string, unknown>[] = [];
    for (const name of only) {
      const keys = scenarios.filter((s) => s.schedule === name).map((s) => s.key);
      for (const size of sizes) {
        const list = keys.map((k) => answers.get(k)!.get(size)!);
        const ms = list.map((a) => a.ms);
        const gains: number[] = [];
        let dearer = 0;
        for (const k of keys) {
          const base = answers.get(k)!.get(defaultSize)!;
          const wide = answers.get(k)!.get(size)!;
          if (base.cost === null || wide.cost === null) continue;
          const change = (base.cost - wide.cost) / Math.max(1, base.cost);
          if (change > 1e-6) gains.push(change);
          else if (change < -1e-6) dearer++;
        }
        const mean = gains.length ? gains.reduce((s, g) => s + g, 0) / gains.length : 0;
        const proven = list.filter((a) => a.proven).length;
        rows.push([name, String(size), formatMs(median(ms)), formatMs(percentile(ms, 95)), `${proven}/${list.length}`,
          size === defaultSize ? '(default)' : `${gains.length} (mean ${(100 * mean).toFixed(1)} %, max ${(100 * Math.max(0, ...gains)).toFixed(1)} %)`, String(dearer)]);
        report.push({ schedule: name, aircraft: size, n: list.length, p50_ms: median(ms), p95_ms: percentile(ms, 95), proven, cheaper: gains.length, mean_saving: mean, max_saving: Math.max(0, ...gains), dearer, without_bound: list.filter((a) => a.cost !== null && !a.bounded).length });
      }
    }
    process.stdout.write(table(['schedule', 'aircraft in scope', 'p50 ms', 'p95 ms', 'integrated proven', `cheaper than ${defaultSize} aircraft`, 'dearer'], rows,
      `Scope size frontier: POST /simulate over HTTP at the default time limit (${DEFAULT_SOLVER_CONFIG.solver.time_limit_ms} ms), ${scenarios.length} single delays, load average ${load.toFixed(1)} before and ${loadAfter.toFixed(1)} after, ${availableParallelism()} cores:`));
    const out = values.out ?? join(BENCHMARKS_DIR, 'reports', 'frontier.json');
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify({ load_before: load, load_after: loadAfter, sizes: report, scenarios: Object.fromEntries([...answers].map(([k, m]) => [k, Object.fromEntries(m)])) }, null, 2)}\n`);
    announce(`report written to ${out}`);
    return 0;
  } finally {
    await server.stop();
  }
}
