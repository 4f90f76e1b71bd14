// One instance of the ROADEF benchmark part, in a process of its own so that its peak memory is its
// own: read the instance, run the solver under the time limit, score every incumbent with our scorer
// afterwards (the cost-versus-time curve), and print one JSON line (InstanceRun) on stdout.
//
//   node --import tsx benchmarks/lib/roadef-instance-run.ts <instance dir> <time limit s> <solver>
import { pathToFileURL } from 'node:url';
import { readInstance } from '../../src/formats/roadef-2009/read-instance.ts';
import { formatSolution, parseSolution, type RoadefSolution } from '../../src/formats/roadef-2009/solution.ts';
import { scoreSolution } from '../../src/formats/roadef-2009/score/score.ts';
import { ROADEF_SOLVERS, runSolver } from '../../src/recovery/roadef-adapter.ts';
import { createSolverPool } from '../../solver-wasm/pool.ts';

export interface CurvePoint { elapsed_ms: number; cost: number; feasible: boolean; bound: number | null }

export interface InstanceRun {
  instance: string;
  dir: string;
  aircraft: number;
  /** Planned legs (a flight number flown on a date). */
  flights: number;
  flight_numbers: number;
  itineraries: number;
  passengers: number;
  /** Records of alt_flights.csv, alt_aircraft.csv and alt_airports.csv. */
  disruptions: { flights: number; aircraft: number; airports: number; total: number };
  read_ms: number;
  solve_ms: number;
  overran: boolean;
  feasible: boolean;
  cost: number | null;
  violations: { rule: string; count: number }[];
  costs: Record<string, number> | null;
  /** From the solve's start; null when no incumbent was feasible / came within 5 %. */
  time_to_first_feasible_ms: number | null;
  time_to_within_5pct_ms: number | null;
  time_to_within_1pct_ms: number | null;
  /** The last incumbent's proven lower bound, when the solver gives one; the gap (cost − bound) / max(1, |cost|). */
  bound: number | null;
  gap: number | null;
  peak_rss_mib: number;
  curve: CurvePoint[];
}

export async function runInstance(dir: string, timeLimitS: number, solverName: string): Promise<InstanceRun> {
  const solver = ROADEF_SOLVERS.get(solverName);
  if (!solver) throw new Error(`unknown solver '${solverName}' (known: ${[...ROADEF_SOLVERS.keys()].join(', ')})`);
  const readStart = performance.now();
  const instance = readInstance(dir);
  const readMs = performance.now() - readStart;
  const judge = (solution: RoadefSolution) => scoreSolution(instance, parseSolution(formatSolution(solution)));
  // Incumbents are scored after the run, so that scoring takes no time from the solver.
  const glpk = createSolverPool();
  let run: Awaited<ReturnType<typeof runSolver>>;
  try {
    await glpk.ready();
    run = await runSolver(solver, instance, { timeLimitMs: timeLimitS * 1000, glpk });
  } finally {
    await glpk.close();
  }
  const curve: CurvePoint[] = run.incumbents.map((incumbent) => {
    const report = judge(incumbent.solution);
    return { elapsed_ms: Math.round(incumbent.elapsedMs), cost: report.totals.weightedTotal, feasible: report.feasible, bound: incumbent.bound };
  });
  const final = run.solution ? judge(run.solution) : null;
  const cost = final?.totals.weightedTotal ?? null;
  const firstFeasible = curve.find((p) => p.feasible);
  const within = cost === null ? undefined : curve.find((p) => p.feasible && p.cost <= cost + 0.05 * Math.abs(cost));
  const within1 = cost === null ? undefined : curve.find((p) => p.feasible && p.cost <= cost + 0.01 * Math.abs(cost));
  const bound = run.incumbents.at(-1)?.bound ?? null;
  const disruptions = { flights: instance.flightDisruptions.length, aircraft: instance.aircraftUnavailability.length, airports: instance.capacityReductions.length };
  return {
    instance: instance.name,
    dir,
    aircraft: instance.aircraft.size,
    flights: instance.legs.length,
    flight_numbers: instance.flights.size,
    itineraries: instance.itineraries.length,
    passengers: instance.itineraries.reduce((sum, i) => sum + i.passengers, 0),
    disruptions: { ...disruptions, total: disruptions.flights + disruptions.aircraft + disruptions.airports },
    read_ms: Math.round(readMs),
    solve_ms: Math.round(run.elapsedMs),
    overran: run.overran,
    feasible: final?.feasible ?? false,
    cost,
    violations: final?.violations.map((v) => ({ rule: v.rule, count: v.count })) ?? [],
    costs: final ? { ...final.costs } : null,
    time_to_first_feasible_ms: firstFeasible?.elapsed_ms ?? null,
    time_to_within_5pct_ms: within?.elapsed_ms ?? null,
    time_to_within_1pct_ms: within1?.elapsed_ms ?? null,
    bound,
    gap: bound === null || cost === null ? null : (cost - bound) / Math.max(1, Math.abs(cost)),
    // resourceUsage().maxRSS is in kibibytes and covers this process's whole life.
    peak_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
    curve,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, limit, solver] = process.argv.slice(2);
  const result = await runInstance(dir!, Number(limit), solver ?? 'reference');
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
