// npm run bench -- --parts roadef: the public yardstick. Solves ROADEF/EURO 2009 instances with a
// RoadefSolver (the engine by default, `--solver` names another), scores each with our own scorer,
// and prints per instance: size, disruptions, feasible, cost, the best published cost and the ratio to
// it, the lower bound and gap (when the solver proves one), time to the first feasible solution and to
// within 5 % and 1 % of the final cost, and peak memory. The JSON
// report keeps every figure and each instance's cost-versus-time curve.
//
//   npm run bench -- --parts roadef [--instances <dir>...] [--time-limit-s 30] [--solver engine|engine-keeps-flights|reference]
//                                   [--synthetic] [--out benchmarks/reports/x.json]
//
// Without --instances: A01-A04 from benchmarks/roadef2009 and a synthetic instance of the size of
// the challenge's set X (618 aircraft, 2,178 flight numbers on three days, 28,308 itineraries); with
// --instances: those folders (any instance of the challenge's format), plus the synthetic one if
// --synthetic is given. Each instance runs in a child process, so that its peak memory is its own.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { readCommandLine, usageError, UsageRefusal } from '../src/cli/args.ts';
import { ROADEF_SOLVERS } from '../src/recovery/roadef-adapter.ts';
import { glpkVersion } from './lib/glpk-main-thread.ts';
import { describeMachine } from './lib/machine.ts';
import { announce, progress } from './lib/progress.ts';
import { CHALLENGE_X_SIZE, writeSyntheticInstance } from './lib/roadef-synthetic.ts';
import type { InstanceRun } from './lib/roadef-instance-run.ts';
import { BENCHMARKS_DIR, REPO_DIR } from './lib/scenarios.ts';
import { table } from './lib/table.ts';

/** The bundled public instances, vendored byte for byte (benchmarks/roadef2009/PROVENANCE.md). */
export const BUNDLED_INSTANCES_DIR = resolve(REPO_DIR, 'benchmarks', 'roadef2009');
const BUNDLED = ['A01', 'A02', 'A03', 'A04'];

/**
 * Best published costs (qualification phase of 2009, 10-minute runs, priced by the organisers' cost
 * checker; spec 7.1), by instance folder name.
 */
export const BEST_PUBLISHED: Readonly<Record<string, number>> = { A01: 28_155.6, A02: 116_431.7, A03: 131_694.6, A04: 108_081.9 };

const COMMAND = 'npm run bench';

/** Whether the command line asks for this part (`--parts roadef` or `--parts=roadef`). */
export function roadefPartRequested(argv: readonly string[]): boolean {
  const i = argv.findIndex((a) => a === '--parts' || a.startsWith('--parts='));
  if (i === -1) return false;
  const value = argv[i]!.startsWith('--parts=') ? argv[i]!.slice('--parts='.length) : argv[i + 1] ?? '';
  const parts = value.split(',').map((p) => p.trim());
  if (parts.includes('roadef') && parts.length > 1) throw new UsageRefusal('--parts roadef runs on its own (it has its own options): run the other parts separately.');
  return parts.includes('roadef');
}

const money = (x: number | null) => (x === null ? '-' : x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
const seconds = (ms: number | null) => (ms === null ? '-' : (ms / 1000).toFixed(ms < 10_000 ? 2 : 1));

/** Run the part; returns the process exit code (1 when an instance's final solution is infeasible). */
export async function runRoadefPart(argv: string[]): Promise<number> {
  const { values, positionals } = readCommandLine({
    command: COMMAND,
    usage: `Usage: npm run bench -- --parts roadef [--instances DIR...] [--time-limit-s 30] [--solver ${[...ROADEF_SOLVERS.keys()].join('|')}]
                                [--synthetic] [--out FILE]

Solves ROADEF/EURO 2009 instances (default A01-A04 of benchmarks/roadef2009 and a synthetic one of
set X's size), scores each with our scorer and compares with the best published costs.
  --instances DIR...      instance folders in the challenge's format
  --time-limit-s S        seconds per instance (default 30)
  --solver NAME           the solver (default ${[...ROADEF_SOLVERS.keys()][0]!})
  --synthetic             add the synthetic instance to --instances
  --out FILE              the JSON report
  --help                  this text`,
    args: argv,
    allowPositionals: true,
    options: {
      parts: { type: 'string' },
      instances: { type: 'string', multiple: true },
      'time-limit-s': { type: 'string', default: '30' },
      solver: { type: 'string', default: [...ROADEF_SOLVERS.keys()][0]! },
      synthetic: { type: 'boolean', default: false },
      out: { type: 'string' },
    },
  });
  const timeLimitS = Number(values['time-limit-s']);
  if (!Number.isFinite(timeLimitS) || timeLimitS <= 0) usageError(COMMAND, '--time-limit-s must be a positive number of seconds.');
  if (!ROADEF_SOLVERS.has(values.solver)) usageError(COMMAND, `--solver must be one of ${[...ROADEF_SOLVERS.keys()].join(', ')}.`);
  // `--instances a b c` as well as `--instances a --instances b`.
  const named = [...(values.instances ?? []), ...positionals];
  const dirs = named.length > 0 ? named.map((d) => resolve(d)) : BUNDLED.map((n) => join(BUNDLED_INSTANCES_DIR, n));
  for (const dir of dirs) if (!existsSync(join(dir, 'config.csv'))) throw new Error(`${dir} is not an instance folder of the challenge (no config.csv).`);
  if (named.length === 0 || values.synthetic) {
    progress(`generating the synthetic instance of set X's size`);
    dirs.push(writeSyntheticInstance(join(mkdtempSync(join(tmpdir(), 'roadef-bench-')), 'SYN-X'), CHALLENGE_X_SIZE));
  }

  const runs: InstanceRun[] = [];
  for (const [i, dir] of dirs.entries()) {
    progress(`${i + 1}/${dirs.length} ${basename(dir)}: solving (limit ${timeLimitS} s, solver ${values.solver})`);
    const output = execFileSync(process.execPath, ['--import', 'tsx', join(BENCHMARKS_DIR, 'lib', 'roadef-instance-run.ts'), dir, String(timeLimitS), values.solver], {
      cwd: REPO_DIR, encoding: 'utf8', maxBuffer: 64 * 2 ** 20, stdio: ['ignore', 'pipe', 'inherit'],
    });
    const run = JSON.parse(output.trim().split('\n').at(-1)!) as InstanceRun;
    runs.push(run);
    announce(`${run.instance}: ${run.feasible ? 'feasible' : 'INFEASIBLE'}, cost ${money(run.cost)}, ${seconds(run.solve_ms)} s, ${run.peak_rss_mib} MiB`);
  }

  const rows = runs.map((r) => {
    const best = BEST_PUBLISHED[r.instance] ?? null;
    return [
      r.instance, String(r.aircraft), String(r.flights), String(r.itineraries), String(r.disruptions.total),
      r.feasible ? 'yes' : 'NO', money(r.cost), money(best), best === null || r.cost === null ? '-' : (r.cost / best).toFixed(2),
      money(r.bound), r.gap === null ? '-' : `${(100 * r.gap).toFixed(1)} %`,
      seconds(r.time_to_first_feasible_ms), seconds(r.time_to_within_5pct_ms), seconds(r.time_to_within_1pct_ms), String(r.peak_rss_mib),
    ];
  });
  process.stdout.write(`\n${table(
    ['instance', 'aircraft', 'flights', 'itineraries', 'disruptions', 'feasible', 'cost', 'best published', 'ratio', 'bound', 'gap', 'first feasible s', 'within 5% s', 'within 1% s', 'peak MiB'],
    rows,
    `ROADEF/EURO 2009, solver ${values.solver}, time limit ${timeLimitS} s per instance; cost and feasibility by our scorer (flights = planned legs; disruptions = records of the three alt_ files):`,
  )}`);
  for (const r of runs.filter((x) => !x.feasible)) {
    process.stdout.write(`${r.instance} is infeasible: ${r.violations.map((v) => `${v.rule} x${v.count}`).join(', ') || 'no solution'}\n`);
  }

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = values.out ?? join(BENCHMARKS_DIR, 'reports', `roadef-${stamp}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({
    format: 1,
    part: 'roadef',
    created_at: new Date().toISOString(),
    command: argv,
    options: { time_limit_s: timeLimitS, solver: values.solver, instances: dirs },
    machine: describeMachine({ glpk: await glpkVersion(), glpsol: null, highs: null }),
    best_published: BEST_PUBLISHED,
    instances: runs.map((r) => ({ ...r, best_published: BEST_PUBLISHED[r.instance] ?? null, ratio_to_best: BEST_PUBLISHED[r.instance] && r.cost !== null ? r.cost / BEST_PUBLISHED[r.instance]! : null })),
  }, null, 2)}\n`);
  process.stdout.write(`\nJSON report: ${relative(REPO_DIR, file)}\n`);
  return runs.every((r) => r.feasible) ? 0 : 1;
}
