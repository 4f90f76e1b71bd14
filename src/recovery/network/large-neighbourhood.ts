// The large-neighbourhood search of the network engine (docs/model.md 4.6): from the best plan, free a
// few aircraft (those that share a capped airport's slots, or a troubled aircraft and those that meet
// it on the ground where its flights leave, as a single delay's scope is chosen: model/scope.ts),
// re-solve that sub-scope by the
// neighbourhood column generation (column-generation.ts, called as it is on a scope of a single delay's
// size), the rest of the network held at the plan (its aircraft's movements count against the
// airports' capacities), and take the sub-scope's routes back into the whole problem: the integer
// model of the whole scope over the plan's routes and the new ones decides, so every plan it keeps is a
// plan of the whole stated problem (its passengers re-accommodated over the whole network, every
// capacity row), whatever the sub-scope's passenger model assumed of the flights outside it (flown as
// planned).
import { compareFlights, type Schedule } from '../../domain/schedule.ts';
import type { Route } from '../neighbourhood/aircraft-routes.ts';
import { solveStrategy, type StrategySolve } from '../neighbourhood/column-generation.ts';
import { buildStrategyModel, chosenRoutes, type StrategyModel } from '../neighbourhood/rows/strategy-model.ts';
import { Budget } from '../model/budget.ts';
import { RecoveryError } from '../model/failure.ts';
import { mayFly } from '../model/rules.ts';
import type { AircraftInScope, CapacityLimit, RecoveryScope } from '../model/scope.ts';
import type { SolverConfig } from '../model/solver-config.ts';
import type { Solver, SolveOutcome } from '../model/solver-port.ts';
import { passengerGroups, type PassengerGroups } from '../passengers/passengers.ts';

/**
 * Aircraft freed per neighbourhood at first: a default single delay's scope (its aircraft and 6
 * candidates), which the column generation proves in about a second.
 */
const FIRST_SIZE = 7;
/** Aircraft added to the neighbourhoods once every neighbourhood of a plan was solved without gain. */
const SIZE_STEP = 3;
/** Largest neighbourhood (past it the sub-scope's generation no longer converges within SUB_MAX_MS). */
const MAX_SIZE = 16;
/** Most routes per aircraft a sub-scope's proof enumerates (subScopeConfig). */
const PROOF_ROUTES = 60;
/** Neighbourhoods solved side by side (the solver pool's two workers). */
const PARALLEL = 2;
/** Longest one sub-scope's column generation may run, milliseconds. */
const SUB_MAX_MS = 1_500;
/** A sub-scope is not started with less time than this to the deadline, milliseconds (its generation would end with the first plan). */
const SUB_MIN_MS = 300;

/** What the large-neighbourhood search did. */
export interface NeighbourhoodSearch {
  best: StrategySolve;
  /** Sub-scopes solved, and the better plans of the whole problem kept (a plan taken up from elsewhere counts). */
  neighbourhoods: number;
  improvements: number;
}

/**
 * Improve `best` (a plan of the integrated strategy: a solve of the whole scope's model, passengers
 * on direct flights) by large neighbourhoods until `deadline` (a performance.now() instant). Each
 * better plan of the whole problem is told to `onBetter`. Rejects with RecoveryError when `signal`
 * aborts; a sub-scope or a whole-scope solve the solver fails leaves the plan standing.
 */
export async function searchNeighbourhoods(args: {
  schedule: Schedule; scope: RecoveryScope; config: SolverConfig; groups: PassengerGroups; solver: Solver;
  signal?: AbortSignal; deadline: number; background?: boolean; best: StrategySolve;
  onBetter: (best: StrategySolve, routes: Map<string, Route>) => void;
  /**
   * The best plan found elsewhere so far (the integrated column generation's incumbent over the same
   * scope), null when none: taken up as the plan to improve when cheaper (judged by the whole
   * scope's model over its routes, as every plan here).
   */
  elsewhere?: () => StrategySolve | null;
}): Promise<NeighbourhoodSearch> {
  const { schedule, scope, config, groups, solver, signal, deadline } = args;
  const subConfig = subScopeConfig(config);
  let best = args.best;
  let neighbourhoods = 0;
  let improvements = 0;
  let size = FIRST_SIZE;
  // Neighbourhoods solved since the plan last changed (by their freed tails): not solved again on the same plan.
  let solved = new Set<string>();
  // The last plan from elsewhere looked at.
  let seen: StrategySolve | null = null;
  // The whole scope's integer model over `pool` (passengers on direct flights, as the search's rounds), solved by the deadline; null without a plan.
  const solveWhole = async (pool: Map<string, Route[]>): Promise<{ model: StrategyModel; outcome: SolveOutcome } | null> => {
    const model = buildStrategyModel(schedule, scope, config, 'integrated', pool, groups);
    if (deadline - performance.now() <= 0) return null;
    const outcome = await solver.solve({ model: model.model, timeLimitMs: Math.max(1, deadline - performance.now()), mipGap: config.solver.mip_gap }, { signal, deadline, background: args.background })
      .catch(unlessAborted(signal));
    return outcome && outcome.objective !== null ? { model, outcome } : null;
  };
  while (deadline - performance.now() > SUB_MIN_MS) {
    if (signal?.aborted) throw new RecoveryError({ kind: 'aborted', message: 'The simulation was cancelled.' });
    const other = args.elsewhere?.() ?? null;
    if (other && other !== seen && other.outcome.objective !== null && other.outcome.objective < best.outcome.objective! - 1e-6) {
      seen = other;
      // Its cost counts journeys of several flights, which the whole model here does not offer: it may cost more here.
      const routes = chosenRoutes(other.model, other.outcome.values);
      const judged = routes.size === scope.aircraft.length
        ? await solveWhole(new Map([...routes].map(([tail, route]) => [tail, [route]])))
        : null;
      if (judged && judged.outcome.objective! < best.outcome.objective! - 1e-6) {
        best = asPlan(judged.model, judged.outcome, best);
        improvements++;
        solved = new Set();
        args.onBetter(best, routes);
      }
      continue;
    }
    const chosen = chosenRoutes(best.model, best.outcome.values);
    // Disjoint neighbourhoods not yet solved on this plan, solved side by side: one's pricing runs on
    // this thread while the other's master waits for a worker.
    const batch: AircraftInScope[][] = [];
    const taken = new Set<string>();
    for (const freed of candidates(scope, chosen, config, size)) {
      if (batch.length === PARALLEL) break;
      if (solved.has(freedKey(freed)) || freed.some((a) => taken.has(a.aircraft.tail))) continue;
      batch.push(freed);
      for (const a of freed) taken.add(a.aircraft.tail);
    }
    if (batch.length === 0) {
      // Every neighbourhood of this plan was solved without gain: wider ones.
      if (size >= Math.min(MAX_SIZE, scope.aircraft.length)) break;
      size = Math.min(MAX_SIZE, size + SIZE_STEP);
      solved = new Set();
      continue;
    }
    for (const freed of batch) solved.add(freedKey(freed));
    neighbourhoods += batch.length;
    const subDeadline = Math.min(deadline, performance.now() + SUB_MAX_MS);
    const found = await Promise.all(batch.map((freed) => {
      const sub = subScope(scope, freed, chosen);
      const budget = Budget.start(subDeadline - performance.now(), signal, { background: args.background });
      const incumbent = freed.map((a) => chosen.get(a.aircraft.tail)!);
      return solveStrategy({ schedule, scope: sub, config: subConfig, strategy: 'integrated', groups: passengerGroups(schedule, sub, subConfig), solver, budget, takeUp: incumbent })
        .catch(unlessAborted(signal));
    }));
    // The whole problem over the plan's routes and the sub-scopes': its integer model decides.
    const pool = new Map(scope.aircraft.map((a) => [a.aircraft.tail, [chosen.get(a.aircraft.tail)!]]));
    let fresh = 0;
    for (const solve of found) {
      if (!solve || solve.outcome.objective === null) continue;
      for (const route of chosenRoutes(solve.model, solve.outcome.values).values()) {
        if (route.key === chosen.get(route.tail)!.key) continue;
        pool.get(route.tail)!.push(route);
        fresh++;
      }
    }
    if (fresh === 0) continue;
    const judged = await solveWhole(pool);
    if (!judged || judged.outcome.objective! >= best.outcome.objective! - 1e-6) continue;
    best = asPlan(judged.model, judged.outcome, best);
    improvements++;
    solved = new Set();
    args.onBetter(best, chosenRoutes(judged.model, judged.outcome.values));
  }
  return { best, neighbourhoods, improvements };
}

/**
 * The sub-scopes' configuration: the request's rules and costs, its passengers re-accommodated on
 * direct flights (as the whole-scope models of the search's rounds, which judge the sub-scopes'
 * routes), and a proof that enumerates at most PROOF_ROUTES routes per aircraft (a sub-scope's plan
 * needs no proof: profiled on the hub storm, the sub-scopes' proofs took as much of the thread as
 * their pricing).
 */
function subScopeConfig(config: SolverConfig): SolverConfig {
  return {
    ...config,
    constraints: { ...config.constraints, max_reaccommodation_legs: 1 },
    solver: { ...config.solver, max_routes_per_aircraft: Math.min(PROOF_ROUTES, config.solver.max_routes_per_aircraft) },
  };
}

/** A solver failure (busy, crashed, stopped at its deadline) is a neighbourhood without a result; the caller's abort still rejects. */
function unlessAborted(signal: AbortSignal | undefined): (error: unknown) => null {
  return (error) => {
    if (error instanceof RecoveryError && !signal?.aborted) return null;
    throw error;
  };
}

/**
 * The neighbourhoods worth solving on the plan `chosen`, best first: in turn, the aircraft that move
 * at a capped airport in one of its capped hours (or the hour after) in the plan, which share its
 * slots, and each troubled aircraft with those that meet it (`neighbourhood`); `size` aircraft each
 * (more where the plan's swaps tie them to others).
 */
function* candidates(scope: RecoveryScope, chosen: ReadonlyMap<string, Route>, config: SolverConfig, size: number): Generator<AircraftInScope[]> {
  const troubled = troubledAircraft(scope, chosen);
  const slots = slotSharers(scope, chosen, size);
  for (let i = 0; i < Math.max(troubled.length, slots.length); i++) {
    if (i < slots.length) yield slots[i]!;
    if (i < troubled.length) yield neighbourhood(troubled[i]!, scope, chosen, config, size);
  }
}

/**
 * Per capped hour of the scope (airport and hour, departures and arrivals together), the aircraft
 * that move there in that hour or the next in the plan, the most movements first, at most `size`;
 * only where they are more than one.
 */
function slotSharers(scope: RecoveryScope, chosen: ReadonlyMap<string, Route>, size: number): AircraftInScope[][] {
  const byTail = new Map(scope.aircraft.map((a) => [a.aircraft.tail, a]));
  const hours = new Map<string, { airport: string; hour: number }>();
  for (const c of scope.capacities) hours.set(`${c.airport} ${c.hourStartMinutes}`, { airport: c.airport, hour: c.hourStartMinutes });
  const found: AircraftInScope[][] = [];
  for (const { airport, hour } of hours.values()) {
    const within = (minutes: number) => minutes >= hour && minutes < hour + 120;
    const moves = new Map<string, number>();
    for (const [tail, route] of chosen) {
      for (const leg of route.legs) {
        const n = Number(leg.flight.origin === airport && within(leg.depMinutes)) + Number(leg.flight.dest === airport && within(leg.arrMinutes));
        if (n > 0) moves.set(tail, (moves.get(tail) ?? 0) + n);
      }
    }
    const tails = [...moves].sort((p, q) => q[1] - p[1] || (p[0] < q[0] ? -1 : 1)).slice(0, size).map(([tail]) => byTail.get(tail)!);
    if (tails.length > 1) found.push(closedUnderSwaps(tails, scope, chosen));
  }
  return found;
}

/** The aircraft of the scope with delay or cancelled flights in the plan (`chosen`), the most troubled first. */
function troubledAircraft(scope: RecoveryScope, chosen: ReadonlyMap<string, Route>): AircraftInScope[] {
  const trouble = (a: AircraftInScope) => {
    const route = chosen.get(a.aircraft.tail);
    const planned = a.plannedFlights.filter((f) => !scope.cancelledFlights.has(f.id)).length;
    const ownFlown = route?.legs.filter((l) => l.flight.tail === a.aircraft.tail).length ?? 0;
    return (route?.legs.reduce((sum, l) => sum + l.delayMinutes, 0) ?? 0) + 60 * Math.max(0, planned - ownFlown);
  };
  return scope.aircraft.map((a) => ({ a, t: trouble(a) })).filter((x) => x.t > 0).sort((p, q) => q.t - p.t).map((x) => x.a);
}

/**
 * `seed` and the `size` − 1 aircraft (that the fleet policy lets fly its flights, or it theirs) on the
 * ground in the plan nearest in time to where one of the seed's planned or flown flights leaves.
 */
function neighbourhood(seed: AircraftInScope, scope: RecoveryScope, chosen: ReadonlyMap<string, Route>, config: SolverConfig, size: number): AircraftInScope[] {
  const route = chosen.get(seed.aircraft.tail);
  const departures = [...seed.plannedFlights.map((f) => ({ station: f.origin, minutes: f.depMinutes })), ...(route?.legs ?? []).map((l) => ({ station: l.flight.origin, minutes: l.depMinutes }))];
  const policy = config.constraints.swap_fleet_policy;
  const others = scope.aircraft
    .filter((a) => a !== seed && (mayFly(policy, a.aircraft, seed.aircraft) || mayFly(policy, seed.aircraft, a.aircraft)))
    .map((a) => ({ a, distance: meetingDistance(a, chosen.get(a.aircraft.tail), departures) }))
    .filter((x) => Number.isFinite(x.distance))
    .sort((p, q) => p.distance - q.distance || (p.a.aircraft.tail < q.a.aircraft.tail ? -1 : 1));
  return closedUnderSwaps([seed, ...others.slice(0, size - 1).map((x) => x.a)], scope, chosen);
}

/**
 * `freed` with every aircraft that flies, in the plan, a flight planned for one of them or whose
 * planned flight one of them flies (a sub-scope holds its aircraft's planned flights, each flown by
 * one of its aircraft or cancelled).
 */
function closedUnderSwaps(freed: AircraftInScope[], scope: RecoveryScope, chosen: ReadonlyMap<string, Route>): AircraftInScope[] {
  const byTail = new Map(scope.aircraft.map((a) => [a.aircraft.tail, a]));
  const tails = new Set(freed.map((a) => a.aircraft.tail));
  for (let grown = true; grown;) {
    grown = false;
    for (const [tail, route] of chosen) {
      for (const leg of route.legs) {
        const owner = leg.flight.tail;
        if (owner === tail || tails.has(owner) === tails.has(tail)) continue;
        for (const t of [owner, tail]) if (!tails.has(t) && byTail.has(t)) { tails.add(t); freed.push(byTail.get(t)!); grown = true; }
      }
    }
  }
  return freed;
}

function freedKey(freed: readonly AircraftInScope[]): string {
  return freed.map((a) => a.aircraft.tail).sort().join(',');
}

/** Minutes between `a` being on the ground (as `route` flies it, or where it stands) somewhere one of `departures` leaves and that departure; Infinity when never. */
function meetingDistance(a: AircraftInScope, route: Route | undefined, departures: readonly { station: string; minutes: number }[]): number {
  const grounds: { station: string; from: number; to: number }[] = [];
  let station = a.station;
  let from = a.arrivalMinutes;
  for (const leg of route?.legs ?? []) {
    grounds.push({ station, from, to: leg.depMinutes });
    station = leg.flight.dest;
    from = leg.arrMinutes;
  }
  grounds.push({ station, from, to: Number.POSITIVE_INFINITY });
  let best = Number.POSITIVE_INFINITY;
  for (const g of grounds) {
    for (const d of departures) {
      if (g.station !== d.station) continue;
      best = Math.min(best, d.minutes < g.from ? g.from - d.minutes : d.minutes > g.to ? d.minutes - g.to : 0);
    }
  }
  return best;
}

/**
 * The scope of the `freed` aircraft alone, the others held at `chosen`: their planned flights, the
 * disruptions' facts on them, and each capacity row with the held aircraft's movements in its hour
 * counted as fixed (beside the flights outside the whole scope).
 */
function subScope(scope: RecoveryScope, freed: readonly AircraftInScope[], chosen: ReadonlyMap<string, Route>): RecoveryScope {
  const flights = freed.flatMap((a) => a.plannedFlights).sort(compareFlights);
  const flightIds = new Set(flights.map((f) => f.id));
  const freedTails = new Set(freed.map((a) => a.aircraft.tail));
  const held = [...chosen.values()].filter((r) => !freedTails.has(r.tail)).flatMap((r) => r.legs);
  const inHour = (c: CapacityLimit, minutes: number) => minutes >= c.hourStartMinutes && minutes < c.hourStartMinutes + 60;
  const capacities = scope.capacities.map((c) => ({
    ...c,
    fixed: c.fixed + held.filter((l) => (c.kind === 'departures' ? l.flight.origin === c.airport && inHour(c, l.depMinutes) : l.flight.dest === c.airport && inHour(c, l.arrMinutes))).length,
  }));
  return {
    ...scope, label: `${scope.label}_neighbourhood`, aircraft: [...freed], flights, flightIds,
    minDelayMinutes: new Map([...scope.minDelayMinutes].filter(([id]) => flightIds.has(id))),
    cancelledFlights: new Set([...scope.cancelledFlights].filter((id) => flightIds.has(id))),
    capacities,
  };
}

/** A better plan of the whole problem, as a solve of the integrated strategy like `before` (feasible: the search proves nothing). */
function asPlan(model: StrategyModel, outcome: SolveOutcome, before: StrategySolve): StrategySolve {
  return { ...before, model, outcome: { ...outcome, status: 'feasible', lowerBound: null, solveMs: before.outcome.solveMs } };
}
