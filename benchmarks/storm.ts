// npm run bench -- --parts storm: the storms of issue 23 on the default schedule, each at several time
// limits, through the whole pipeline (prepare -> solve -> read -> rank) with the solver pool, as
// /simulate runs them. Prints per storm and limit the integrated option's cost, lower bound, gap and
// the bound's source, the engine that answered, and the wall time; medians over --runs runs.
//
//   npm run bench -- --parts storm [--limits 2000,10000] [--runs 3] [--out benchmarks/reports/x.json]
//
// The storms: `issue-23` (three inbounds to VIE 75 minutes late, a VIE aircraft out of service for six
// hours, VIE capped at 4 departures and 4 arrivals an hour from 05:00 to 08:00 UTC: the storm the issue
// posted as a user would) and `default/hub-storm` of benchmarks/scenarios.json.
//
// A run that fails (the pipeline rejects, e.g. "No solver worker became free" on a loaded machine) is
// a result, not the end of the benchmark: it is kept with its error, counted in the table, listed
// under it and in the JSON report, and the part exits 1 after reporting every other run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { readCommandLine, usageError, UsageRefusal } from '../src/cli/args.ts';
import type { Disruption } from '../src/domain/disruption.ts';
import { loadScheduleFile } from '../src/formats/schedule-json/read-schedule.ts';
import { resolveSolverConfig } from '../src/recovery/model/solver-config.ts';
import { simulate } from '../src/recovery/pipeline.ts';
import { createSolverPool } from '../solver-wasm/pool.ts';
import { describeMachine } from './lib/machine.ts';
import { glpkVersion } from './lib/glpk-main-thread.ts';
import { announce, progress } from './lib/progress.ts';
import { BENCHMARKS_DIR, REPO_DIR, loadScenarios, simulationRequest } from './lib/scenarios.ts';
import { schedulePath } from './lib/schedules.ts';
import { median } from './lib/stats.ts';
import { table } from './lib/table.ts';

const minutes = (iso: string) => Date.parse(iso) / 60_000;

/** The storm of issue 23, on flights of the default schedule. */
export const ISSUE_23_STORM: Disruption[] = [
  { type: 'airport_capacity', airport: 'VIE', fromMinutes: minutes('2026-11-21T05:00:00Z'), toMinutes: minutes('2026-11-21T08:00:00Z'), maxDeparturesPerHour: 4, maxArrivalsPerHour: 4 },
  { type: 'aircraft_unavailable', tail: 'OE-NWU', fromMinutes: minutes('2026-11-21T05:00:00Z'), toMinutes: minutes('2026-11-21T11:00:00Z') },
  { type: 'flight_delay', flightId: 'NV644_2026-11-21T04:30:00Z', minDelayMinutes: 75 },
  { type: 'flight_delay', flightId: 'NV369_2026-11-21T06:10:00Z', minDelayMinutes: 75 },
  { type: 'flight_delay', flightId: 'NV415_2026-11-21T06:20:00Z', minDelayMinutes: 75 },
];

/** Whether the command line asks for this part (`--parts storm`); it runs on its own. */
export function stormPartRequested(argv: readonly string[]): boolean {
  const i = argv.findIndex((a) => a === '--parts' || a.startsWith('--parts='));
  if (i === -1) return false;
  const value = argv[i]!.startsWith('--parts=') ? argv[i]!.slice('--parts='.length) : argv[i + 1] ?? '';
  const parts = value.split(',').map((p) => p.trim());
  if (parts.includes('storm') && parts.length > 1) throw new UsageRefusal('--parts storm runs on its own (it has its own options): run the other parts separately.');
  return parts.includes('storm');
}

const COMMAND = 'npm run bench -- --parts storm';

interface StormRun {
  storm: string; limit_ms: number; wall_ms: number; cost: number | null; bound: number | null; gap: number | null; status: string | null; engine: string | null; bound_source: string | null;
  /** What the integrated option's solve found out (its facts: which plan of the search answered, its passengers; docs/model.md 4.6); null without an answer. */
  facts: unknown;
  /** Why the run gave no answer (the simulation rejected); null when it answered. */
  error: string | null;
}

export async function runStormPart(argv: string[]): Promise<number> {
  const { values } = readCommandLine({
    command: COMMAND,
    usage: `Usage: npm run bench -- --parts storm [--limits 2000,10000] [--runs 3] [--out FILE]

Posts the storms of issue 23 (its VIE storm and default/hub-storm) to the service over HTTP at each
time limit, and prints cost, bound, gap, status, engine and the bound's source (medians of the runs).
  --limits MS,...   time limits in milliseconds (50-120000; default 2000,10000)
  --runs N          runs per storm and limit (default 3)
  --out FILE        the JSON report
  --help            this text`,
    args: argv,
    options: { parts: { type: 'string' }, limits: { type: 'string', default: '2000,10000' }, runs: { type: 'string', default: '3' }, out: { type: 'string' } },
  });
  const limits = values.limits.split(',').map(Number);
  const runs = Number(values.runs);
  if (limits.some((l) => !Number.isInteger(l) || l < 50 || l > 120_000) || !Number.isInteger(runs) || runs < 1) usageError(COMMAND, '--limits takes milliseconds (50-120000), --runs a whole number.');
  const schedule = loadScheduleFile(schedulePath('default'));
  const hubStorm = loadScenarios().find((s) => s.key === 'default/hub-storm')!;
  const storms: { name: string; disruptions: Disruption[] }[] = [
    { name: 'issue-23', disruptions: ISSUE_23_STORM },
    { name: 'default/hub-storm', disruptions: simulationRequest(hubStorm).disruptions },
  ];
  const pool = createSolverPool();
  const results: StormRun[] = [];
  try {
    await pool.ready();
    for (const storm of storms) {
      for (const limit of limits) {
        for (let r = 0; r < runs; r++) {
          progress(`${storm.name} at ${limit} ms, run ${r + 1}/${runs}`);
          const resolved = resolveSolverConfig({ solver: { time_limit_ms: limit } });
          if (!resolved.valid) throw new Error('invalid configuration');
          const started = performance.now();
          try {
            const result = await simulate(schedule, { scenarioId: `bench:storm:${storm.name}`, airline: 'NV', scheduleName: 'default', config: resolved.config, disruptions: storm.disruptions, disruptedFlightId: null }, pool);
            const integrated = result.options.find((o) => o.strategy === 'integrated');
            results.push({
              storm: storm.name, limit_ms: limit, wall_ms: Math.round(performance.now() - started), cost: integrated?.kpis.cost ?? null, bound: integrated?.solver.lowerBound ?? null,
              gap: integrated?.solver.mipGap ?? null, status: integrated?.solver.status ?? null, engine: integrated?.solver.engine ?? null,
              bound_source: integrated?.solver.lowerBoundSource ?? null, facts: integrated?.solver.facts ?? null, error: null,
            });
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            announce(`${storm.name} at ${limit} ms, run ${r + 1}/${runs} FAILED: ${message}`);
            results.push({ storm: storm.name, limit_ms: limit, wall_ms: Math.round(performance.now() - started), cost: null, bound: null, gap: null, status: null, engine: null, bound_source: null, facts: null, error: message });
          }
        }
      }
    }
  } finally {
    await pool.close();
  }
  const med = (xs: (number | null)[]) => { const v = xs.filter((x): x is number => x !== null); return v.length ? median(v) : null; };
  const money = (x: number | null) => (x === null ? '-' : x.toLocaleString('en-US', { maximumFractionDigits: 1 }));
  const rows = storms.flatMap((storm) => limits.map((limit) => {
    const all = results.filter((r) => r.storm === storm.name && r.limit_ms === limit);
    // The medians are of the runs that answered; the failed ones are counted in their own column.
    const mine = all.filter((r) => r.error === null);
    const gap = med(mine.map((r) => r.gap));
    return [storm.name, `${limit}`, money(med(mine.map((r) => r.cost))), money(med(mine.map((r) => r.bound))), gap === null ? '-' : `${(100 * gap).toFixed(1)} %`,
      [...new Set(mine.map((r) => r.bound_source))].join(','), String(med(mine.map((r) => r.wall_ms))), [...new Set(mine.map((r) => r.engine))].join(','),
      all.map((r) => (r.error === null ? money(r.cost) : 'failed')).join(' / '), `${all.length - mine.length}`];
  }));
  process.stdout.write(`\n${table(['storm', 'limit ms', 'cost', 'bound', 'gap', 'bound source', 'wall ms', 'engine', 'costs of the runs', 'failed runs'], rows, `Storms on the default schedule, integrated option, medians of the runs that answered (${runs} per storm and limit):`)}`);
  const failed = results.filter((r) => r.error !== null);
  for (const r of failed) process.stdout.write(`failed: ${r.storm} at ${r.limit_ms} ms after ${r.wall_ms} ms: ${r.error}\n`);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = values.out ?? join(BENCHMARKS_DIR, 'reports', `storm-${stamp}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ format: 1, part: 'storm', created_at: new Date().toISOString(), command: argv, machine: describeMachine({ glpk: await glpkVersion(), glpsol: null, highs: null }), runs: results }, null, 2)}\n`);
  process.stdout.write(`\nJSON report: ${relative(REPO_DIR, file)}\n`);
  announce(`storm part done${failed.length ? `: ${failed.length} of ${results.length} runs failed` : ''}`);
  return failed.length > 0 ? 1 : 0;
}
