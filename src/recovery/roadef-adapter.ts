// The ROADEF 2009 adapter of the network engine (src/recovery/network/): `npm run roadef -- solve` and
// the benchmark part call a RoadefSolver, which reads nothing but the instance: it imports the instance
// into the engine's domain problem (NetworkProblem: domain flight ids as an imported schedule has them,
// to-schedule.ts, and the domain's disruptions), runs the engine with the instance's own objective as
// the cost model (RoadefCostModel) and the challenge's rules of what an aircraft may do as the walk's
// rules (ROADEF_WALK_RULES, model/roadef-rules.ts), and exports each plan back to a RoadefSolution. A
// solver reports each better solution through onProgress and returns its best one; it must return
// soon after `signal` aborts (the limit).
import { SHUTTLE_FAMILY, type RoadefInstance } from '../formats/roadef-2009/instance.ts';
import type { RoadefSolution, SolutionLeg, SolutionLine } from '../formats/roadef-2009/solution.ts';
import { legKey } from '../formats/roadef-2009/text.ts';
import { DEFAULT_IMPORT_AIRLINE, legFlightId } from '../formats/roadef-2009/to-schedule.ts';
import type { Disruption } from '../domain/disruption.ts';
import type { Solver } from './model/solver-port.ts';
import { RoadefCostModel } from './model/cost-model.ts';
import { ROADEF_WALK_RULES } from './model/roadef-rules.ts';
import { NEW_FLIGHT_PREFIX, solveReferencePlan, type PlanChanges } from './network/operating-plan.ts';
import type { NetworkAircraft, NetworkFlight, NetworkPlan, NetworkProblem, PlanLeg } from './network/problem.ts';
import { createNetworkEngine, type NetworkSolver } from './network/search.ts';

/**
 * A ROADEF instance in the engine's terms and back: the problem, and the translation of the engine's
 * plans into solutions (new flights numbered above every flight number of the instance, as the
 * format requires, without colliding with a planned leg of the same date).
 */
export class RoadefTranslation {
  readonly problem: NetworkProblem;
  /** Flight id -> the ROADEF flight number and date. */
  private readonly legOf = new Map<string, { flight: number; day: number }>();
  private readonly solutions = new WeakMap<NetworkPlan, RoadefSolution>();

  constructor(private readonly instance: RoadefInstance) {
    const idOf = (flight: number, day: number) => legFlightId(instance, DEFAULT_IMPORT_AIRLINE, flight, day);
    const number = (flight: number) => `${DEFAULT_IMPORT_AIRLINE}${flight}`;
    const flights: NetworkFlight[] = instance.legs.map((leg) => {
      const f = instance.flights.get(leg.flight)!;
      const id = idOf(leg.flight, leg.day);
      this.legOf.set(id, { flight: leg.flight, day: leg.day });
      return {
        id, flightNumber: number(leg.flight), continues: f.previous !== 0 ? number(f.previous) : null, day: leg.day,
        tail: leg.aircraft, origin: f.origin, dest: f.dest, depMinutes: leg.depMinutes, arrMinutes: leg.arrMinutes,
      };
    });
    // A ground shuttle that alt_aircraft.csv takes out of service cannot both run as planned (spec 4.3,
    // R19a-c) and stay on the ground (R21): no plan keeps both, and of the two the engine keeps R21 (an
    // aircraft out of service does not fly), treating that shuttle as any aircraft, its legs delayed, given
    // to another or cancelled (docs/model.md 4.2). No instance of the challenge takes a shuttle out of service.
    const outOfService = new Set(instance.aircraftUnavailability.map((u) => u.aircraft));
    const aircraft = new Map<string, NetworkAircraft>([...instance.aircraft.values()].map((a) => [a.id, {
      tail: a.id, fleet: a.model, family: a.family, seats: a.seats, configuration: a.configuration, rangeMinutes: a.rangeMinutes,
      costPerBlockHour: a.costPerHour, turnaroundMinutes: a.turnRoundMinutes, transitMinutes: a.transitMinutes, base: a.origin,
      check: a.maintenance && { station: a.maintenance.airport, startMinutes: a.maintenance.startMinutes, endMinutes: a.maintenance.endMinutes, maxFlyingMinutes: a.maintenance.maxFlyingMinutes },
      shuttle: a.family === SHUTTLE_FAMILY && !outOfService.has(a.id),
    }]));
    const disruptions: Disruption[] = [
      ...instance.flightDisruptions.map((d): Disruption => (d.delayMinutes === -1
        ? { type: 'flight_cancellation', flightId: idOf(d.flight, d.day) }
        : { type: 'flight_delay', flightId: idOf(d.flight, d.day), minDelayMinutes: d.delayMinutes })),
      ...instance.aircraftUnavailability.map((u): Disruption => ({ type: 'aircraft_unavailable', tail: u.aircraft, fromMinutes: u.startMinutes, toMinutes: u.endMinutes })),
      ...instance.capacityReductions.map((c): Disruption => ({
        type: 'airport_capacity', airport: c.airport, fromMinutes: c.startMinutes, toMinutes: c.endMinutes, maxDeparturesPerHour: c.departures, maxArrivalsPerHour: c.arrivals,
      })),
    ];
    this.problem = {
      name: instance.name,
      window: { startMinutes: instance.config.windowStartMinutes, endMinutes: instance.config.windowEndMinutes },
      aircraft,
      flights,
      flightsById: new Map(flights.map((f) => [f.id, f])),
      airportCapacity: instance.airportCapacity,
      airportPairs: new Map([...instance.routes].map(([key, r]) => [key, { blockMinutes: r.durationMinutes, haul: r.haulClass }])),
      bookings: instance.itineraries.map((it) => ({
        id: String(it.id), passengers: it.passengers, direction: it.direction === 'A' ? 'outbound' : 'inbound', fare: it.price,
        flights: it.legs.map((l) => ({ flightId: idOf(l.flight, l.day), cabin: l.cabin })),
      })),
      requiredPositions: instance.positions.map((p) => ({ airport: p.airport, fleet: p.model, configuration: p.configuration, count: p.count })),
      disruptions,
    };
  }

  /** The solution of `plan` (the same object for the same plan). */
  toSolution(plan: NetworkPlan): RoadefSolution {
    const known = this.solutions.get(plan);
    if (known) return known;
    const numbered = new Map(this.legOf);
    let next = Math.max(0, ...this.instance.flights.keys()) + 1;
    const rotations = plan.legs.map((leg): SolutionLeg => {
      if (leg.isNew) {
        while (this.instance.legsByKey.has(legKey(next, leg.day))) next++;
        numbered.set(leg.flightId, { flight: next++, day: leg.day });
      }
      const { flight, day } = numbered.get(leg.flightId)!;
      return {
        flight, day, origin: leg.origin, dest: leg.dest, depMinutes: leg.depMinutes, arrMinutes: leg.arrMinutes, aircraft: leg.tail,
        previous: leg.isNew ? 0 : this.instance.flights.get(flight)!.previous,
      };
    });
    const bookings = new Map(this.instance.itineraries.map((it) => [String(it.id), it]));
    const itineraries = plan.passengers.map((line): SolutionLine => {
      const it = bookings.get(line.booking)!;
      return {
        itinerary: it.id, direction: it.direction, price: priceText(it.price), passengers: line.passengers, cancelled: line.cancelled,
        legs: line.flights.map((l) => ({ ...numbered.get(l.flightId)!, cabin: l.cabin })),
      };
    });
    const solution = { rotations, itineraries };
    this.solutions.set(plan, solution);
    return solution;
  }

  /** The engine's plan of a solution (a calibration file, a solution written earlier): its records that name no planned leg are new flights. */
  toPlan(solution: RoadefSolution): NetworkPlan {
    const ids = new Map([...this.legOf].map(([id, { flight, day }]) => [legKey(flight, day), id]));
    const legs = solution.rotations.map((r, i): PlanLeg => {
      const planned = ids.get(legKey(r.flight, r.day));
      if (!planned) ids.set(legKey(r.flight, r.day), `${NEW_FLIGHT_PREFIX}${i}`);
      return {
        flightId: ids.get(legKey(r.flight, r.day))!, flightNumber: planned ? `${DEFAULT_IMPORT_AIRLINE}${r.flight}` : null, day: r.day,
        origin: r.origin, dest: r.dest, depMinutes: r.depMinutes, arrMinutes: r.arrMinutes, tail: r.aircraft, isNew: !planned,
      };
    });
    return {
      legs,
      passengers: solution.itineraries.map((line) => ({
        booking: String(line.itinerary), passengers: line.passengers, cancelled: line.cancelled,
        flights: line.legs.map((l) => ({ flightId: ids.get(legKey(l.flight, l.day)) ?? `unknown ${legKey(l.flight, l.day)}`, cabin: l.cabin })),
      })),
    };
  }
}

/** A price as the instance writes it: one decimal (`200.0`), two when it has them. */
function priceText(price: number): string {
  return Number.isInteger(Math.round(price * 100) / 10) ? price.toFixed(1) : price.toFixed(2);
}

/** A network engine's incumbent, as the ROADEF commands and benchmarks see it. */
export interface RoadefIncumbent {
  /** Milliseconds since the solve started. */
  elapsedMs: number;
  solution: RoadefSolution;
  /** The solver's own figure for the solution's cost (the engine's cost model), when it priced it; else null. */
  cost: number | null;
  /** A proven lower bound on the cost, when the engine knows one; else null. */
  bound: number | null;
}

export interface RoadefSolveOptions {
  /** Wall-clock budget in milliseconds; `signal` aborts when it is spent. */
  timeLimitMs: number;
  signal: AbortSignal;
  /** GLPK (the worker pool), for the passenger plans. */
  glpk: Solver;
  /** Called with each new incumbent, best last. */
  onProgress: (incumbent: RoadefIncumbent) => void;
}

/** Solve an instance: resolves to the best solution found by the time `signal` aborts (or earlier). */
export type RoadefSolver = (instance: RoadefInstance, options: RoadefSolveOptions) => Promise<RoadefSolution>;

/** The reference plan (spec 6.1) of an instance, the engine's first incumbent; with `changes` (flight ids, tails: the problem's), the walk around them. */
export function roadefReferencePlan(instance: RoadefInstance, changes: PlanChanges = {}): RoadefSolution {
  const translation = new RoadefTranslation(instance);
  return translation.toSolution(solveReferencePlan(translation.problem, changes, ROADEF_WALK_RULES));
}

/**
 * The reference plan of spec 6.1: the plan kept, delays propagated, what cannot be flown cancelled with
 * its passengers. One pass, milliseconds; the baseline every solver must beat.
 */
export const referenceSolver: RoadefSolver = async (instance, { onProgress }) => {
  const started = performance.now();
  const solution = roadefReferencePlan(instance);
  onProgress({ elapsedMs: performance.now() - started, solution, cost: null, bound: null });
  return solution;
};

/** The network engine on the instance imported into its problem, with the instance's own objective (spec section 5) as its cost model. */
function roadefEngine({ cancelRoundTrips }: { cancelRoundTrips: boolean }): RoadefSolver {
  return async (instance, options) => {
    const translation = new RoadefTranslation(instance);
    const engine: NetworkSolver = createNetworkEngine({ cancelRoundTrips, cost: new RoadefCostModel(instance.config), rules: ROADEF_WALK_RULES });
    const plan = await engine(translation.problem, {
      ...options,
      onProgress: ({ elapsedMs, plan: incumbent, cost, bound }) => options.onProgress({ elapsedMs, solution: translation.toSolution(incumbent), cost, bound }),
    });
    return translation.toSolution(plan);
  };
}

/** Solvers by the name `--solver` takes; the first is the default. */
export const ROADEF_SOLVERS: ReadonlyMap<string, RoadefSolver> = new Map([
  ['engine', roadefEngine({ cancelRoundTrips: true })],
  // The same search without cancelling flights for their operating cost: how far holds, exchanges,
  // ferries and re-accommodation alone go.
  ['engine-keeps-flights', roadefEngine({ cancelRoundTrips: false })],
  ['reference', referenceSolver],
]);
export interface SolveRun {
  /** The solver's answer, or its last incumbent when it overran the limit and the grace. */
  solution: RoadefSolution | null;
  incumbents: RoadefIncumbent[];
  elapsedMs: number;
  /** The solver did not return within the time limit plus the grace; its last incumbent stands. */
  overran: boolean;
}

/** Extra time a solver gets after the abort to hand back its best solution, milliseconds. */
export const RETURN_GRACE_MS = 2_000;

/**
 * Run `solver` under a wall-clock limit: abort at `timeLimitMs` (or when `stop` aborts, if earlier),
 * wait at most `graceMs` (default RETURN_GRACE_MS) past the limit for it to return, otherwise keep its
 * last incumbent. A solver that throws propagates its error. `glpk` is the solver pool the solver's
 * models go to.
 */
export async function runSolver(
  solver: RoadefSolver, instance: RoadefInstance,
  { timeLimitMs, glpk, onIncumbent = () => {}, graceMs = RETURN_GRACE_MS, stop }: {
    timeLimitMs: number; glpk: Solver; onIncumbent?: (incumbent: RoadefIncumbent) => void; graceMs?: number; stop?: AbortSignal;
  },
): Promise<SolveRun> {
  const started = performance.now();
  const controller = new AbortController();
  stop?.addEventListener('abort', () => controller.abort(), { once: true });
  const incumbents: RoadefIncumbent[] = [];
  const timers: NodeJS.Timeout[] = [];
  const deadline = new Promise<'overran'>((resolve) => {
    timers.push(setTimeout(() => controller.abort(), timeLimitMs));
    timers.push(setTimeout(() => resolve('overran'), timeLimitMs + graceMs));
  });
  try {
    const answer = await Promise.race([
      solver(instance, {
        timeLimitMs,
        signal: controller.signal,
        glpk,
        onProgress: (incumbent) => { incumbents.push(incumbent); onIncumbent(incumbent); },
      }),
      deadline,
    ]);
    const overran = answer === 'overran';
    return { solution: overran ? incumbents.at(-1)?.solution ?? null : answer, incumbents, elapsedMs: performance.now() - started, overran };
  } finally {
    for (const t of timers) clearTimeout(t);
    controller.abort();
  }
}
