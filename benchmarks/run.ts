// npm run bench: the hot path stage by stage, the solvers compared on the same models, /simulate in
// process and over HTTP, throughput with autocannon, and the machine-independent counters. Prints
// tables on stdout, progress on stderr, and writes every figure to a JSON report.
//
//   npm run bench [-- --quick] [--only small,default,large] [--parts stages,solvers,http,throughput,days]
//                 [--duration 5] [--connections 1,4,16] [--out benchmarks/reports/x.json] [--lp-dir dir]
//   npm run bench -- --parts roadef [--instances <dir>...] [--time-limit-s N]   (benchmarks/roadef.ts)
//   npm run bench -- --parts storm [--limits 2000,10000] [--runs 3]              (benchmarks/storm.ts)
//   npm run bench -- --parts under-load [--seeded 30] [--listing-clients 8]       (benchmarks/under-load.ts)
//   npm run bench -- --against <ref> [--only default,large] [--seeded 30] [--reps 1]   (benchmarks/against.ts)
//   npm run bench -- --frontier [--only default,large] [--sizes 7,10,14,20,61]          (benchmarks/frontier.ts)
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { readCommandLine, usageError, UsageRefusal } from '../src/cli/args.ts';
import { type Schedule } from '../src/domain/schedule.ts';
import { loadScheduleFile } from '../src/formats/schedule-json/read-schedule.ts';
import type { StrategySolve } from '../src/recovery/neighbourhood/column-generation.ts';
import { prepareSimulation, rankOptions, readOptions, simulate, solveStrategies } from '../src/recovery/pipeline.ts';
import type { Strategy } from '../src/recovery/model/solver-config.ts';
import { toCplexLp } from '../solver-wasm/lp-format.ts';
import { createSolverPool, type SolverPool } from '../solver-wasm/pool.ts';
import type { Solver } from '../src/recovery/model/solver-port.ts';
import { measureCounters, type CounterReport } from './lib/counters.ts';
import { glpkVersion, loadGlpk, solveQuietly } from './lib/glpk-main-thread.ts';
import { highsVersion, solveWithHighs } from './lib/highs.ts';
import { postJson, startServer, throughput, type RunningServer, type ThroughputResult } from './lib/http.ts';
import { describeMachine, machineLine } from './lib/machine.ts';
import { checkWithGlpsol, glpsolVersion, removeGlpsolFiles, solveWithGlpsol, writeGlpsolModel } from './lib/native-glpsol.ts';
import { announce, progress } from './lib/progress.ts';
import { roadefPartRequested, runRoadefPart } from './roadef.ts';
import { runStormPart, stormPartRequested } from './storm.ts';
import { runUnderLoadPart, underLoadPartRequested } from './under-load.ts';
import { againstRequested, runAgainst } from './against.ts';
import { frontierRequested, runFrontier } from './frontier.ts';
import { measureDays, type DayFigures } from './days.ts';
import { BENCHMARKS_DIR, describeDisruptions, loadScenarios, REPO_DIR, SCHEDULE_NAMES, selectScenarios, simulateBody, simulationRequest, type Scenario } from './lib/scenarios.ts';
import { schedulePath } from './lib/schedules.ts';
import { formatMs, formatRatio, geometricMean, measure, median, round, summarize, type Summary } from './lib/stats.ts';
import { table } from './lib/table.ts';

// `--parts roadef` is the ROADEF 2009 benchmark, with options of its own (benchmarks/roadef.ts).
// `--parts storm`: the storms of issue 23 at several time limits (benchmarks/storm.ts).
// `--parts under-load`: single delays with listing traffic and two simulations in flight (benchmarks/under-load.ts).
let ownPart: 'roadef' | 'storm' | 'under-load' | null = null;
try {
  const argv = process.argv.slice(2);
  ownPart = roadefPartRequested(argv) ? 'roadef' : stormPartRequested(argv) ? 'storm' : underLoadPartRequested(argv) ? 'under-load' : null;
} catch (error) {
  if (error instanceof UsageRefusal) usageError('npm run bench', error.message);
  throw error;
}
if (ownPart === 'roadef') process.exit(await runRoadefPart(process.argv.slice(2)));
if (ownPart === 'storm') process.exit(await runStormPart(process.argv.slice(2)));
if (ownPart === 'under-load') process.exit(await runUnderLoadPart(process.argv.slice(2)));
// `--against <ref>`: this tree against another commit over HTTP (benchmarks/against.ts).
if (againstRequested(process.argv.slice(2))) process.exit(await runAgainst(process.argv.slice(2)));
// `--frontier`: the cost/time frontier of the scope's size (benchmarks/frontier.ts).
if (frontierRequested(process.argv.slice(2))) process.exit(await runFrontier(process.argv.slice(2)));

const PARTS = ['stages', 'solvers', 'http', 'throughput', 'days'] as const;
type Part = (typeof PARTS)[number];
/** Objectives of different solvers agree when within this relative distance (their own tolerances differ). */
const AGREEMENT_RELATIVE = 1e-6;
/** Below this, a native solve time (after subtracting glpsol's start-up and reading) is too small for a ratio. */
const MIN_NATIVE_MS = 5;

const COMMAND = 'npm run bench';
const { values } = readCommandLine({
  command: COMMAND,
  usage: `Usage: npm run bench [-- options]
       npm run bench -- --parts roadef [--instances DIR...] [--time-limit-s N] [--solver NAME] [--synthetic] [--out FILE]
       npm run bench -- --against REF [...]     this tree against another commit over HTTP (--against x --help)
       npm run bench -- --frontier [...]        the cost/time frontier of the scope's size (--frontier --help)
       npm run bench -- --parts under-load [...] single delays beside listing traffic and two simulations in flight

The hot path stage by stage, the solvers on the same models, /simulate in process and over HTTP,
throughput and the machine-independent counters; tables on stdout, every figure in a JSON report.
  --quick                 fewer repetitions
  --only LIST             schedules, comma-separated (small,default,large)
  --parts LIST            ${PARTS.join(',')} (default all), or roadef, storm or under-load alone
  --duration S            seconds per throughput run
  --connections LIST      throughput connections (default 1,4,16)
  --out FILE              the JSON report (default benchmarks/reports/<time>.json)
  --lp-dir DIR            also write every model in CPLEX LP format there
  --help                  this text`,
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    parts: { type: 'string', default: PARTS.join(',') },
    duration: { type: 'string' },
    connections: { type: 'string', default: '1,4,16' },
    out: { type: 'string' },
    'lp-dir': { type: 'string' },
  },
});
const quick = values.quick;
const only = values.only ? values.only.split(',').map((s) => s.trim()) : [];
for (const name of only) if (!(SCHEDULE_NAMES as readonly string[]).includes(name)) usageError(COMMAND, `--only: unknown schedule '${name}'`);
const parts = new Set(values.parts.split(',').map((s) => s.trim()) as Part[]);
for (const p of parts) if (!PARTS.includes(p)) usageError(COMMAND, `--parts: unknown part '${p}' (known: ${PARTS.join(', ')})`);
const durationS = Number(values.duration ?? (quick ? 2 : 5));
const connectionLevels = values.connections.split(',').map(Number);

const REPS = quick
  ? { stage: { minReps: 3, maxReps: 10, budgetMs: 150 }, compare: { minReps: 1, maxReps: 3, budgetMs: 100, highsMaxReps: 1 }, http: { minReps: 3, maxReps: 8, budgetMs: 300 } }
  : { stage: { minReps: 5, maxReps: 50, budgetMs: 600 }, compare: { minReps: 3, maxReps: 15, budgetMs: 800, highsMaxReps: 3 }, http: { minReps: 5, maxReps: 30, budgetMs: 1000 } };

const scenarios = selectScenarios(loadScenarios(), { schedules: only });
const scheduleNames = SCHEDULE_NAMES.filter((n) => scenarios.some((s) => s.schedule === n));
const notes: string[] = [];
const note = (text: string) => { notes.push(text); announce(text); };

// ---------------------------------------------------------------------------------------------
// Machine and solvers available.
await loadGlpk();
const glpsol = glpsolVersion();
if (!glpsol && parts.has('solvers')) note('glpsol (Debian package glpk-utils) is not installed: the native GLPK column is skipped. Install it with `apt-get install glpk-utils` to compare.');
let highs: string | null = null;
try { highs = await highsVersion(); } catch (error) { note(`HiGHS (npm package highs) could not be loaded (${(error as Error).message}); its column is skipped.`); }
const machine = describeMachine({ glpk: await glpkVersion(), glpsol, highs });
announce(`machine: ${machineLine(machine)}`);
announce(`${scenarios.length} scenarios on ${scheduleNames.join(', ')}; parts: counters, ${[...parts].join(', ')}${quick ? ' (quick)' : ''}`);

// ---------------------------------------------------------------------------------------------
// Counters: deterministic, a few seconds.
const schedules = new Map<string, Schedule>(scheduleNames.map((n) => [n, loadScheduleFile(schedulePath(n))]));
const counters: CounterReport = await measureCounters(schedules, scenarios, { onScenario: (s, i, n) => progress(`counters ${i + 1}/${n} ${s.key}`) });
announce(`counters measured for ${scenarios.length} scenarios`);

// ---------------------------------------------------------------------------------------------
// Stages, in process.
interface ScenarioStages { build: Summary; solve: Partial<Record<Strategy, Summary>>; read: Summary | null; simulate: Summary | null; http: Summary | null }
const stages: Record<string, { load: Summary; scenarios: Record<string, ScenarioStages> }> = {};
/** The strategies' final integer models (the routes priced and enumerated), which the solvers part compares. */
const solvedByKey = new Map<string, StrategySolve[]>();
/** What each strategy proved at the scenario's own time limit (solved alone on one thread): the options' solver reports. */
interface Proof { strategy: Strategy; status: string; objective: number | null; lower_bound: number | null; mip_gap: number | null }
const proofByKey = new Map<string, Proof[]>();
/** glpk.js on this thread, through the service's own translation: the stages time the solver without worker threads. */
const mainThreadSolver: Solver = { solve: (task) => solveQuietly(task) };

let pool: SolverPool | null = null;
if (parts.has('stages') || parts.has('solvers')) {
  if (parts.has('stages')) {
    pool = createSolverPool({ threads: availableParallelism() });
    await pool.ready();
  }
  for (const name of scheduleNames) {
    const schedule = schedules.get(name)!;
    progress(`${name}: schedule load`);
    const load = summarize(parts.has('stages') ? await measure(() => loadScheduleFile(schedulePath(name)), REPS.stage) : []);
    stages[name] = { load, scenarios: {} };
    const list = scenarios.filter((s) => s.schedule === name);
    for (const [i, scenario] of list.entries()) {
      const request = simulationRequest(scenario);
      const at = `${name} ${i + 1}/${list.length} ${scenario.id}`;
      progress(`${at}: build`);
      const build = parts.has('stages') ? await measure(() => prepareSimulation(schedule, request), REPS.stage) : [];
      const prepared = prepareSimulation(schedule, request);
      const solve: ScenarioStages['solve'] = {};
      const solved: StrategySolve[] = [];
      for (const strategy of request.config.strategies.evaluate) {
        progress(`${at}: glpk.js solve ${strategy}`);
        const config = { ...request.config, strategies: { evaluate: [strategy] } };
        let last: StrategySolve | undefined;
        const samples = parts.has('stages') ? await measure(async () => { [last] = await solveStrategies(schedule, prepared, config, mainThreadSolver); }, REPS.stage) : [];
        solved.push(last ?? (await solveStrategies(schedule, prepared, config, mainThreadSolver))[0]!);
        solve[strategy] = summarize(samples);
      }
      solvedByKey.set(scenario.key, solved);
      const { options, unsolved } = readOptions(schedule, prepared, request.config, solved);
      proofByKey.set(scenario.key, [
        ...options.map((o) => ({ strategy: o.strategy, status: o.solver.status, objective: o.solver.objective, lower_bound: o.solver.lowerBound, mip_gap: o.solver.mipGap })),
        ...unsolved.map((u) => ({ strategy: u.strategy, status: u.status, objective: null, lower_bound: null, mip_gap: null })),
      ]);
      let read: Summary | null = null;
      let sim: Summary | null = null;
      if (parts.has('stages')) {
        progress(`${at}: read back`);
        read = summarize(await measure(() => rankOptions(readOptions(schedule, prepared, request.config, solved).options, request.config), REPS.stage));
        progress(`${at}: simulate in process`);
        // A simulation that rejects (e.g. no solver worker free on a loaded machine) loses this figure, not the benchmark.
        try {
          sim = summarize(await measure(() => simulate(schedule, request, pool!), REPS.stage));
        } catch (error) {
          note(`${scenario.key}: the in-process simulation failed (${(error as Error).message.split('\n')[0]}); its figure is left out.`);
        }
      }
      stages[name].scenarios[scenario.key] = { build: summarize(build), solve, read, simulate: sim, http: null };
    }
  }
  if (parts.has('stages')) announce('stages measured');
}
if (pool) await pool.close();

// ---------------------------------------------------------------------------------------------
// Solvers on the same models.
interface SolverFigures {
  lp_bytes: number;
  glpk_js: { status: string; objective: number | null; median_ms: number | null; p95_ms: number | null; simplex_iterations: number | null; bb_nodes: number | null };
  /** wall = the whole process; read = the same process with --check (start, read the LP file); solve = wall − read. */
  glpsol: { status: string; objective: number | null; wall_median_ms: number | null; read_median_ms: number | null; solve_median_ms: number | null; simplex_iterations: number | null; bb_nodes: number | null } | null;
  highs: { status: string; objective: number | null; median_ms: number | null; bb_nodes: number | null; lp_iterations: number | null } | null;
  ratio_glpk_js_to_native: number | null;
  ratio_highs_to_glpk_js: number | null;
  objectives_agree: boolean | null;
}
const solvers: Record<string, Partial<Record<Strategy, SolverFigures>>> = {};

/**
 * Whether the solvers that proved optimality found the same optimum: null when fewer than two did
 * (a solver stopped at its time limit with an incumbent, e.g. HiGHS, proves nothing to compare).
 */
function optimaAgree(solves: { status: string; objective: number | null }[]): boolean | null {
  const optima = solves.filter((s) => s.status === 'optimal' && s.objective !== null).map((s) => s.objective!);
  if (optima.length < 2) return null;
  return optima.every((v) => Math.abs(v - optima[0]!) <= AGREEMENT_RELATIVE * Math.max(1, Math.abs(optima[0]!)));
}

if (parts.has('solvers')) {
  if (values['lp-dir']) mkdirSync(values['lp-dir'], { recursive: true });
  for (const scenario of scenarios) {
    const config = scenario.solverConfig.solver;
    solvers[scenario.key] = {};
    for (const { model: m } of solvedByKey.get(scenario.key)!) {
      const at = `solvers ${scenario.key} ${m.strategy}`;
      const lp = toCplexLp(m.model);
      if (values['lp-dir']) writeFileSync(join(values['lp-dir'], `${scenario.schedule}__${scenario.id}__${m.strategy}.lp`), lp);
      const counted = counters.scenarios[scenario.key]!.strategies[m.strategy]!;
      const task = { model: m.model, timeLimitMs: config.time_limit_ms, mipGap: config.mip_gap };
      const path = glpsol ? writeGlpsolModel(lp) : null;
      // Counting runs first (they also warm each solver up), then timed rounds in which glpk.js,
      // glpsol (solve, then --check) and HiGHS take turns, so that the load of the machine at any
      // moment weighs on all of them alike.
      progress(`${at}: counting runs`);
      let native: ReturnType<typeof solveWithGlpsol> | null = null;
      let nativeError: string | null = null;
      try { if (path) native = solveWithGlpsol(path, task); } catch (error) { nativeError = (error as Error).message; }
      const countedHighs = highs ? await solveWithHighs(lp, { ...task, count: true }) : null;
      await solveQuietly(task);
      const js: number[] = [];
      const walls: number[] = [];
      const reads: number[] = [];
      const highsMs: number[] = [];
      const started = performance.now();
      for (let round = 0; round < REPS.compare.maxReps; round++) {
        progress(`${at}: timed round ${round + 1}`);
        const t0 = performance.now();
        await solveQuietly(task);
        js.push(performance.now() - t0);
        if (native && path) {
          walls.push(solveWithGlpsol(path, task).wallMs);
          reads.push(checkWithGlpsol(path));
        }
        if (countedHighs && round < REPS.compare.highsMaxReps) {
          const h0 = performance.now();
          await solveWithHighs(lp, task);
          highsMs.push(performance.now() - h0);
        }
        if (round + 1 >= REPS.compare.minReps && performance.now() - started >= REPS.compare.budgetMs) break;
      }
      const jsSummary = summarize(js);
      const figures: SolverFigures = {
        lp_bytes: Buffer.byteLength(lp),
        glpk_js: { status: counted.status, objective: counted.objective, median_ms: jsSummary.median_ms, p95_ms: jsSummary.p95_ms, simplex_iterations: counted.simplex_iterations, bb_nodes: counted.bb_nodes },
        glpsol: null, highs: null, ratio_glpk_js_to_native: null, ratio_highs_to_glpk_js: null, objectives_agree: null,
      };
      if (nativeError) note(`${scenario.key} ${m.strategy}: glpsol failed (${nativeError.split('\n')[0]}); its column is empty for this model.`);
      if (native) {
        const wall = median(walls);
        const read = median(reads);
        const solveMs = wall === null || read === null ? null : Math.max(0, wall - read);
        figures.glpsol = {
          status: native.status, objective: native.objective, wall_median_ms: round(wall), read_median_ms: round(read), solve_median_ms: round(solveMs),
          simplex_iterations: native.work.simplexIterations, bb_nodes: native.work.bbNodes,
        };
        if (solveMs !== null && solveMs >= MIN_NATIVE_MS && jsSummary.median_ms !== null) figures.ratio_glpk_js_to_native = round(jsSummary.median_ms / solveMs, 3);
      }
      if (countedHighs) {
        const highsMedian = median(highsMs);
        figures.highs = { status: countedHighs.status, objective: countedHighs.objective, median_ms: round(highsMedian), bb_nodes: countedHighs.bbNodes, lp_iterations: countedHighs.lpIterations };
        if (highsMedian !== null && jsSummary.median_ms) figures.ratio_highs_to_glpk_js = round(highsMedian / jsSummary.median_ms, 3);
      }
      figures.objectives_agree = optimaAgree([figures.glpk_js, ...(figures.glpsol ? [figures.glpsol] : []), ...(figures.highs ? [figures.highs] : [])]);
      const described = (name: string, solve: { status: string; objective: number | null } | null) => `${name} ${solve ? `${solve.status} ${solve.objective ?? '-'}` : 'absent'}`;
      const statuses = [described('glpk.js', figures.glpk_js), described('glpsol', figures.glpsol), described('HiGHS', figures.highs)].join(', ');
      if (figures.objectives_agree === false) note(`${scenario.key} ${m.strategy}: solvers that proved optimality disagree on the optimum: ${statuses}.`);
      else if ([figures.glpk_js, figures.glpsol, figures.highs].some((f) => f && f.status !== 'optimal' && f.status !== 'infeasible')) {
        note(`${scenario.key} ${m.strategy}: not every solver proved optimality, so only proven optima are compared: ${statuses}.`);
      }
      solvers[scenario.key]![m.strategy] = figures;
    }
  }
  removeGlpsolFiles();
  announce('solvers compared');
}

// ---------------------------------------------------------------------------------------------
// HTTP: /simulate one request at a time, then throughput.
const throughputResults: Record<string, ThroughputResult[]> = {};
let server: RunningServer | null = null;
if (parts.has('http') || parts.has('throughput')) {
  progress('starting the service (src/main.ts)');
  try {
    // The per-key rate limits are turned off: the benchmark measures the service, not its limiter.
    server = await startServer({ RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_SIMULATE_PER_MINUTE: '0' });
    const probe = await postJson(server, '/simulate', simulateBody(scenarios[0]!));
    if (probe.status === 404 && JSON.stringify(probe.body).includes('Not found')) {
      note('POST /simulate is not wired in src/http yet (404 Not found): the HTTP figures are skipped.');
      await server.stop();
      server = null;
    } else if (probe.status !== 200) {
      note(`POST /simulate answered ${probe.status} for ${scenarios[0]!.key} (${JSON.stringify(probe.body).slice(0, 200)}): the HTTP figures are skipped.`);
      await server.stop();
      server = null;
    }
  } catch (error) {
    note(`The service could not be started (${(error as Error).message.split('\n')[0]}): the HTTP figures are skipped.`);
    server = null;
  }
}
if (server) {
  try {
    if (parts.has('http')) {
      for (const scenario of scenarios) {
        progress(`http ${scenario.key}`);
        const statuses = new Set<number>();
        const samples = await measure(async () => { statuses.add((await postJson(server!, '/simulate', simulateBody(scenario))).status); }, REPS.http);
        const valid = statuses.size === 1 && statuses.has(200);
        if (!valid) note(`${scenario.key}: POST /simulate answered ${[...statuses].join(', ')} during the sequential measurement; its HTTP figure is left out.`);
        const summary = valid ? summarize(samples) : null;
        const entry = stages[scenario.schedule]?.scenarios[scenario.key];
        if (entry) entry.http = summary;
        else (stages[scenario.schedule] ??= { load: summarize([]), scenarios: {} }).scenarios[scenario.key] = { build: summarize([]), solve: {}, read: null, simulate: null, http: summary };
      }
      announce('/simulate over HTTP measured');
    }
    if (parts.has('throughput')) {
      for (const name of scheduleNames) {
        // The single-delay scenarios: the interactive path (a hub storm's solves take their whole 10 s).
        const bodies = scenarios.filter((s) => s.schedule === name && !s.disruptions).map(simulateBody);
        throughputResults[name] = [];
        for (const connections of connectionLevels) {
          progress(`throughput ${name}: ${connections} connections for ${durationS} s`);
          throughputResults[name].push(await throughput(server, '/simulate', bodies, connections, durationS));
        }
      }
      announce('throughput measured');
    }
  } finally {
    await server.stop();
  }
}

// The operational day (benchmarks/days.ts): apply and GET /days/{id} on the default schedule.
let dayFigures: DayFigures | null = null;
if (parts.has('days')) {
  try {
    dayFigures = await measureDays(REPS.http);
  } catch (error) {
    note(`The operational-day figures could not be measured: ${(error as Error).message.split('\n')[0]}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Tables.
const out: string[] = [];
const cell = (s: Summary | null | undefined) => (s && s.median_ms !== null ? `${formatMs(s.median_ms)}/${formatMs(s.p95_ms)}` : '-');
out.push(`Machine: ${machineLine(machine)}`);
out.push('Figures measured on a shared machine are noisy; compare runs only on the same machine, and use the counters across machines.\n');

// Where the time goes: per schedule, each atomic stage's medians summed over the scenarios (load
// counted once). The slowest stage is the largest sum; the single largest median is kept too.
interface StageShare { stage: string; total_ms: number; share: number }
const timeShares: Record<string, StageShare[]> = {};
const slowest: Record<string, { stage: string; total_ms: number; share: number; largest_single: { stage: string; scenario: string; median_ms: number } | null }> = {};
if (parts.has('stages')) {
  for (const name of scheduleNames) {
    const s = stages[name]!;
    const totals = new Map<string, number>([['schedule load (once)', s.load.median_ms ?? 0], ['build', 0]]);
    for (const k of ['delay_propagation', 'aircraft_swap', 'cancellation', 'integrated'] as Strategy[]) totals.set(`glpk.js solve (${k})`, 0);
    totals.set('read back', 0);
    let single: { stage: string; scenario: string; median_ms: number } | null = null;
    for (const [key, st] of Object.entries(s.scenarios)) {
      const entries: [string, number | null][] = [['build', st.build.median_ms], ['read back', st.read?.median_ms ?? null],
        ...Object.entries(st.solve).map(([k, sum]) => [`glpk.js solve (${k})`, sum.median_ms] as [string, number | null])];
      for (const [stage, ms] of entries) {
        if (ms === null) continue;
        totals.set(stage, (totals.get(stage) ?? 0) + ms);
        if (!single || ms > single.median_ms) single = { stage, scenario: key, median_ms: ms };
      }
    }
    const all = [...totals.values()].reduce((a, b) => a + b, 0) || 1;
    timeShares[name] = [...totals].map(([stage, total]) => ({ stage, total_ms: round(total)!, share: round(total / all, 4)! }));
    const top = [...timeShares[name]].sort((p, q) => q.total_ms - p.total_ms)[0]!;
    slowest[name] = { ...top, largest_single: single };
  }
  for (const name of scheduleNames) {
    const s = stages[name]!;
    const rows = Object.entries(s.scenarios).map(([key, st]) => [key.split('/')[1]!, cell(st.build),
      ...(['delay_propagation', 'aircraft_swap', 'cancellation', 'integrated'] as Strategy[]).map((k) => cell(st.solve[k])),
      cell(st.read), cell(st.simulate), cell(st.http)]);
    out.push(table(['scenario', 'build', 'solve:delay', 'solve:swap', 'solve:cancel', 'solve:integr', 'read back', 'simulate', 'HTTP'], rows,
      `Stages, ${name} schedule (milliseconds, median/p95; schedule load and indexing ${cell(s.load)}; solves on one thread, simulate = the whole /simulate in process on a ${availableParallelism()}-thread solver pool):`));
  }
  out.push(table(['stage', ...scheduleNames.map((n) => `${n} Σ ms`), ...scheduleNames.map((n) => `${n} share`)],
    timeShares[scheduleNames[0]!]!.map((row, i) => [row.stage,
      ...scheduleNames.map((n) => formatMs(timeShares[n]![i]!.total_ms)),
      ...scheduleNames.map((n) => `${(timeShares[n]![i]!.share * 100).toFixed(1)}%`)]),
    'Where the time goes (each stage\'s median summed over the schedule\'s scenarios; the hot path without the pool and HTTP):'));
}

if (proofByKey.size) {
  const strategies: Strategy[] = ['delay_propagation', 'aircraft_swap', 'cancellation', 'integrated'];
  const proofCell = (p: Proof | undefined) => {
    if (!p) return '-';
    if (p.objective === null) return `no plan (${p.status})`;
    return p.status === 'optimal' ? 'optimal' : `${p.status} ${p.mip_gap === null ? 'no bound' : `${(p.mip_gap * 100).toFixed(2)}%`}`;
  };
  const rows = scenarios.filter((s) => proofByKey.has(s.key)).map((s) => {
    const proofs = proofByKey.get(s.key)!;
    const integrated = proofs.find((p) => p.strategy === 'integrated');
    return [s.key, ...strategies.map((k) => proofCell(proofs.find((p) => p.strategy === k))), integrated?.objective === null || integrated?.objective === undefined ? '-' : String(Math.round(integrated.objective * 100) / 100), integrated?.lower_bound === null || integrated?.lower_bound === undefined ? '-' : String(Math.round(integrated.lower_bound * 100) / 100)];
  });
  out.push(table(['scenario', 'delay', 'swap', 'cancel', 'integrated', 'integrated cost', 'lower bound'], rows,
    'What each strategy proved at the scenario\'s time limit (solved alone on one thread; status and proven gap (cost − lower bound) / cost):'));
  const integrated = [...proofByKey.values()].map((proofs) => proofs.find((p) => p.strategy === 'integrated')).filter((p): p is Proof => p !== undefined);
  const gaps = integrated.filter((p) => p.mip_gap !== null).map((p) => p.mip_gap!).sort((a, b) => a - b);
  const optimal = integrated.filter((p) => p.status === 'optimal').length;
  out.push(`Integrated option over ${integrated.length} scenarios: ${optimal} proven optimal, ${integrated.length - optimal} not; proven gap median ${gaps.length ? `${(gaps[Math.floor((gaps.length - 1) / 2)]! * 100).toFixed(2)}%` : '-'}, largest ${gaps.length ? `${(gaps.at(-1)! * 100).toFixed(2)}%` : '-'}${integrated.length - gaps.length ? `, ${integrated.length - gaps.length} without a bound or a plan` : ''}.\n`);
}

const countRows = scenarios.map((s) => {
  const c = counters.scenarios[s.key]!;
  const integ = c.strategies.integrated;
  const sum = (f: 'simplex_iterations' | 'bb_nodes') => Object.values(c.strategies).reduce((t, v) => t + (v[f] ?? 0), 0);
  return [s.key, `${c.scope.aircraft}/${c.scope.flights}`, String(integ?.candidate_routes ?? '-'), String(integ?.rows ?? '-'), String(integ?.columns ?? '-'),
    String(integ?.nonzeros ?? '-'), String(integ?.integers ?? '-'), String(integ?.simplex_iterations ?? '-'), String(sum('simplex_iterations')), String(sum('bb_nodes')),
    integ?.objective === null || integ?.objective === undefined ? '-' : String(Math.round(integ.objective * 100) / 100), c.best_strategy ?? '-'];
});
out.push(table(['scenario', 'aircraft/flights', 'routes', 'rows', 'cols', 'non-zeros', 'integers', 'simplex it.', 'Σ simplex it.', 'Σ B&B nodes', 'objective', 'best'], countRows,
  'Work counters (machine-independent; model size and objective of the integrated model, Σ over the four strategies; simplex iterations and B&B subproblems from GLPK\'s log):'));

if (parts.has('solvers')) {
  const rows: string[][] = [];
  for (const s of scenarios) {
    const figs = Object.values(solvers[s.key] ?? {});
    const sum = (pick: (f: SolverFigures) => number | null | undefined) => {
      const v = figs.map(pick);
      return v.some((x) => x === null || x === undefined) ? null : v.reduce((a: number, b) => a + (b ?? 0), 0);
    };
    const js = sum((f) => f.glpk_js.median_ms);
    const native = glpsol ? sum((f) => f.glpsol?.solve_median_ms) : null;
    const hi = highs ? sum((f) => f.highs?.median_ms) : null;
    const compared = figs.filter((f) => f.objectives_agree !== null);
    const agreeing = compared.filter((f) => f.objectives_agree === true).length;
    rows.push([s.key, formatMs(js), glpsol ? formatMs(native) : 'absent', highs ? formatMs(hi) : 'absent',
      native !== null && native >= MIN_NATIVE_MS && js !== null ? formatRatio(js / native) : '-',
      hi !== null && js ? formatRatio(hi / js) : '-', `${agreeing}/${compared.length}`]);
  }
  out.push(table(['scenario', 'glpk.js', 'glpsol', 'HiGHS', 'glpk.js/native', 'HiGHS/glpk.js', 'proven optima agree'], rows,
    'Solvers on the same four models per scenario (Σ of per-model medians, ms; glpk.js includes handing the model to WebAssembly; glpsol = its wall time minus that of `glpsol --check` on the same file (process start, reading the LP); HiGHS includes reading the LP text):'));
}

const summaryBySchedule: Record<string, { glpk_js_to_native_geomean: number | null; highs_to_glpk_js_geomean: number | null }> = {};
if (parts.has('solvers')) {
  for (const name of scheduleNames) {
    const figs = scenarios.filter((s) => s.schedule === name).flatMap((s) => Object.values(solvers[s.key] ?? {}));
    summaryBySchedule[name] = {
      glpk_js_to_native_geomean: round(geometricMean(figs.map((f) => f.ratio_glpk_js_to_native).filter((r): r is number => r !== null)), 3),
      highs_to_glpk_js_geomean: round(geometricMean(figs.map((f) => f.ratio_highs_to_glpk_js).filter((r): r is number => r !== null)), 3),
    };
  }
  out.push(`Per-model ratios, geometric mean by schedule: ${scheduleNames.map((n) => `${n}: glpk.js/native ${formatRatio(summaryBySchedule[n]!.glpk_js_to_native_geomean)}, HiGHS/glpk.js ${formatRatio(summaryBySchedule[n]!.highs_to_glpk_js_geomean)}`).join('; ')}.\n`);
}

if (Object.keys(throughputResults).length) {
  const rows = Object.entries(throughputResults).flatMap(([name, results]) => results.map((r) => [name, String(r.connections), r.requests_per_s.toFixed(2),
    formatMs(r.median_ms), formatMs(r.p95_ms), formatMs(r.p99_ms), String(r.ok_2xx), String(r.errors),
    Object.entries(r.status_codes).filter(([c]) => !c.startsWith('2')).map(([c, n]) => `${c}x${n}`).join(' ') || '-']));
  out.push(table(['schedule', 'connections', 'req/s', 'median', 'p95', 'p99', '2xx', 'errors', 'non-2xx'], rows,
    `Throughput of POST /simulate over loopback (autocannon, ${durationS} s per level, cycling through the schedule's scenarios; latencies of 2xx answers, ms):`));
}

if (dayFigures) {
  const d = dayFigures;
  out.push(table(['request', 'median', 'p95', 'samples'], [
    [`POST /days/{id}/apply (${d.option.option_id}, ${d.option.actions} actions)`, formatMs(d.apply.median_ms), formatMs(d.apply.p95_ms), String(d.apply.n)],
    [`GET /days/{id}, a revision's first read (${Math.round(d.response_bytes / 1024)} kB)`, formatMs(d.get_first_read.median_ms), formatMs(d.get_first_read.p95_ms), String(d.get_first_read.n)],
    ['GET /days/{id}, a revision already read', formatMs(d.get_kept.median_ms), formatMs(d.get_kept.p95_ms), String(d.get_kept.n)],
    ['GET /days/{id} with If-None-Match (304)', formatMs(d.poll_304.median_ms), formatMs(d.poll_304.p95_ms), String(d.poll_304.n)],
  ], 'Operational day over loopback, default schedule, embedded PGlite (targets: apply p50 <= 50 ms for 20 actions, GET p50 <= 30 ms), ms:'));
}

if (Object.keys(slowest).length) {
  out.push(`Slowest stage: ${scheduleNames.map((n) => `${n}: ${slowest[n]!.stage} (${(slowest[n]!.share * 100).toFixed(0)}% of the hot path; largest single median: ${slowest[n]!.largest_single?.stage ?? '-'} on ${slowest[n]!.largest_single?.scenario ?? '-'}, ${formatMs(slowest[n]!.largest_single?.median_ms)} ms)`).join('; ')}.`);
}
for (const n of notes) out.push(`Note: ${n}`);
process.stdout.write(`\n${out.join('\n')}\n`);

// ---------------------------------------------------------------------------------------------
// JSON report.
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const file = values.out ?? join(BENCHMARKS_DIR, 'reports', `bench-${stamp}.json`);
mkdirSync(dirname(file), { recursive: true });
const report = {
  format: 1,
  created_at: new Date().toISOString(),
  command: process.argv.slice(2),
  options: { quick, schedules: scheduleNames, parts: [...parts], throughput_duration_s: durationS, connections: connectionLevels, repetitions: REPS },
  machine: { ...machine, load_average_at_end: loadavg().map((l) => Math.round(l * 100) / 100) },
  notes,
  scenarios: scenarios.map((s: Scenario) => ({ key: s.key, disruptions: describeDisruptions(s), tags: s.tags, fast: s.fast })),
  proofs: Object.fromEntries(proofByKey),
  counters: counters.scenarios,
  stages,
  time_shares: timeShares,
  slowest_stage: slowest,
  solvers: { agreement_relative: AGREEMENT_RELATIVE, min_native_solve_ms_for_ratio: MIN_NATIVE_MS, by_scenario: solvers, by_schedule: summaryBySchedule },
  throughput: throughputResults,
  days: dayFigures,
};
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`\nJSON report: ${relative(REPO_DIR, file)}\n`);
