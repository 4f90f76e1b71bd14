// One instance of the ROADEF benchmark part, in a process of its own so that its peak memory is its
// own: read the instance, run the solver under the time limit, score every incumbent with our scorer
// afterwards (the cost-versus-time curve), and print one JSON line (InstanceRun) on stdout.
//
//   node --import tsx benchmarks/lib/roadef-instance-run.ts <instance dir> <time limit s> <solver>
import { pathToFileURL } from 'node:url';
import type { RoadefConfig } from '../../src/formats/roadef-2009/instance.ts';
import { readInstance } from '../../src/formats/roadef-2009/read-instance.ts';
import type { CostComponents } from '../../src/formats/roadef-2009/score/costs.ts';
import { formatSolution, parseSolution, type RoadefSolution } from '../../src/formats/roadef-2009/solution.ts';
import { scoreSolution } from '../../src/formats/roadef-2009/score/score.ts';
import { ROADEF_SOLVERS, runSolver } from '../../src/recovery/roadef-adapter.ts';
import { boundGap, roadefInstanceBounds } from '../../src/recovery/roadef-bounds.ts';
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
  /**
   * The final solution's cost in the parts the bounds have (docs/model.md 3.9), weighted: operating
   * (swaps and new flights less cancelled legs' credits), passengers (delay, cancellations,
   * downgrading and both legal compensations), positions; they sum to `cost`.
   */
  cost_parts: BoundParts | null;
  /** From the solve's start; null when no incumbent was feasible / came within 5 %. */
  time_to_first_feasible_ms: number | null;
  time_to_within_5pct_ms: number | null;
  time_to_within_1pct_ms: number | null;
  /**
   * The lower bound that holds for the final solution (docs/model.md 3.9): the keeps-flights bound when
   * it cancels only legs the disruptions may force, else the official one (or the solver's own, when
   * higher); the gap (cost − bound) / max(1, |cost|).
   */
  bound: number | null;
  bound_problem: 'keeps-flights' | 'official' | 'solver' | null;
  gap: number | null;
  /** Both bounds of the instance, the CPU they took before the solve and the resident memory they added. */
  bounds: {
    official: number; keeps_flights: number; may_cancel_legs: number; cpu_ms: number; rss_added_mib: number;
    /** Each bound by part: its flying (operating) part, passengers' part and positions' part. */
    parts: { official: BoundParts; keeps_flights: BoundParts };
  };
  peak_rss_mib: number;
  curve: CurvePoint[];
}

/** Operating (flying), passengers and positions, as the bounds split a cost. */
export interface BoundParts { flying: number; passengers: number; positions: number }

export async function runInstance(dir: string, timeLimitS: number, solverName: string): Promise<InstanceRun> {
  const solver = ROADEF_SOLVERS.get(solverName);
  if (!solver) throw new Error(`unknown solver '${solverName}' (known: ${[...ROADEF_SOLVERS.keys()].join(', ')})`);
  const readStart = performance.now();
  const instance = readInstance(dir);
  const readMs = performance.now() - readStart;
  const judge = (solution: RoadefSolution) => scoreSolution(instance, parseSolution(formatSolution(solution)));
  const rssBefore = process.memoryUsage().rss;
  const instanceBounds = roadefInstanceBounds(instance);
  const rssAdded = process.memoryUsage().rss - rssBefore;
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
  const solverBound = run.incumbents.at(-1)?.bound ?? null;
  const ours = run.solution ? instanceBounds.boundOf(run.solution) : null;
  const [bound, boundProblem] = ours === null ? [solverBound, solverBound === null ? null : 'solver' as const]
    : solverBound !== null && solverBound > ours.bound ? [solverBound, 'solver' as const] : [ours.bound, ours.problem];
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
    cost_parts: final ? costParts(final.costs, instance.config.weights) : null,
    time_to_first_feasible_ms: firstFeasible?.elapsed_ms ?? null,
    time_to_within_5pct_ms: within?.elapsed_ms ?? null,
    time_to_within_1pct_ms: within1?.elapsed_ms ?? null,
    bound,
    bound_problem: boundProblem,
    gap: bound === null || cost === null ? null : boundGap(cost, bound),
    bounds: {
      official: instanceBounds.bounds.official, keeps_flights: instanceBounds.bounds.keepsFlights, may_cancel_legs: instanceBounds.bounds.mayCancel.size,
      cpu_ms: Math.round(instanceBounds.cpuMs), rss_added_mib: Math.round(rssAdded / 2 ** 20),
      parts: { official: instanceBounds.bounds.parts.official, keeps_flights: instanceBounds.bounds.parts.keepsFlights },
    },
    // resourceUsage().maxRSS is in kibibytes and covers this process's whole life.
    peak_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
    curve,
  };
}

/** A solution's cost components (the scorer's) in the bounds' parts, weighted as the total is (the scorer puts the legal compensations in the operating group, weight α). */
function costParts(c: CostComponents, w: RoadefConfig['weights']): BoundParts {
  return {
    flying: w.alpha * (c.operatingIncrease - c.operatingDecrease + c.swappedOperating),
    passengers: w.beta * (c.passengerDelay + c.outboundCancellation + c.inboundCancellation + c.downgrading) + w.alpha * (c.cancellationCompensation + c.delayCompensation),
    positions: w.gamma * c.positionPenalty,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, limit, solver] = process.argv.slice(2);
  const result = await runInstance(dir!, Number(limit), solver ?? 'reference');
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
