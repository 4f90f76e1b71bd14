// npm run bench -- --parts roadef: the public yardstick. Solves ROADEF/EURO 2009 instances with the
// network engine twice, `engine-keeps-flights` (no voluntary cancellation: the figure to set beside the
// 2009 entries) and `engine` (the official objective, which credits cancelled legs' operating cost),
// or with the solvers `--solver` names; scores each solution with our own scorer, and prints per
// instance: size, disruptions, feasible, each solver's cost, the best published cost and the first
// solver's ratio to it, both lower bounds (docs/model.md 3.9: keeps-flights, of the plans that cancel
// only what the disruptions may force; official, of every plan) and each solver's gap to the bound of
// its plan's problem, the bounds' CPU time, each solver's time to within 1 % of its final cost, and
// the peak memory of the dearest run; then the first solver's gap by part (its plan's operating,
// passengers' and positions' costs against the same parts of its bound). The JSON report keeps every
// figure of every run (the bounds' and the plans' parts too) and each run's cost-versus-time curve.
//
//   npm run bench -- --parts roadef [--instances <dir>...] [--time-limit-s 30] [--solver NAME ...]
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
/** The solvers run on each instance when --solver names none. */
export const DEFAULT_BENCH_SOLVERS = ['engine-keeps-flights', 'engine'];

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
    usage: `Usage: npm run bench -- --parts roadef [--instances DIR...] [--time-limit-s 30] [--solver ${[...ROADEF_SOLVERS.keys()].join('|')} ...]
                                [--synthetic] [--out FILE]

Solves ROADEF/EURO 2009 instances (default A01-A04 of benchmarks/roadef2009 and a synthetic one of
set X's size), scores each with our scorer and compares with the best published costs.
  --instances DIR...      instance folders in the challenge's format
  --time-limit-s S        seconds per instance and solver (default 30)
  --solver NAME           a solver, repeatable (default ${DEFAULT_BENCH_SOLVERS.join(' and ')}; the first one's ratio is shown)
  --synthetic             add the synthetic instance to --instances
  --out FILE              the JSON report
  --help                  this text`,
    args: argv,
    allowPositionals: true,
    options: {
      parts: { type: 'string' },
      instances: { type: 'string', multiple: true },
      'time-limit-s': { type: 'string', default: '30' },
      solver: { type: 'string', multiple: true },
      synthetic: { type: 'boolean', default: false },
      out: { type: 'string' },
    },
  });
  const timeLimitS = Number(values['time-limit-s']);
  if (!Number.isFinite(timeLimitS) || timeLimitS <= 0) usageError(COMMAND, '--time-limit-s must be a positive number of seconds.');
  const solvers = values.solver ?? DEFAULT_BENCH_SOLVERS;
  for (const solver of solvers) if (!ROADEF_SOLVERS.has(solver)) usageError(COMMAND, `--solver must be one of ${[...ROADEF_SOLVERS.keys()].join(', ')}.`);
  // `--instances a b c` as well as `--instances a --instances b`.
  const named = [...(values.instances ?? []), ...positionals];
  const dirs = named.length > 0 ? named.map((d) => resolve(d)) : BUNDLED.map((n) => join(BUNDLED_INSTANCES_DIR, n));
  for (const dir of dirs) if (!existsSync(join(dir, 'config.csv'))) usageError(COMMAND, `${dir} is not an instance folder of the challenge (no config.csv); name several folders with spaces between them.`);
  if (named.length === 0 || values.synthetic) {
    progress(`generating the synthetic instance of set X's size`);
    dirs.push(writeSyntheticInstance(join(mkdtempSync(join(tmpdir(), 'roadef-bench-')), 'SYN-X'), CHALLENGE_X_SIZE));
  }

  const results: { dir: string; runs: Map<string, InstanceRun> }[] = [];
  // A run whose process fails (a crash, no memory, an unanswered solve) is reported, not the end of
  // the benchmark: its instance leaves the table, the failure is listed under it and in the JSON
  // report, and the part exits 1.
  const failed: { dir: string; solver: string; error: string }[] = [];
  for (const [i, dir] of dirs.entries()) {
    const runs = new Map<string, InstanceRun>();
    for (const solver of solvers) {
      progress(`${i + 1}/${dirs.length} ${basename(dir)}: solving (limit ${timeLimitS} s, solver ${solver})`);
      try {
        const output = execFileSync(process.execPath, ['--import', 'tsx', join(BENCHMARKS_DIR, 'lib', 'roadef-instance-run.ts'), dir, String(timeLimitS), solver], {
          cwd: REPO_DIR, encoding: 'utf8', maxBuffer: 64 * 2 ** 20, stdio: ['ignore', 'pipe', 'inherit'],
        });
        const run = JSON.parse(output.trim().split('\n').at(-1)!) as InstanceRun;
        runs.set(solver, run);
        announce(`${run.instance} ${solver}: ${run.feasible ? 'feasible' : 'INFEASIBLE'}, cost ${money(run.cost)}, ${seconds(run.solve_ms)} s, ${run.peak_rss_mib} MiB`);
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
        failed.push({ dir, solver, error: message });
        announce(`${basename(dir)} ${solver}: FAILED (${message})`);
      }
    }
    if (runs.size === solvers.length) results.push({ dir, runs });
  }

  // Each run's gap is to the bound of its final solution's problem (InstanceRun.bound): keeps-flights
  // when it cancels only what the disruptions may force, else official.
  const gap = (r: InstanceRun) => (r.gap === null ? '-' : `${(100 * r.gap).toFixed(1)} %`);
  const rows = results.map(({ runs }) => {
    const first = runs.get(solvers[0]!)!;
    const best = BEST_PUBLISHED[first.instance] ?? null;
    const each = (f: (r: InstanceRun) => string) => solvers.map((s) => f(runs.get(s)!));
    return [
      first.instance, String(first.aircraft), String(first.flights), String(first.itineraries), String(first.disruptions.total),
      [...runs.values()].every((r) => r.feasible) ? 'yes' : `NO (${solvers.filter((s) => !runs.get(s)!.feasible).join(', ')})`,
      money(first.cost), money(best), best === null || first.cost === null ? '-' : (first.cost / best).toFixed(2),
      ...each((r) => money(r.cost)).slice(1),
      money(first.bounds.keeps_flights), money(first.bounds.official),
      ...each(gap),
      seconds(first.bounds.cpu_ms),
      ...each((r) => seconds(r.time_to_within_1pct_ms)),
      String(Math.max(...[...runs.values()].map((r) => r.peak_rss_mib))),
    ];
  });
  process.stdout.write(`\n${table(
    [
      'instance', 'aircraft', 'flights', 'itineraries', 'disruptions', 'feasible', solvers[0]!, 'best published', 'ratio', ...solvers.slice(1),
      'bound keeps-flights', 'bound official', ...solvers.map((s) => `gap ${s}`), 'bound CPU s', ...solvers.map((s) => `within 1% s ${s}`), 'peak MiB',
    ],
    rows,
    `ROADEF/EURO 2009, time limit ${timeLimitS} s per instance and solver; cost and feasibility by our scorer (flights = planned legs; disruptions = records of the three alt_ files; ratio = ${solvers[0]} / best published; gap = (cost − bound) / |cost| to the bound of the run's problem, keeps-flights when its plan cancels only what the disruptions may force, else official; peak MiB = the dearest run):`,
  )}`);
  // What the gap of the first solver's plans is made of (docs/model.md 3.9, "The gap by part"): each
  // part of the plan's cost against the same part of the bound of its problem.
  const partRows = results.flatMap(({ runs }) => {
    const r = runs.get(solvers[0]!)!;
    if (r.cost_parts === null || (r.bound_problem !== 'keeps-flights' && r.bound_problem !== 'official')) return [];
    const bound = r.bound_problem === 'keeps-flights' ? r.bounds.parts.keeps_flights : r.bounds.parts.official;
    const parts = ['flying', 'passengers', 'positions'] as const;
    return [[
      r.instance, r.bound_problem, money(r.cost),
      ...parts.map((p) => money(r.cost_parts![p])), ...parts.map((p) => money(bound[p])), ...parts.map((p) => money(r.cost_parts![p] - bound[p])),
    ]];
  });
  if (partRows.length > 0) {
    process.stdout.write(`\n${table(
      ['instance', 'bound of', solvers[0]!, 'plan operating', 'plan passengers', 'plan positions', 'bound flying', 'bound passengers', 'bound positions', 'gap operating', 'gap passengers', 'gap positions'],
      partRows,
      `The gap by part (${solvers[0]}): operating = swaps and new flights less cancelled legs' credits (the bound's flying part); passengers = delay, cancellations, downgrading and both legal compensations; positions = the end-position penalty; weighted as the cost is:`,
    )}`);
  }
  for (const { runs } of results) {
    for (const [solver, r] of runs) {
      if (!r.feasible) process.stdout.write(`${r.instance} (${solver}) is infeasible: ${r.violations.map((v) => `${v.rule} x${v.count}`).join(', ') || 'no solution'}\n`);
    }
  }
  for (const f of failed) process.stdout.write(`${basename(f.dir)} (${f.solver}) failed and is left out of the table: ${f.error}\n`);

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = values.out ?? join(BENCHMARKS_DIR, 'reports', `roadef-${stamp}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({
    format: 1,
    part: 'roadef',
    created_at: new Date().toISOString(),
    command: argv,
    options: { time_limit_s: timeLimitS, solvers, instances: dirs },
    machine: describeMachine({ glpk: await glpkVersion(), glpsol: null, highs: null }),
    best_published: BEST_PUBLISHED,
    instances: results.map(({ dir, runs }) => {
      const name = runs.get(solvers[0]!)!.instance;
      const best = BEST_PUBLISHED[name] ?? null;
      const { bounds } = runs.get(solvers[0]!)!;
      return {
        instance: name, dir, best_published: best, bounds,
        runs: Object.fromEntries([...runs].map(([solver, r]) => [solver, { ...r, ratio_to_best: best && r.cost !== null ? r.cost / best : null }])),
      };
    }),
    failed,
  }, null, 2)}\n`);
  process.stdout.write(`\nJSON report: ${relative(REPO_DIR, file)}\n`);
  return failed.length === 0 && results.every(({ runs }) => [...runs.values()].every((r) => r.feasible)) ? 0 : 1;
}
