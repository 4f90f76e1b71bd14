// The use case: disruptions in, ranked recovery options out, in four stages that the service and the
// benchmarks share: prepare (check the disruptions against the schedule, select the scope, the
// passenger groups, what delay propagation alone would break) -> solve (each strategy over the full
// route space of the scope, by column generation on the solver port) -> read (plans back into options)
// -> rank. Protocol-free: the HTTP layer validates the input and presents the result; failures the
// caller may see are RecoveryError (failure.ts).
import type { Disruption } from '../domain/disruption.ts';
import type { Schedule } from '../domain/schedule.ts';
import type { ScheduleRevision } from '../domain/day/revision.ts';
import { RouteEvaluator, type Route } from './neighbourhood/aircraft-routes.ts';
import { solveStrategy, type SharedColumns, type StrategyPhase, type StrategyProgress, type StrategySolve } from './neighbourhood/column-generation.ts';
import { RecoveryError } from './model/failure.ts';
import { modelSize } from './model/linear-model.ts';
import { flightBoundInClosedForm, flightBoundModel } from './bounds/flight-bound.ts';
import { networkBound, type RelaxationRoute } from './bounds/network-bound.ts';
import { relaxationThread, warmRelaxationThread } from './bounds/network-bound-thread.ts';
import { RelaxationRoutes } from './bounds/relaxation-routes.ts';
import { Budget } from './model/budget.ts';
import { chosenRoutes, type StrategyModel } from './neighbourhood/rows/strategy-model.ts';
import { passengerGroups, type PassengerGroups } from './passengers/passengers.ts';
import { evaluatePlan, routeViolations, type PassengerFlow, type Plan } from './neighbourhood/plan.ts';
import type { Violation } from '../domain/plan.ts';
import type { RecoveryOption, SimulationResult, SolverReport, UnsolvedStrategy } from './model/result.ts';
import type { SimulationBound, SolverFacts } from './model/solve-facts.ts';
import { selectScope, type RecoveryScope } from './model/scope.ts';
import { chooseEngine, type EngineChoice } from './model/engine-choice.ts';
import { hasBoundRound, searchNetwork, type EarlierSearch, type NetworkSearchResult, type SearchPassengers } from './network/service-search.ts';
import type { SolverConfig, Strategy } from './model/solver-config.ts';
import type { Solver } from './model/solver-port.ts';

export interface SimulationRequest {
  scenarioId: string;
  airline: string;
  scheduleName: string;
  config: SolverConfig;
  /** What happened; at least one. */
  disruptions: Disruption[];
  /** The delayed flight of a single-delay request (echoed as disrupted_flight), null for a list of disruptions. */
  disruptedFlightId: string | null;
  /**
   * Flights that have left (an operational day's actual off-blocks): fixed, whatever their time, and
   * never a seat for a rebooking. Default none.
   */
  departedFlightIds?: readonly string[];
  /**
   * The schedule is `scheduleName` as a revision of an operational day changed it: the runtime reads
   * it from its schedule source (runtime/schedule-source.ts), not from the catalog. Default none.
   */
  revision?: ScheduleRevision;
}

/** Where a simulation stands: the least advanced of its strategies ('preparing' before any model). */
export type SimulationPhase = 'preparing' | StrategyPhase;

/**
 * A simulation's progress over all its strategies, reported after each pricing round and integer
 * solve of any of them (protocol-free; the job runner publishes it).
 */
export interface SimulationProgress {
  phase: SimulationPhase;
  elapsedMs: number;
  /** Pricing rounds so far, summed over the strategies. */
  iterations: number;
  /** Cost of the cheapest plan so far (any strategy's plan is a plan of all actions), null before one. */
  bestCost: number | null;
  /**
   * The lower bound of the strategy that answers for the best plan (the integrated one when it is
   * evaluated: its bound holds for every plan), null before one is proven.
   */
  lowerBound: number | null;
  /** (bestCost − lowerBound) / max(1, |bestCost|), null unless both are known. */
  mipGap: number | null;
  /** The best plans so far, read and ranked as a result; set only when they changed since the last report. */
  result: SimulationResult | null;
}

/**
 * Restricted strategies solved elsewhere (the restricted thread: runtime/simulation-thread-restricted.ts),
 * so that the integrated strategy's JavaScript has its thread to itself: their options, read there,
 * and the instant (performance.now() of this thread) their budget is cut to once the integrated
 * strategy is proven, as RESTRICTED_AFTER_SHARE cuts them here. Null when it cannot take them now.
 */
export type SolveElsewhere = (request: SimulationRequest, budget: Budget) => RestrictedSolves | null;

export interface RestrictedSolves {
  done: Promise<ReadOptions>;
  cutTo(at: number): void;
}

/** Options read from solved strategies, and the strategies that have none. */
export interface ReadOptions { options: RecoveryOption[]; unsolved: UnsolvedStrategy[] }

/** The strategies that a single delay's simulation hands to another thread (SolveElsewhere). */
const ELSEWHERE: readonly Strategy[] = ['cancellation', 'delay_propagation'];

export interface PreparedSimulation {
  scope: RecoveryScope;
  groups: PassengerGroups;
  /** What the disruptions break if only delays are propagated (delay propagation under soft rules). */
  violations: Violation[];
  /** The engine that answers for the integrated strategy, and why (model/engine-choice.ts). */
  engine: EngineChoice;
  buildMs: number;
}

/**
 * RecoveryError 'not_found' for the first flight, aircraft or airport of the disruptions that the
 * airline's schedule does not have. Checked once, where a request enters (the HTTP layer, before any
 * queue or thread: src/http/endpoints/simulate.ts); the stages below take the request as checked.
 */
export function checkReferences(schedule: Schedule, airline: string, disruptions: readonly Disruption[]): void {
  for (const d of disruptions) {
    if (d.type === 'flight_delay' || d.type === 'flight_cancellation') {
      if (schedule.flightsById.get(d.flightId)?.airline !== airline) throw new RecoveryError({ kind: 'not_found', subject: 'flight', id: d.flightId, airline });
    } else if (d.type === 'aircraft_unavailable') {
      if (schedule.aircraft.get(d.tail)?.airline !== airline) throw new RecoveryError({ kind: 'not_found', subject: 'aircraft', id: d.tail, airline });
    } else if (!schedule.airports.has(d.airport)) {
      throw new RecoveryError({ kind: 'not_found', subject: 'airport', id: d.airport, airline });
    }
  }
}

/**
 * Stage 1: select the scope and what the models need. The request's references are checked
 * (checkReferences): every flight, aircraft and airport it names is the airline's in `schedule`.
 */
export function prepareSimulation(schedule: Schedule, request: SimulationRequest): PreparedSimulation {
  const started = performance.now();
  const { config } = request;
  const scope = selectScope(schedule, request.airline, request.disruptions, config, new Set(request.departedFlightIds ?? []));
  const groups = passengerGroups(schedule, scope, config);
  const softConfig: SolverConfig = { ...config, constraints: { ...config.constraints, crew_duty: 'soft', maintenance: 'soft', max_delay_minutes: 2880, max_swaps: 1000 } };
  const soft = new RouteEvaluator(schedule, scope, softConfig, false);
  const softPlannedRoutes = scope.aircraft.map((a) => soft.plannedRoute(a)).filter((r): r is Route => r !== null);
  return { scope, groups, violations: routeViolations(schedule, softPlannedRoutes), engine: chooseEngine(scope, request.disruptions), buildMs: performance.now() - started };
}

/**
 * Stage 2: solve every strategy of config.strategies.evaluate, in parallel, all done within `budget`
 * (the simulation's; by default solver.time_limit_ms from now) less the time to read them back
 * (READ_RESERVE). The restricted strategies are cut short once the integrated one is proven
 * (RESTRICTED_SHARE). The first failure (RecoveryError) rejects and drops the solves still waiting,
 * since the simulation cannot be answered without them; the budget's signal drops them too.
 * `bound` is a lower bound of every plan computed alongside (simulate's network or flight bound);
 * without one, the scope's flight bound is (flightBoundOf). With `elsewhere`, the strategies it solves
 * (ELSEWHERE) are not solved here: it is awaited with the others and cut with the restricted ones.
 */
export async function solveStrategies(
  schedule: Schedule, prepared: PreparedSimulation, config: SolverConfig, solver: Solver,
  budget: Budget = Budget.start(config.solver.time_limit_ms), onProgress?: (progress: StrategyProgress) => void,
  bound?: Promise<SimulationBound | null>, elsewhere?: RestrictedSolves,
  /**
   * For the network search (bounds/relaxation-routes.ts): the network bound's routes told since the last
   * call (`take`, for its bound round), what an earlier search of the same problem found (`earlier`), and
   * where it keeps what it finds (`keep`).
   */
  routes?: { take?: () => Route[]; earlier: () => EarlierSearch | null; keep: (found: EarlierSearch) => void },
): Promise<StrategySolve[]> {
  const failed = new AbortController();
  const started = performance.now();
  const limit = budget.limitMs;
  const solving = budget.within(strategiesDeadline(budget), AbortSignal.any([budget.signal, failed.signal]));
  const drop = solving.signal;
  // The restricted strategies' part: once the integrated strategy is proven, an interactive answer
  // waits for them only a little longer (RESTRICTED_SHARE).
  const restricted = solving.within();
  const evaluate = elsewhere ? config.strategies.evaluate.filter((strategy) => !ELSEWHERE.includes(strategy)) : config.strategies.evaluate;
  // The swap strategy starts from the integrated strategy's routes and bound (SharedColumns): once
  // that solve is done, or after SWAP_WAIT_SHARE of the budget with what it has by then.
  const share: SharedColumns | null = evaluate.includes('integrated') && evaluate.includes('aircraft_swap') ? { routes: [], best: null, lowerBound: null } : null;
  // The integrated solve also takes up the cancellation solve's routes as they come: they are
  // integrated routes, and that generation, whose pricing is far cheaper, reaches a good master
  // sooner on a network-wide scope (docs/model.md 3.5).
  // With the network engine, its search's routes join them (network/service-search.ts).
  const network = prepared.engine.engine === 'network' && evaluate.includes('integrated');
  const cancellationRoutes: Route[] | null = evaluate.includes('integrated') && (evaluate.includes('cancellation') || network) ? [] : null;
  const floor = bound ?? flightBoundOf(schedule, prepared, config, solver, solving);
  const integratedProgress = network && onProgress ? withSearchIncumbent(onProgress) : null;
  // The integrated generation's best plan so far, which the network search's neighbourhoods improve when it is the cheaper.
  let generationPlan: StrategySolve | null = null;
  // The cheapest plan the search told, not its last: a search may tell a plan dearer than one it told
  // before (its first round's solve of a walk after another walk priced without a solver: 277,935 after
  // 86,820 on two long delays), and every plan reported is a plan of the integrated strategy, so no
  // report nor answer of it may be dearer (a cancelled job answers with the last plans reported). A
  // later plan at the same cost replaces it (the exact stage's passengers after the rounds').
  let told: Pick<NetworkSearchResult, 'best' | 'passengers'> = { best: null, passengers: 'direct_flights' };
  const tell = (best: StrategySolve, passengers: SearchPassengers) => {
    if (told.best && told.best.outcome.objective! < best.outcome.objective!) return;
    told = { best, passengers };
    integratedProgress?.search(best);
  };
  // A search whose solve the pool refused or lost, or that was cancelled, leaves that plan beside the
  // generation's answer (a cancellation still ends the simulation through the generations); one that
  // ends answers with the cheaper of its answer and that plan. The handlers are attached at once, since
  // the integrated solve awaits the search only when its generation ends.
  const search = network
    ? searchNetwork({
      schedule, scope: prepared.scope, config, groups: prepared.groups, solver, signal: drop, deadline: solving.deadline, limitMs: limit, background: solving.background, offer: cancellationRoutes!, boundRoutes: routes?.take, earlier: routes?.earlier(), keep: routes?.keep,
      onIncumbent: tell, generationPlan: () => generationPlan,
    }).then((found) => (told.best && (!found.best || told.best.outcome.objective! < found.best.outcome.objective!) ? { ...found, ...told } : found), (error: unknown): NetworkSearchResult => {
      if (error instanceof RecoveryError) return { ...told, rounds: 0, routes: 0, neighbourhoods: 0 };
      throw error;
    })
    : null;
  // A programmer error is thrown where the search is awaited, not as an unhandled rejection before.
  search?.catch(() => undefined);
  const solves = new Map<Strategy, Promise<StrategySolve>>();
  const run = async (strategy: Strategy): Promise<StrategySolve> => {
    if (share && strategy === 'aircraft_swap') {
      await integratedOrTimeUp(solves.get('integrated')!, started + SWAP_WAIT_SHARE * limit);
      // The simulation failed (or was cancelled) while this solve waited: nothing to start.
      if (drop.aborted) throw new RecoveryError({ kind: 'aborted', message: 'The simulation was cancelled.' });
    }
    const generated = await solveStrategy({
      schedule, scope: prepared.scope, config, strategy, groups: prepared.groups, solver, budget: strategy === 'integrated' ? solving : restricted,
      onProgress: strategy === 'integrated' && network ? (progress) => {
        generationPlan = progress.incumbent;
        (integratedProgress?.generation ?? onProgress)?.(progress);
      } : onProgress,
      publish: strategy === 'integrated' ? share ?? undefined : undefined,
      inherit: strategy === 'aircraft_swap' ? share ?? undefined : undefined,
      offer: strategy === 'cancellation' ? cancellationRoutes ?? undefined : undefined,
      takeUp: strategy === 'integrated' ? cancellationRoutes ?? undefined : undefined,
      floor,
    });
    // The generation's last plan (proven optimal, perhaps): the search's bound round has nothing to add then.
    if (strategy === 'integrated' && network) generationPlan = generated;
    const solved = strategy === 'integrated' && search ? withSearchPlan(generated, await search, await floor, config) : generated;
    onProgress?.({ strategy, phase: 'done', iterations: solved.iterations, lowerBound: solved.outcome.lowerBound, incumbent: solved });
    return solved;
  };
  // The integrated solve first, so that the swap solve can wait for it.
  for (const strategy of [...evaluate].sort((p, q) => Number(q === 'integrated') - Number(p === 'integrated'))) solves.set(strategy, run(strategy));
  solves.get('integrated')?.then((integrated) => {
    const proven = integrated.outcome.status === 'optimal' || integrated.outcome.status === 'infeasible';
    if (!proven) return;
    const at = Math.max(solving.at(RESTRICTED_SHARE), performance.now() + RESTRICTED_AFTER_SHARE * limit);
    restricted.cutTo(at);
    elsewhere?.cutTo(at);
  }, () => undefined);
  try {
    // The strategies solved elsewhere end with the simulation too (they may still be running when a local one fails).
    const [local] = await Promise.all([Promise.all(evaluate.map((strategy) => solves.get(strategy)!)), elsewhere?.done]);
    return local;
  } catch (error) {
    failed.abort();
    throw error;
  }
}

/** The instant (performance.now()) by which the strategies of a simulation with `budget` are solved: READ_RESERVE before its end. */
export function strategiesDeadline(budget: Budget): number {
  const limit = budget.limitMs;
  return budget.startedAt + limit - Math.min(READ_RESERVE_MS, READ_RESERVE_SHARE * limit);
}

/**
 * Whether a simulation computes the network bound (bounds/network-bound.ts) alongside its strategies,
 * as far as its disruptions tell (admission counts its one LP before any scope exists; the network
 * engine's large scopes get it too: simulationBound): an airport's capacity cut, an aircraft out of
 * service, several disruptions,
 * where the column generation's own bound stays far below its plans within an interactive budget
 * (docs/model.md 3.9). A single delay or cancellation gets the flight bound: its generation converges,
 * and the flight bound, a small LP, is above 0 from the start (the forced delay or cancellation).
 */
export function networkBoundWanted(disruptions: readonly Disruption[]): boolean {
  return disruptions.length > 1 || disruptions.some((d) => d.type === 'airport_capacity' || d.type === 'aircraft_unavailable');
}

/**
 * The lower bound a simulation computes beside its strategies (each strategy reports the larger of it
 * and its own): the network bound where networkBoundWanted, else the flight bound. Null when it has
 * none (then the strategies' own bounds stand). `incumbent` is the cost of the best plan so far, which
 * the network bound's steps aim at; `onBound` hears each better bound as soon as it is known.
 */
export function simulationBound(
  schedule: Schedule, prepared: PreparedSimulation, config: SolverConfig, solver: Solver, budget: Budget,
  incumbent: () => number | null, onBound: (bound: number, source: SimulationBound['source']) => void,
  onRoutes?: (routes: RelaxationRoute[]) => void,
): Promise<SimulationBound | null> {
  if (prepared.engine.engine !== 'network' && !networkBoundWanted(prepared.scope.disruptions) || config.solver.time_limit_ms < NETWORK_BOUND_MIN_LIMIT_MS) {
    return flightBoundOf(schedule, prepared, config, solver, budget, onBound);
  }
  // The flight bound in closed form, at once: above 0 wherever a delay or a cancellation is forced or
  // a capacity cut overfills an hour, before any solve.
  const closed = closedFlightBound(schedule, prepared, config);
  if (closed !== null && closed > 0) onBound(closed, 'flight_bound');
  return networkBound({ schedule, scope: prepared.scope, groups: prepared.groups, config }, solver, {
    signal: budget.signal, deadline: budget.deadline, target: incumbent, onBound, onRoutes, thread: config.solver.time_limit_ms < COLD_BOUND_MIN_LIMIT_MS ? warmRelaxationThread : relaxationThread,
  }).then((b): SimulationBound | null => {
    // A network bound that never rose above the flight bound's LP it started from is that LP's.
    if (b && (closed === null || b.value > closed)) return { value: b.value, source: b.flightBound !== null && b.value <= b.flightBound ? 'flight_bound' : 'network_bound' };
    return closed === null ? null : { value: closed, source: 'flight_bound' };
  });
}

/** Relative tolerance of the comparisons of costs and bounds below (as the column generation's). */
const COST_TOLERANCE = 1e-6;

/**
 * The integrated strategy's answer under the network engine: the column generation's solve, or the
 * network search's plan where it is cheaper. The generation's bound is proven over every route of the
 * scope (its plan's cost when proven optimal), so it bounds the search's plans too, as the flight
 * bound (`floor`) bounds every plan. The search's plan is proven optimal when a bound meets its cost.
 */
function withSearchPlan(generated: StrategySolve, search: NetworkSearchResult, floor: SimulationBound | null, config: SolverConfig): StrategySolve {
  const own = generated.outcome;
  const searched = search.best;
  if (!searched || searched.outcome.objective === null) return generated;
  const cost = searched.outcome.objective;
  if (own.objective !== null && own.objective <= cost + COST_TOLERANCE * Math.max(1, Math.abs(cost))) return generated;
  const ownBound = own.status === 'optimal' ? own.objective : own.lowerBound;
  const bounds = [
    ...(ownBound === null ? [] : [{ value: ownBound, source: generated.boundSource }]),
    ...(floor ? [floor] : []),
  ].sort((p, q) => q.value - p.value);
  const best = bounds[0] ?? null;
  const bound = best === null ? null : Math.min(cost, best.value);
  const proven = bound !== null && cost - bound <= COST_TOLERANCE * Math.max(1, Math.abs(cost));
  // Under a mip_gap the plan within it is what was asked for, as for the generation's own plans.
  const withinGap = bound !== null && (cost - bound) / Math.max(1, Math.abs(cost)) <= config.solver.mip_gap;
  return {
    ...searched,
    boundSource: best?.source ?? null,
    facts: { kind: 'network_search_plan', generationObjective: own.objective, generation: generated.facts, passengers: search.passengers },
    outcome: { ...searched.outcome, status: proven ? 'optimal' : withinGap || own.status === 'feasible' ? 'feasible' : 'time_limit', lowerBound: bound },
  };
}

/**
 * Progress of the integrated strategy under the network engine: the generation's reports, each with
 * the cheaper of its own incumbent and the search's best plan so far; a better search plan is reported
 * at once, with the generation's last phase, rounds and bound.
 */
function withSearchIncumbent(onProgress: (progress: StrategyProgress) => void): { generation: (progress: StrategyProgress) => void; search: (best: StrategySolve) => void } {
  let last: StrategyProgress = { strategy: 'integrated', phase: 'generating_columns', iterations: 0, lowerBound: null, incumbent: null };
  let searched: StrategySolve | null = null;
  const cheaper = (own: StrategySolve | null): StrategySolve | null => {
    if (!searched) return own;
    if (own?.outcome.objective != null && own.outcome.objective <= searched.outcome.objective!) return own;
    return { ...searched, outcome: { ...searched.outcome, status: 'time_limit', lowerBound: last.lowerBound === null ? null : Math.min(last.lowerBound, searched.outcome.objective!) } };
  };
  return {
    generation: (progress) => {
      last = progress;
      onProgress({ ...progress, incumbent: cheaper(progress.incumbent) });
    },
    search: (best) => {
      searched = best;
      onProgress({ ...last, incumbent: cheaper(last.incumbent) });
    },
  };
}

/**
 * Whether a simulation solves the flight bound (model/flight-bound.ts): where an airport's capacity is
 * cut. Elsewhere it counts only the forced delays and cancellations, far below the bound a single
 * delay's generation converges to within its budget, and it would cost a solve of the pool.
 */
export function flightBoundWanted(disruptions: readonly Disruption[]): boolean {
  return disruptions.some((d) => d.type === 'airport_capacity');
}

/**
 * The flight bound of the simulation (bounds/flight-bound.ts), a lower bound of every plan of every
 * strategy, so that no plan is ever answered without one: where a capacity is cut, its LP solved
 * alongside the strategies; elsewhere (or when that solve fails or finds no optimum: it is a bound,
 * not an answer) its relaxation without the capacity and cancellation-count rows, summed here.
 */
async function flightBoundOf(
  schedule: Schedule, prepared: PreparedSimulation, config: SolverConfig, solver: Solver, budget: Budget, onBound?: (bound: number, source: 'flight_bound') => void,
): Promise<SimulationBound | null> {
  const closed = closedFlightBound(schedule, prepared, config);
  if (closed !== null && closed > 0) onBound?.(closed, 'flight_bound');
  const asBound = (value: number | null): SimulationBound | null => (value === null ? null : { value, source: 'flight_bound' });
  if (!flightBoundWanted(prepared.scope.disruptions) && prepared.engine.engine !== 'network') return asBound(closed);
  const model = flightBoundModel(new RouteEvaluator(schedule, prepared.scope, config), prepared.groups);
  try {
    const outcome = await solver.solve({ model, timeLimitMs: Math.max(1, budget.remainingMs()), mipGap: 0, relaxation: true }, { signal: budget.signal, deadline: budget.deadline, background: budget.background });
    if (outcome.status !== 'optimal' || outcome.objective === null) return asBound(closed);
    const value = closed === null ? outcome.objective : Math.max(outcome.objective, closed);
    onBound?.(value, 'flight_bound');
    return asBound(value);
  } catch {
    return asBound(closed);
  }
}

/** The flight bound in closed form, the capacities counted hour by hour (bounds/flight-bound.ts); null when no plan exists at all. */
function closedFlightBound(schedule: Schedule, prepared: PreparedSimulation, config: SolverConfig): number | null {
  const closed = flightBoundInClosedForm(new RouteEvaluator(schedule, prepared.scope, config), prepared.groups);
  return Number.isFinite(closed) ? closed : null;
}

/**
 * The shortest time limit under which the network bound runs (else the flight bound). Below
 * COLD_BOUND_MIN_LIMIT_MS only where a thread holds the problem's relaxation (docs/model.md 3.9).
 */
const NETWORK_BOUND_MIN_LIMIT_MS = 1000;

/**
 * The shortest time limit under which the network bound may start a thread and build there; below
 * it, it asks only a thread that holds its problem's relaxation, kept from an earlier bound of it,
 * for a few iterations (bounds/network-bound-thread.ts, warmRelaxationThread), else it answers with
 * the flight bound. A build and the iterations to a good bound take 1.3 s of CPU on the issue
 * storm, the 2 s plan's on two cores: the
 * default hub storm's 2 s simulations had ended without a plan in 4 of 4 with them at load average
 * 10-13 (until 2026-11-29 the network bound ran from 5 s only), and 2 s storms took up to 6.4 s at
 * load average 15 (2026-11-29).
 */
const COLD_BOUND_MIN_LIMIT_MS = 5000;

/**
 * The longest a strategy that has its plan waits for the simulation's bound, as a share of the time
 * limit: the flight bound's LP comes within it, and a network bound still improving near the deadline
 * gets that much more; a scope proven early answers at most this much later than without it (the
 * small hub storm at 10 s, proven in about 2 s, answered in 3.9 s with 0.1 of the limit and 6.0 s
 * when the strategies waited for the bound's deadline).
 */
const BOUND_WAIT_SHARE = 0.05;

/**
 * A strategy asking for the bound after this share of the time limit has run out of time rather than
 * finished: it waits for the bound until the deadline (the default hub storm at 10 s: its integrated
 * solve asked at 8.1 s and, with the short wait, answered at 8.6 s with the bound's first iteration,
 * 384,890, where the bound reached about 600,000 by the deadline).
 */
const BOUND_LATE_SHARE = 0.7;

/**
 * What the time limit keeps back for reading the plans into options and answering: measured on the
 * default hub storm (49 aircraft, 288 flights), reading four plans takes about 30 ms, and bringing the
 * result to the HTTP thread, presenting it and sending it 60-170 ms more; with 200 ms kept back, one
 * of five answers came 10 ms after its 10 s limit.
 */
const READ_RESERVE_MS = 400;
const READ_RESERVE_SHARE = 0.05;

/**
 * Once the integrated strategy is proven (optimal, or no plan at all), the restricted strategies end
 * by RESTRICTED_SHARE of the time limit or RESTRICTED_AFTER_SHARE of it after that proof, whichever
 * is later. The integrated option is the recommendation and its proof is kept; the restricted ones
 * are alternatives, and proving them (the swap strategy's most of all, whose plans without any
 * cancellation can cost three times as much) was what held a single delay's answer up to its time
 * limit (measured on 30 seeded single delays of the default schedule: p95 877 ms, all of it the swap
 * strategy's proof after the integrated one had ended). A restricted option cut short says so and
 * keeps a valid bound (the integrated strategy's, its own Lagrangian one, or the flight bound).
 * (Halving both was tried: the swap solve still ends 100-440 ms after the integrated one in 16 of
 * the default schedule's 39 single delays, but on a loaded machine the small schedule's restricted
 * proofs no longer finished within a 10 s limit's share: docs/model.md 3.6.) The part after the proof
 * is 2 % (40 ms of 2 s), not 5 %: in a slow single delay the swap solve starts only then and its
 * generation rarely ends in 100 ms either, so the 5 % was the tail of the answer; 2 % still leaves it
 * its first integer solve over the integrated routes, which proves it at the integrated bound when
 * that plan flies every flight (78 single delays at 2 s, the three shares alternately: the swap option
 * proven in 49, 49 and 45 at 5 %, 2 % and 1 %, no swap plan at all in 1, 1 and 5; the time from the
 * integrated proof to the answer summed 2.8 s, 1.4 s and 1.0 s: docs/model.md 3.6, request path).
 */
const RESTRICTED_SHARE = 0.1;
const RESTRICTED_AFTER_SHARE = 0.02;

/**
 * The longest the swap solve waits for the integrated one, as a share of the time limit: long enough
 * for the interactive single delays (the integrated solve ends in 0.1-1 s of their 2 s, and then the
 * swap solve is often proven at once: docs/model.md 3.5), short enough to leave a network-wide swap
 * solve (a hub storm's) half its budget.
 */
const SWAP_WAIT_SHARE = 0.5;

/** Resolves when `solve` settles or at the performance.now() instant `at`, whichever comes first. */
async function integratedOrTimeUp(solve: Promise<unknown>, at: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    solve.then(() => undefined, () => undefined),
    new Promise<void>((resolve) => { timer = setTimeout(resolve, Math.max(0, at - performance.now())); }),
  ]);
  clearTimeout(timer);
}

/** Read a solver's variable values back into a plan. */
export function readPlan(model: StrategyModel, values: Record<string, number>): Plan {
  const routes = [...chosenRoutes(model, values).values()];
  const flows: PassengerFlow[] = [];
  for (const [column, { group, journey, from }] of model.rebookColumns) {
    const passengers = Math.round(values[column] ?? 0);
    if (passengers > 0) flows.push({ group, journey, from, passengers });
  }
  for (const [column, group] of model.strandedColumns) {
    const passengers = Math.round(values[column] ?? 0);
    if (passengers > 0) flows.push({ group, journey: null, from: null, passengers });
  }
  return { routes, flows };
}

export function solverReport(solved: StrategySolve, facts: SolverFacts = solved.facts): SolverReport {
  const { model, outcome } = solved;
  let mipGap: number | null = null;
  if (outcome.status === 'optimal') mipGap = 0;
  else if (outcome.objective !== null && outcome.lowerBound !== null) {
    mipGap = Math.max(0, (outcome.objective - outcome.lowerBound) / Math.max(1, Math.abs(outcome.objective)));
  }
  return {
    status: outcome.status, objective: outcome.objective, lowerBound: outcome.lowerBound, mipGap, solveMs: Math.round(outcome.solveMs * 10) / 10,
    size: modelSize(model.model), candidateRoutes: model.candidateRoutes, iterations: solved.iterations, lowerBoundSource: solved.boundSource, facts,
    engine: 'neighbourhood', engineReasons: [],
  };
}

/**
 * Stage 3: every solved strategy's plan as an option; the strategies without a plan as unsolved.
 * Every restricted strategy's plan is also a plan of the integrated strategy: if the integrated solve
 * stopped early with something worse (or nothing), the best restricted plan stands in.
 */
export function readOptions(
  schedule: Schedule, prepared: PreparedSimulation, config: SolverConfig, solved: readonly StrategySolve[], elsewhere?: ReadOptions,
): ReadOptions {
  const { scope } = prepared;
  const options: RecoveryOption[] = [...elsewhere?.options ?? []];
  const unsolved: UnsolvedStrategy[] = [...elsewhere?.unsolved ?? []];
  for (const s of solved) {
    const { outcome, model } = s;
    if (outcome.objective === null) {
      unsolved.push({ strategy: model.strategy, status: outcome.status, facts: s.facts, detail: outcome.detail });
      continue;
    }
    options.push(evaluatePlan(schedule, scope, config, model.strategy, readPlan(model, outcome.values), solverReport(s)));
  }

  const integratedIndex = solved.findIndex((s) => s.model.strategy === 'integrated');
  if (integratedIndex >= 0) {
    const integrated = options.find((o) => o.strategy === 'integrated');
    const best = options.filter((o) => o.strategy !== 'integrated').sort((p, q) => p.kpis.cost - q.kpis.cost)[0];
    if (best && (!integrated || best.kpis.cost < integrated.kpis.cost - 1e-6)) {
      const s = solved[integratedIndex]!;
      // The integrated option is the cheapest of its own solve and the other strategies' plans
      // (docs/model.md 1.8): its bound is the lesser of its solve's bound and this plan's cost, so
      // it is proven optimal when its own solve was, or was proven to have no plan (column
      // generation reports `infeasible` only when proven)...
      const cost = best.kpis.cost;
      const ownBound = s.outcome.status === 'infeasible' ? Number.POSITIVE_INFINITY : s.outcome.status === 'optimal' ? s.outcome.objective : s.outcome.lowerBound;
      // ... or when this plan costs the integrated solve's bound (the flight bound can be that).
      const proven = s.outcome.status === 'optimal' || s.outcome.status === 'infeasible' || (ownBound !== null && ownBound >= cost - 1e-6 * Math.max(1, Math.abs(cost)));
      const lowerBound = ownBound === null ? null : Math.min(ownBound, cost);
      const report = solverReport(s, { kind: 'restricted_plan_used', plan: best.strategy, ownStatus: s.outcome.status, ownObjective: s.outcome.objective, own: s.facts });
      const replacement: RecoveryOption = {
        ...structuredClone(best), strategy: 'integrated',
        solver: {
          ...report, status: proven ? 'optimal' : report.status, objective: cost, lowerBound,
          mipGap: proven ? 0 : lowerBound === null ? null : Math.max(0, (cost - lowerBound) / Math.max(1, Math.abs(cost))),
        },
      };
      if (integrated) options.splice(options.indexOf(integrated), 1, replacement);
      else {
        options.push(replacement);
        unsolved.splice(unsolved.findIndex((u) => u.strategy === 'integrated'), 1);
      }
    }
  }
  return { options, unsolved };
}

/** Stage 4: rank options by cost, ties by the order of strategies.evaluate; sets `rank` (1 = best). */
export function rankOptions(options: RecoveryOption[], config: SolverConfig): RecoveryOption[] {
  const order = config.strategies.evaluate;
  const ranked = [...options].sort((p, q) => p.kpis.cost - q.kpis.cost || order.indexOf(p.strategy) - order.indexOf(q.strategy));
  ranked.forEach((o, i) => { o.rank = i + 1; });
  return ranked;
}

/**
 * Run a simulation (its references checked: checkReferences) through the four stages. Rejects with
 * RecoveryError, the solver's failure (busy, crashed, aborted by the budget's signal); solver
 * outcomes (infeasible, time limit) are values in the result.
 */
export async function simulate(
  schedule: Schedule, request: SimulationRequest, solver: Solver, budget: Budget = Budget.start(request.config.solver.time_limit_ms),
  onProgress?: (progress: SimulationProgress) => void, elsewhere?: SolveElsewhere,
): Promise<SimulationResult> {
  const started = budget.startedAt;
  onProgress?.({ phase: 'preparing', elapsedMs: 0, iterations: 0, bestCost: null, lowerBound: null, mipGap: null, result: null });
  const prepared = prepareSimulation(schedule, request);
  const solveStarted = performance.now();
  const floor: { bound: number | null; incumbent: number | null } = { bound: null, incumbent: null };
  const tracker = onProgress ? progressTracker(schedule, request, prepared, started, onProgress, floor) : undefined;
  const track = (progress: StrategyProgress) => {
    const cost = progress.incumbent?.outcome.objective ?? null;
    if (cost !== null && (floor.incumbent === null || cost < floor.incumbent)) floor.incumbent = cost;
    tracker?.report(progress);
  };
  // The bound stops when the strategies are done (or the budget's signal drops the simulation).
  const boundDone = new AbortController();
  const deadline = strategiesDeadline(budget);
  let best: SimulationBound | null = null;
  // The network bound's routes go to the network search (bounds/relaxation-routes.ts), for its bound
  // round: only a budget of 10 s or more has one, so a shorter one has the bound collect none; every
  // network search starts from what an earlier one of the same problem kept there.
  const searchRoutes = prepared.engine.engine === 'network' ? new RelaxationRoutes(schedule, prepared.scope, request.config) : null;
  const boundRoutes = searchRoutes && hasBoundRound(deadline - performance.now()) ? searchRoutes : null;
  const finished = simulationBound(schedule, prepared, request.config, solver, budget.within(deadline, AbortSignal.any([budget.signal, boundDone.signal])), () => floor.incumbent, (b, source) => {
    const before = floor.bound;
    if (best === null || b > best.value) best = { value: b, source };
    floor.bound = best.value;
    // Reported at once when it is the first or 0.1 % better (the network bound improves many times a second).
    if (before === null || floor.bound > before + 1e-3 * Math.abs(before)) tracker?.bound();
  }, boundRoutes?.hear).catch(() => null);
  // A strategy that asks for the bound (`await` calls `then` then) takes the best one known once the
  // bound is done, or by the deadline when it asks late (it ran out of time: the bound may still rise),
  // or after BOUND_WAIT_SHARE of the limit when it asks early (proven, or out of routes: it answers).
  const bound = {
    then: (ok: (b: SimulationBound | null) => unknown, fail: (e: unknown) => unknown) => {
      const late = performance.now() - budget.startedAt >= BOUND_LATE_SHARE * budget.limitMs;
      const wait = Math.max(0, Math.min(deadline - performance.now(), late ? Number.POSITIVE_INFINITY : BOUND_WAIT_SHARE * budget.limitMs));
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([finished, new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), wait); })])
        .then((last) => {
          clearTimeout(timer);
          return last !== null && (best === null || last.value >= best.value) ? last : best;
        })
        .then(ok, fail);
    },
  } as unknown as Promise<SimulationBound | null>;
  // A single delay's cancellation and delay propagation strategies go to another thread when there is
  // one (SolveElsewhere): they share nothing with the integrated solve there but the flight bound, which
  // each side computes (a small LP). Not with progress reports (a job's), whose tracker reads every
  // strategy's plans as they come, nor with the network engine or bound, whose solves share routes and a
  // large LP.
  const restrictedDone = new AbortController();
  const away = elsewhere && !onProgress && splitsWell(prepared, request.config)
    ? elsewhere(restrictedPart(request), budget.within(Number.POSITIVE_INFINITY, AbortSignal.any([budget.signal, restrictedDone.signal])))
    : null;
  let solved: StrategySolve[];
  let readElsewhere: ReadOptions | undefined;
  try {
    solved = await solveStrategies(schedule, prepared, request.config, solver, budget, track, bound, away ?? undefined, searchRoutes ? { take: boundRoutes?.take, earlier: searchRoutes.earlier, keep: searchRoutes.keep } : undefined);
    readElsewhere = await away?.done;
  } finally {
    boundDone.abort();
    restrictedDone.abort();
  }
  const { options, unsolved } = readOptions(schedule, prepared, request.config, solved, readElsewhere);
  return assembleResult(request, prepared, rankOptions(options, request.config), unsolved, {
    total: Math.round(performance.now() - started),
    build: Math.round(prepared.buildMs),
    solve: Math.round(performance.now() - solveStarted),
  });
}

/** The part of `request` solved elsewhere (SolveElsewhere): the same request with only those strategies. */
export function restrictedPart(request: SimulationRequest): SimulationRequest {
  const { config } = request;
  return { ...request, config: { ...config, strategies: { ...config.strategies, evaluate: config.strategies.evaluate.filter((s) => ELSEWHERE.includes(s)) } } };
}

/**
 * Whether a simulation's restricted strategies may be solved elsewhere (SolveElsewhere): the integrated
 * one is evaluated with at least one of them, by the neighbourhood engine, with the flight bound.
 */
function splitsWell(prepared: PreparedSimulation, config: SolverConfig): boolean {
  const evaluate = config.strategies.evaluate;
  return evaluate.includes('integrated') && evaluate.some((s) => ELSEWHERE.includes(s))
    && prepared.engine.engine !== 'network' && !networkBoundWanted(prepared.scope.disruptions);
}

function assembleResult(
  request: SimulationRequest, prepared: PreparedSimulation, options: RecoveryOption[], unsolved: UnsolvedStrategy[], timingsMs: SimulationResult['timingsMs'],
): SimulationResult {
  const { scope } = prepared;
  // The network engine answers for the integrated strategy; the restricted ones stay with the neighbourhood engine.
  if (prepared.engine.engine === 'network') {
    for (const o of options) if (o.strategy === 'integrated') o.solver = { ...o.solver, engine: 'network', engineReasons: prepared.engine.reasons };
  }
  return {
    scenarioId: request.scenarioId,
    airline: scope.airline,
    scheduleName: request.scheduleName,
    disruptedFlightId: request.disruptedFlightId,
    disruptions: scope.disruptions,
    disruptionMinutes: scope.disruptionMinutes,
    windowEndMinutes: scope.windowEndMinutes,
    scope: { tails: scope.aircraft.map((a) => a.aircraft.tail), flights: scope.flights.length, itineraries: prepared.groups.misconnections.length },
    options,
    violations: prepared.violations,
    unsolved,
    timingsMs,
  };
}

const PHASE_ORDER: readonly StrategyPhase[] = ['generating_columns', 'integer_plan', 'proving', 'done'];

/**
 * Turns the strategies' reports into the simulation's: the least advanced phase, the summed rounds,
 * and (whenever a strategy's plan changes) the best plans so far read and ranked as the final result
 * would be, so that a cancelled or watched simulation has a result to show.
 */
function progressTracker(
  schedule: Schedule, request: SimulationRequest, prepared: PreparedSimulation, started: number, emit: (progress: SimulationProgress) => void,
  floor: { bound: number | null },
): { report: (progress: StrategyProgress) => void; bound: () => void } {
  const latest = new Map<string, StrategyProgress>();
  let best: { cost: number | null; lowerBound: number | null; mipGap: number | null } = { cost: null, lowerBound: null, mipGap: null };
  const report = (report: StrategyProgress | null) => {
    const previous = report ? latest.get(report.strategy) : undefined;
    if (report) latest.set(report.strategy, report);
    let result: SimulationResult | null = null;
    if (report?.incumbent && report.incumbent !== previous?.incumbent) {
      const solved = [...latest.values()].map((p) => p.incumbent).filter((s): s is StrategySolve => s !== null);
      const { options } = readOptions(schedule, prepared, request.config, solved);
      const ranked = rankOptions(options, request.config);
      const elapsed = Math.round(performance.now() - started);
      result = assembleResult(request, prepared, ranked, [], { total: elapsed, build: Math.round(prepared.buildMs), solve: Math.max(0, elapsed - Math.round(prepared.buildMs)) });
      // Every plan is a plan of the integrated strategy, whose option stands for the cheapest one.
      // A result without any option is no plan to show: the last one with options stays.
      if (ranked.length === 0) result = null;
      const answering = ranked.find((o) => o.strategy === 'integrated') ?? ranked[0];
      if (answering) best = { cost: answering.kpis.cost, lowerBound: answering.solver.lowerBound, mipGap: answering.solver.mipGap };
    }
    const reports = [...latest.values()];
    const waiting = request.config.strategies.evaluate.length - reports.length;
    const phase = waiting > 0 ? 'generating_columns' : PHASE_ORDER[Math.min(...reports.map((p) => PHASE_ORDER.indexOf(p.phase)))]!;
    // Before a plan exists, the integrated strategy's bound (or the first one known) says how good any plan can be.
    // The simulation's own bound (network or flight) holds for every plan as soon as it is known.
    const own = best.lowerBound ?? (latest.get('integrated') ?? reports.find((p) => p.lowerBound !== null))?.lowerBound ?? null;
    const bound = floor.bound !== null && (own === null || floor.bound > own) ? Math.min(floor.bound, best.cost ?? floor.bound) : own;
    const mipGap = best.cost === null || bound === null ? best.mipGap : Math.max(0, (best.cost - bound) / Math.max(1, Math.abs(best.cost)));
    emit({
      phase, elapsedMs: Math.round(performance.now() - started), iterations: reports.reduce((sum, p) => sum + p.iterations, 0),
      bestCost: best.cost, lowerBound: bound, mipGap, result,
    });
  };
  // A better simulation bound is reported at once (before any plan, the first bound above 0 comes from it).
  return { report, bound: () => report(null) };
}
