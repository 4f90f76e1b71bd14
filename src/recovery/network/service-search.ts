// The network engine on the service's schedules: a search over whole-network operating plans (one
// route per aircraft of the scope), each set of routes priced with its passengers exactly by the
// shared recovery model (neighbourhood/rows: the same rows, rules and cost_weights as every strategy)
// solved on GLPK.
//
// Where the neighbourhood engine prices routes one aircraft at a time against the master's duals, this
// search walks the whole network at once with the engine's walk (operating-plan.ts, under the
// service's rules: scope-walk.ts), in time order, handing out airport capacity first come, first
// served (like the first plan), and repairs as it goes: a flight that can no longer leave within its
// delay limit, or whose delay passes the walk's cancellation threshold, is cancelled together with
// the flights that bring the aircraft back to where it stands (a round trip), so that the rest of the
// rotation keeps its times. One walk per threshold gives a portfolio of whole-network plans: the one
// that looks cheapest is solved alone first (a plan within a 2 s budget under load). Meanwhile a
// greedy descent cancels, one at a time, the round trips whose cancellation makes the whole-network
// walk look cheapest; its last walk is solved alone next (at 2 s the descent comes first, and only the
// cheaper-looking of the two walks is solved). Then all their routes form the pool of one
// integer model, which picks the cheapest combination (capacity rows keep the combination feasible).
// Then, from the best plan, the most troubled aircraft try a delayed round trip cancelled, their
// planned sequence restored or the rest of their rotation exchanged (the engine's move, search.ts),
// the whole network walked again around the change, and the pool grows, for at
// most 1.5 s (half a job's budget of 30 s or more); then the best plan's passengers are re-accommodated
// exactly over every journey worth taking; last, within a job's budget, large neighbourhoods of the
// best plan are re-solved by the column generation (large-neighbourhood.ts) and the best of them
// re-accommodated exactly in turn (docs/model.md 4.6).
//
// Every plan it finds is a plan of the integrated strategy, so the integrated column generation's
// bound (proven over every route of the scope) holds for it; the pipeline also hands the generation
// the routes of each better plan as they come (`offer`), as first columns for its master.
import type { Flight, Schedule } from '../../domain/schedule.ts';
import { RouteEvaluator, type Route } from '../neighbourhood/aircraft-routes.ts';
import type { StrategySolve } from '../neighbourhood/column-generation.ts';
import { buildStrategyModel, chosenRoutes, type StrategyModel } from '../neighbourhood/rows/strategy-model.ts';
import { strategyCancels } from '../neighbourhood/rows/row-families.ts';
import { serviceCostModel } from '../model/cost-model.ts';
import { RecoveryError } from '../model/failure.ts';
import type { AircraftInScope, RecoveryScope } from '../model/scope.ts';
import type { SolverConfig } from '../model/solver-config.ts';
import type { SolveOutcome, Solver } from '../model/solver-port.ts';
import { JourneyFinder, type Journey } from '../passengers/journeys.ts';
import type { PassengerGroups } from '../passengers/passengers.ts';
import { searchNeighbourhoods } from './large-neighbourhood.ts';
import { ScopeWalks } from './scope-walk.ts';
import { rotationExchanges } from './search.ts';

/**
 * Delays (minutes) past which a walk cancels a flight's round trip rather than fly it that late; one
 * walk each, Infinity being the walk that only cancels what cannot be flown at all. Measured on the
 * storm of issue 23 (a hub's capacity cut to a fifth for three hours): the integer model over these
 * five walks picks round trips from several of them.
 */
const CANCELLATION_THRESHOLDS_MINUTES = [Number.POSITIVE_INFINITY, 240, 150, 90, 45];

/** Share of the time budget the search may use, at most SEARCH_MAX_MS below LONG_BUDGET_MS (its solves share the workers with the column generations). */
const SEARCH_SHARE = 0.5;

/**
 * Longest the search runs before its exact re-accommodation, milliseconds: past it, on the storms
 * of issue 23 at 10 s, the column generations' own plans gain more from the thread and the workers
 * than the search's variants do (measured: with half of 10 s, the hub storm's plan ended 7 % dearer).
 */
const SEARCH_MAX_MS = 1_500;

/**
 * A request's limit this long (a job's, milliseconds) lets the search run for SEARCH_SHARE of its budget,
 * past SEARCH_MAX_MS, with the large neighbourhoods after it. The stated limit decides, not the time
 * left to the search's deadline: a 30 s request's search sees about 29 s (the read reserve and the
 * preparation come off), and took the short path before (docs/model.md 4.6).
 */
const LONG_BUDGET_MS = 30_000;

/**
 * Share of the budget by which the round over the whole portfolio of walks ends, when later than the
 * search's cap (the exact stage keeps the time after it). Half: at 10 s under load (average 13-21) the
 * round often ended past 3.5 s, and the answer was the walk alone's (1,928,660 on the issue storm,
 * 1,768,697.5 on the hub storm, 14 runs of 21); with the round allowed to 5 s, alternating with
 * 3.5 s, 14 pairs: never dearer, cheaper in five (docs/model.md 4.6). It moves nothing at 2 s (the
 * search's own 1 s is later) nor from 30 s on (its half).
 */
const PORTFOLIO_SHARE = 0.5;

/**
 * Share of a job's budget (LONG_BUDGET_MS or more) by which the large-neighbourhood search of the
 * best plan ends (after the rounds; the exact stage keeps the time after it): late enough that it
 * also improves the integrated generation's plan, which comes only after that generation's share of
 * the budget (0.6: column-generation.ts). Shorter budgets have no neighbourhoods: at 10 s (three
 * alternating runs against main, load 10-15) they took the generations' thread and workers, and the
 * hub storm's answer was dearer (median 1,493,227.5 against 1,303,887.5; docs/model.md 4.6).
 */
const NEIGHBOURHOOD_SHARE = 0.72;

/** Share of the budget by which the exact re-accommodation of the best plan ends (GLPK's own limit; the pipeline's deadline is the hard stop). */
const EXACT_SHARE = 0.8;
/**
 * EXACT_SHARE where the dive comes before the answer's only exact stage (a bound round below a job's
 * budget: 10-30 s). There the search has nothing to do after that stage, and the integrated
 * generation, which runs to the strategies' deadline beside it, answered neither storm (one round in
 * 10 s, 3.5 M on the issue storm); with 0.8 a dive ending at 6.7 s of a 10 s asking under load left its
 * exact stage (journeys, then a 7,000-row MIP: 1.4 s of wall) past its end (docs/model.md 4.6, "The
 * rounds before the bound round").
 */
const DIVE_FIRST_EXACT_SHARE = 0.92;

/**
 * Shares of the budget from which and by which the bound round (below) solves: by 0.3 the bound has
 * stepped long enough that its routes make cheap plans (on the issue storm at 30 s, 1,183,812.5 from
 * 515 routes where the rounds had 1,640,680: docs/model.md 4.6). When the bound has told no routes by
 * then (its thread starved: 2-7 s into a 10 s run at load average 9-20), the round waits for them
 * (BOUND_ROUND_ROUTES_PER_AIRCRAFT) until BOUND_ROUND_LATEST_SHARE. Below a job's budget it ends by SHORT_BOUND_ROUND_END_SHARE: the
 * exact stage (by DIVE_FIRST_EXACT_SHARE) needs about 1 s after it; and there no round of the search
 * but its first runs past BOUND_ROUND_SHARE (the portfolio's round, to PORTFOLIO_SHARE before, held the
 * dive back to half of a 10 s budget: docs/model.md 4.6, "The rounds before the bound round").
 */
const BOUND_ROUND_SHARE = 0.3;
const BOUND_ROUND_LATEST_SHARE = 0.5;
const BOUND_ROUND_END_SHARE = 0.5;
/**
 * Routes per aircraft the bound should have told before the round (else it waits, until
 * BOUND_ROUND_LATEST_SHARE): its first step's are about the planned rotations the walks already have
 * (38 on the issue storm, none new); after 40 steps it had told 377, which gave a plan of 1,270,555.
 */
const BOUND_ROUND_ROUTES_PER_AIRCRAFT = 4;
const SHORT_BOUND_ROUND_END_SHARE = 0.82;
/**
 * Share of the budget by which a dive after the first ends (below a job's budget): the first dive's
 * plan keeps time for its exact stage (on the hub storm at 20 s, load 12, a second dive ran to 15.5 s,
 * past that stage's end, and the answer kept the first dive's plan on direct flights, 904,377.5). 0.72
 * since that stage may end by DIVE_FIRST_EXACT_SHARE (it needs about 1 s after the dive at 10 s).
 */
const REDIVE_END_SHARE = 0.72;
/**
 * Least budget (milliseconds to the search's deadline) with a bound round: a 10 s request's (9.6 s to
 * the strategies' deadline, less the preparation). Below it the network bound's routes come too late
 * (from 5 s the simulation has a network bound; its first routes came 2-7 s in at load average 9-20).
 */
const BOUND_ROUND_MIN_MS = 7_000;
/** Whether a search with this budget (milliseconds to its deadline) runs the bound round (BOUND_ROUND_MIN_MS or more). */
export function hasBoundRound(budgetMs: number): boolean {
  return budgetMs >= BOUND_ROUND_MIN_MS;
}
/** How often the bound round's wait looks whether the generation has proven its plan optimal, milliseconds. */
const BOUND_ROUND_POLL_MS = 100;

/**
 * Share of the budget by which the cancellation descent (cancellationDescent) ends, its walks on the
 * simulation thread while the first round's model is solved on a worker. On the storms of issue 23
 * (2026-11-28, load average 7-20) it converged after 87-109 walks, 0.3-0.45 s of CPU, to a walk whose
 * plan cost 1,553,315 (issue storm) and 1,326,212.5 (hub storm) alone, against 1,928,660 and
 * 1,768,697.5 for the best threshold's walk; at 2 s under load 14 it got 1-16 steps in its 0.6 s
 * (docs/model.md 4.6).
 */
const DESCENT_SHARE = 0.3;
/**
 * DESCENT_SHARE below a bound round's budget (BOUND_ROUND_MIN_MS: the default 2 s), where the exact
 * stage did not finish in 36 runs of the storms at 2 s (load average 11-18) and the descent's walk,
 * priced without a solver, is the plan to beat: with 0.3 the answer was the best threshold's walk in 34
 * runs of 36 (1,928,660 and 1,768,697.5); with 0.65, alternating, the descent's (1,553,315, 1,326,212.5)
 * in 15 of 24 (docs/model.md 4.6). The descent stops once no step pays, so it takes the time only under load.
 */
const SHORT_DESCENT_SHARE = 0.65;
/**
 * SHORT_DESCENT_SHARE when the descent comes first (a problem not searched before), so that only its
 * walk's model and price come after it: 0.75 converged the issue storm's cold first descent in 7 first
 * askings of 11 against 3 of 15 with 0.65 (load average 9-18), the answers about as late (medians
 * 2.42-2.72 s against 2.57-2.83 s). Not when the problem was searched before: there the descent runs
 * after the kept plan's solve is sent, and with 0.75 those askings answered up to 1 s later than with
 * 0.65 (1.97-3.01 s against 1.93-2.02 s, load 9-11; docs/model.md 4.6).
 */
const FIRST_DESCENT_SHARE = 0.75;
/** Round trips (the most delayed) whose cancellation a step of the descent may try (60 found a 1 % cheaper walk on the issue storm with 22 % more walks). */
const DESCENT_CANDIDATES = 30;

/** Aircraft whose variants are tried per round (the most delayed first). */
const VARIANTS_PER_ROUND = 6;
/** Thresholds of the single-aircraft variants (fewer than the portfolio's: the search's walks share the thread with the column generations' pricing). */
const VARIANT_THRESHOLDS_MINUTES = [Number.POSITIVE_INFINITY, 90];
/** Round trips per aircraft tried cancelled in a whole-network walk, per round (the most delayed first). */
const ROUND_TRIPS_PER_AIRCRAFT = 1;
/** Exchanges of the rest of its rotation (the engine's move, search.ts) tried per aircraft left with cancelled flights, per round. */
const EXCHANGES_PER_AIRCRAFT = 2;

/**
 * How the search's plan re-accommodates its passengers: exactly for its routes, over every journey
 * worth taking (its last step); by a round's solve, over direct flights only (the time limit came
 * before that step); or, when no solve of the search ended with a plan in time, without a solver
 * (planWithoutSolver: compensated, or moved greedily onto free seats of direct flights).
 */
export type SearchPassengers = 'exact' | 'direct_flights' | 'without_solver';

/**
 * What a search of a problem found, kept for its next asking (bounds/relaxation-routes.ts): its answer's
 * routes (a route per tail) and cost, and the routes its dives' LPs valued (diveForPlan's support).
 */
export interface EarlierSearch { plan: Map<string, Route>; cost: number; support: Route[] }

/** The search's best plan: the model it was read from and GLPK's outcome on it. */
export interface NetworkSearchResult {
  /** The best plan found, as a solve of the integrated strategy (status feasible: the search proves nothing). */
  best: StrategySolve | null;
  /** Walks and rounds of the search. */
  rounds: number;
  routes: number;
  /** How `best`'s passengers are re-accommodated (SearchPassengers). */
  passengers: SearchPassengers;
  /** Sub-scopes the large-neighbourhood search solved (large-neighbourhood.ts). */
  neighbourhoods: number;
}

/**
 * Search the network for SEARCH_SHARE of the time to `deadline` (a performance.now() instant), at
 * most SEARCH_MAX_MS below LONG_BUDGET_MS, then re-accommodate the best plan's passengers exactly by EXACT_SHARE of it. The
 * routes of each better plan are pushed to `offer` (the integrated column generation takes them up).
 * Resolves to its best plan as a solve of the integrated strategy, or none when no walk gives every
 * aircraft a route; rejects with RecoveryError when a round's solve fails or `signal` aborts.
 */
export async function searchNetwork(args: {
  schedule: Schedule; scope: RecoveryScope; config: SolverConfig; groups: PassengerGroups; solver: Solver;
  signal?: AbortSignal; deadline: number; offer?: Route[];
  /** Routes from elsewhere (the network bound's: bounds/relaxation-routes.ts), those told since the last call: the bound round's. */
  boundRoutes?: () => Route[];
  /** A job's search: its solves wait behind the interactive ones. */
  background?: boolean;
  /** Told of each better plan, and how its passengers were re-accommodated. */
  onIncumbent?: (best: StrategySolve, passengers: SearchPassengers) => void;
  /** The integrated column generation's best plan so far (null before it has one): the neighbourhoods improve it when it is cheaper. */
  generationPlan?: () => StrategySolve | null;
  /** The request's stated time limit (milliseconds): LONG_BUDGET_MS or more is a job's search. Without it, the time to `deadline`. */
  limitMs?: number;
  /** What an earlier search of the same problem found (`keep`): its plan is solved first, then the model over its support. */
  earlier?: EarlierSearch | null;
  /** Told, once the search has its answer, what a later search of the same problem may start from (`earlier`). */
  keep?: (found: EarlierSearch) => void;
}): Promise<NetworkSearchResult> {
  const { schedule, scope, config, groups, solver, signal, deadline } = args;
  const started = performance.now();
  const long = (args.limitMs ?? deadline - started) >= LONG_BUDGET_MS;
  const ev = new RouteEvaluator(schedule, scope, config);
  const walks = new ScopeWalks(scope, ev, config.solver.time_step_minutes);
  const mayCancel = strategyCancels('integrated', config);
  const pool = new Map<string, Route[]>(scope.aircraft.map((a) => [a.aircraft.tail, []]));
  const keys = new Set<string>();
  const add = (route: Route | null | undefined) => {
    if (!route || keys.has(route.key)) return;
    keys.add(route.key);
    pool.get(route.tail)!.push(route);
  };
  const planned = walks.planned;
  // The portfolio: one whole-network walk per threshold, and each aircraft grounded where it may be.
  // Each walk is a whole plan itself: the one that looks cheapest is solved alone first (below), at
  // every budget. Under load the portfolio's round may not end in time: at 2 s (load 15-18) the search
  // had a plan in 0 of 5 runs before this, at 30 s (load 16) none after 24 s, and at 10 s beside two
  // CPU hogs two fresh-clone CI runs answered the storm of issue 23 without an integrated plan. (At 10 s
  // the walk's plan may leave its exact stage too little time; its note then says so: 4.6.)
  let first: { routes: Map<string, Route[]>; estimate: number } | null = null;
  for (const thresholdMinutes of CANCELLATION_THRESHOLDS_MINUTES) {
    if (!mayCancel && Number.isFinite(thresholdMinutes)) continue;
    const routes = walks.walk({ thresholdMinutes });
    for (const route of routes.values()) add(route);
    const estimate = walkEstimate(routes, walks, config);
    if (estimate < (first?.estimate ?? Number.POSITIVE_INFINITY)) first = { routes: new Map([...routes].map(([tail, route]) => [tail, [route!]])), estimate };
  }
  if (mayCancel) for (const a of scope.aircraft) add(ev.finish(a, [], a.checks.map(() => null)));
  // The cancellation descent (cancellationDescent) runs while the first round's solve is on a worker
  // (below); its steps' routes join the pool, and its last walk is solved alone next when it looks
  // cheaper than the first. Below a bound round's budget (the default 2 s), on a problem not searched
  // before, it runs at once instead, and only the cheaper-looking of its last walk and the best
  // threshold's is built and solved alone: at 2 s the first walk's solve gave what its plan without a
  // solver gives (11 of 12 walks), and building its model first (0.1-0.5 s of a loaded simulation
  // thread) came out of the descent's time (docs/model.md 4.6, "The descent first at 2 s"). (Tried
  // before the plan without a solver existed, the descent first left one 2 s run without a plan; now
  // its walk is priced without a solver as soon as its model is built.)
  let descend = mayCancel && first !== null;
  const short = !hasBoundRound(deadline - started);
  const descentEnd = started + (short ? SHORT_DESCENT_SHARE : DESCENT_SHARE) * (deadline - started);
  if (descend && short && !args.earlier) {
    descend = false;
    const descended = cancellationDescent(walks, config, started + FIRST_DESCENT_SHARE * (deadline - started), (routes) => { for (const route of routes.values()) add(route); });
    if (descended && descended.estimate < first!.estimate) first = { routes: new Map([...descended.routes].map(([tail, route]) => [tail, [route!]])), estimate: descended.estimate };
  }

  const journeysFound = new Map<string, Journey[]>();
  let best: StrategySolve | null = null;
  let rounds = 0;
  const tried = new Set<string>();
  // The search keeps to the first SEARCH_SHARE of the budget, at most SEARCH_MAX_MS below LONG_BUDGET_MS: its integer
  // models share the solver's workers with the column generations, whose proof and bound need the
  // rest, and the exact stage needs its time (without it the plan's passengers are not re-accommodated
  // exactly). Its first two rounds, though, may run longer: on a storm at 2 s the generations have no
  // plan of their own, and under load (average 17 on 2 cores) the model over every walk's routes took
  // 1.5-1.9 s, past the cap, so the storm was answered without a plan. The first round is the
  // cheapest-looking walk alone (one route per aircraft: 50-750 ms under that load), up to the exact
  // stage's end; the second the whole portfolio, up to PORTFOLIO_SHARE of the budget. (Both at once,
  // on the pool's two workers, were measured worse: under the same load the walk's solve then missed
  // the 2 s storm's deadline.)
  const searchDeadline = started + (long ? SEARCH_SHARE * (deadline - started) : Math.min(SEARCH_SHARE * (deadline - started), SEARCH_MAX_MS));
  const roundsExactDeadline = started + EXACT_SHARE * (deadline - started);
  // A bound round (the dive over the network bound's routes) runs when the budget allows one; below a
  // job's budget it comes before the answer's only exact stage.
  const bounding = args.boundRoutes !== undefined && hasBoundRound(deadline - started);
  const diveFirst = bounding && !long;
  const exactDeadline = started + (diveFirst ? DIVE_FIRST_EXACT_SHARE : EXACT_SHARE) * (deadline - started);
  // The walks solved alone (one route per aircraft) come first, each up to the exact stage's end; then
  // the portfolio's round. (Without a walk solved alone, the portfolio's is the first round.)
  const alone = first ? [buildStrategyModel(schedule, scope, config, 'integrated', first.routes, groups)] : [];
  // The same problem searched before: its answer's routes are solved alone first (priced at once
  // without a solver, below), then the model over the routes its dives valued beside them (diveForPlan's
  // model: the whole pool's optimum within a fraction of its solve), then the walks as before. So a
  // 2 s asking after a 10 s one starts from that one's plan, which no walk of 2 s comes near
  // (docs/model.md 4.6).
  const earlier = args.earlier;
  if (earlier) {
    for (const route of [...earlier.plan.values(), ...earlier.support]) add(route);
    const grounded = (tail: string) => pool.get(tail)!.filter((r) => r.legs.length === 0);
    const withSupport = new Map(scope.aircraft.map((a) => {
      const tail = a.aircraft.tail;
      return [tail, [...new Map([earlier.plan.get(tail)!, ...earlier.support.filter((r) => r.tail === tail), ...grounded(tail)].map((r) => [r.key, r])).values()]];
    }));
    alone.unshift(
      buildStrategyModel(schedule, scope, config, 'integrated', new Map([...earlier.plan].map(([tail, route]) => [tail, [route]])), groups),
      ...(earlier.support.length > 0 ? [buildStrategyModel(schedule, scope, config, 'integrated', withSupport, groups)] : []),
    );
  }
  // The plan to answer with when no solve of the search ends with one in time (planWithoutSolver): the
  // first walk's while its solve runs, the descent's when it looks cheaper; a solved plan that is
  // cheaper wins. (Priced before the first solve, the first walk's plan delayed it by 40-200 ms under load.)
  let unsolved: StrategySolve | null = null;
  const withoutSolver = (model: StrategyModel): StrategySolve | null => {
    const outcome = planWithoutSolver(model);
    if (!outcome || (unsolved && outcome.objective! >= unsolved.outcome.objective!)) return unsolved;
    const plan = asSolve(model, outcome, rounds, started);
    if (!best || outcome.objective! < best.outcome.objective! - 1e-6) args.onIncumbent?.(plan, 'without_solver');
    return plan;
  };
  const ownRoundDeadline = () => (rounds < alone.length ? roundsExactDeadline : rounds === alone.length && first ? Math.max(searchDeadline, started + PORTFOLIO_SHARE * (deadline - started)) : searchDeadline);
  // Below a job's budget with a bound round, the dive's plans beat every round's but the first, which
  // gives the answer a plan: the later rounds end when the bound round starts.
  const boundRoundAt = started + BOUND_ROUND_SHARE * (deadline - started);
  const roundDeadline = () => (diveFirst && rounds > 0 ? Math.min(ownRoundDeadline(), boundRoundAt) : ownRoundDeadline());
  const remaining = () => roundDeadline() - performance.now();
  const offered = new Set<string>();
  while (remaining() > 0) {
    if (signal?.aborted) throw new RecoveryError({ kind: 'aborted', message: 'The simulation was cancelled.' });
    if (scope.aircraft.some((a) => pool.get(a.aircraft.tail)!.length === 0)) break;
    // The search's rounds re-accommodate on direct flights only (a model GLPK solves several times
    // faster); the final plan gets every journey (below).
    const model = rounds < alone.length ? alone[rounds]! : buildStrategyModel(schedule, scope, config, 'integrated', pool, groups);
    // A model built after the search's share is not solved: the generations have the workers then.
    if (remaining() <= 0) break;
    // GLPK's own limit ends the solve; the hard stop (which costs the pool a worker) only at the
    // exact stage's end.
    const solving = solver.solve({ model: model.model, timeLimitMs: Math.max(1, remaining()), mipGap: config.solver.mip_gap }, { signal, deadline: roundsExactDeadline });
    if (rounds === 0 && alone[0]) unsolved = withoutSolver(alone[0]);
    if (descend) {
      // On the simulation thread while GLPK solves on a worker (from a bound round's budget, or a
      // problem searched before). Started before the first solve at 2 s (tried under load 11-13, eight
      // runs, before the plan without a solver), it delayed that solve by its share of the budget, got
      // 1-16 steps, and one run of the issue storm ended without an integrated plan.
      descend = false;
      const descended = cancellationDescent(walks, config, descentEnd, (routes) => { for (const route of routes.values()) add(route); });
      if (descended && descended.estimate < first!.estimate) {
        alone.push(buildStrategyModel(schedule, scope, config, 'integrated', new Map([...descended.routes].map(([tail, route]) => [tail, [route!]])), groups));
        unsolved = withoutSolver(alone.at(-1)!);
      }
    }
    let outcome: SolveOutcome;
    try {
      outcome = await solving;
    } catch (error) {
      // A solve the pool refused, lost or stopped ends the rounds; the plans so far stand (a cancellation still rejects).
      if (error instanceof RecoveryError && error.failure.kind !== 'aborted') break;
      throw error;
    }
    rounds++;
    if (outcome.objective !== null && (!best || outcome.objective < best.outcome.objective! - 1e-6)) {
      best = asSolve(model, outcome, rounds, started);
      // Told only when no dearer than the plan priced without a solver, told before it (the first walk's
      // solve ends after the descent's walk was priced: 277,935 after 86,820 on two long delays).
      if (!unsolved || outcome.objective <= unsolved.outcome.objective!) args.onIncumbent?.(best, 'direct_flights');
      // The generation takes up the best plan's routes (not every route tried: a larger master slows its rounds).
      for (const route of chosenRoutes(model, outcome.values).values()) if (!offered.has(route.key)) { offered.add(route.key); args.offer?.push(route); }
    }
    if (!best) break;
    // The descent's walk, when still to be solved alone, comes before any variant: they are of the
    // best plan, and it is likely the cheaper (their walks would delay its round at 2 s under load).
    if (rounds < alone.length) continue;
    // Variants of the best plan for the aircraft with the most delay or cancelled flights (each once
    // per route it flies in the best plan): whole-network walks around one change to it, and walks of
    // it alone against the others' capacity use (its flown or its planned sequence, at
    // VARIANT_THRESHOLDS_MINUTES).
    const chosen = chosenRoutes(best.model, best.outcome.values);
    const trouble = (a: AircraftInScope) => {
      const route = chosen.get(a.aircraft.tail);
      const flown = route?.legs.length ?? 0;
      return (route?.legs.reduce((sum, l) => sum + l.delayMinutes, 0) ?? 0) + 60 * (planned.get(a.aircraft.tail)!.length - flown);
    };
    const candidates = scope.aircraft.filter((a) => chosen.has(a.aircraft.tail) && trouble(a) > 0 && !tried.has(chosen.get(a.aircraft.tail)!.key))
      .sort((p, q) => trouble(q) - trouble(p)).slice(0, VARIANTS_PER_ROUND);
    if (candidates.length === 0 || !mayCancel) break;
    let added = 0;
    // The engine's exchanges (search.ts) for the aircraft the best plan leaves with cancelled flights:
    // the rest of its rotation to an aircraft of its family standing where the first of them leaves,
    // that one's rest to it, the whole network walked again around the exchange.
    const flying = new Map([...chosen].flatMap(([tail, r]) => r.legs.map((l) => [l.flight.id, tail] as const)));
    const flownNow = new Map([...chosen].map(([tail, r]) => [tail, r.legs.map((l) => l.flight)]));
    const exchanges = rotationExchanges(walks.networkProblem, walks.planLegs(chosen), new Map(), (id) => !scope.cancelledFlights.has(id), new Map());
    // (The variants' walks stop with the round's time: dozens of walks take a few hundred milliseconds of the thread.)
    for (const a of candidates) {
      if (remaining() <= 0) break;
      for (const exchange of exchanges.filter((e) => e.giver === a.aircraft.tail && !tried.has(e.key)).slice(0, EXCHANGES_PER_AIRCRAFT)) {
        tried.add(exchange.key);
        const before = keys.size;
        for (const r of walks.walk({ sequences: walks.sequencesOf(flownNow, exchange.assign(flying), flying), thresholdMinutes: Number.POSITIVE_INFINITY }).values()) add(r);
        added += keys.size - before;
      }
    }
    for (const a of candidates) {
      if (remaining() <= 0) break;
      const route = chosen.get(a.aircraft.tail)!;
      tried.add(route.key);
      const others = [...chosen].flatMap(([tail, other]) => (tail === route.tail ? [] : other.legs));
      // Whole-network variants: one of this aircraft's most delayed round trips cancelled, or its planned
      // sequence restored, and every aircraft walked again around it (freed capacity goes to the others).
      const flownSequences = new Map([...chosen].map(([tail, r]) => [tail, r.legs.map((l) => l.flight)]));
      const variants: Flight[][] = [planned.get(a.aircraft.tail)!];
      for (const trip of delayedRoundTrips(route).slice(0, ROUND_TRIPS_PER_AIRCRAFT)) variants.push([...route.legs.slice(0, trip.from), ...route.legs.slice(trip.to)].map((l) => l.flight));
      for (const sequence of variants) {
        const before = keys.size;
        for (const r of walks.walk({ sequences: new Map([...flownSequences, [a.aircraft.tail, sequence]]), thresholdMinutes: Number.POSITIVE_INFINITY }).values()) add(r);
        added += keys.size - before;
      }
      for (const sequence of [route.legs.map((l) => l.flight), planned.get(a.aircraft.tail)!]) {
        for (const thresholdMinutes of VARIANT_THRESHOLDS_MINUTES) {
          const before = keys.size;
          add(walks.walk({ aircraft: [a], sequences: new Map([[a.aircraft.tail, sequence]]), booked: others, thresholdMinutes }).get(a.aircraft.tail));
          added += keys.size - before;
        }
      }
    }
    if (added === 0) break;
  }
  // (No round ran: the first walk's plan is priced now.)
  if (!unsolved && alone[0]) unsolved = withoutSolver(alone[0]);
  let passengers: SearchPassengers = 'direct_flights';
  if (unsolved && (!best || unsolved.outcome.objective! < best.outcome.objective! - 1e-6)) {
    best = unsolved;
    passengers = 'without_solver';
  }
  if (!best) return { best, rounds, routes: keys.size, passengers, neighbourhoods: 0 };
  // The bound round (a budget of BOUND_ROUND_MIN_MS or more): the network bound's routes (its relaxation's
  // own timing: docs/model.md 3.9) come seconds after the rounds end (measured: 2-7 s at load average
  // 9-20), so one round more, from BOUND_ROUND_SHARE of the budget (or as soon as the bound has told
  // routes, by BOUND_ROUND_LATEST_SHARE), over the pool with the routes the bound has priced by then and
  // `plan`'s own: first a dive on its LP (diveForPlan), whose plan comes within a few LPs where GLPK's
  // branch and bound over the same pool found none in 5 s on the hub storm (below a job's budget, dives
  // again over the routes told since, while time is left); then, with a job's budget, that integer
  // model itself for the time left. Its plan replaces `plan` when cheaper; it ends by
  // BOUND_ROUND_END_SHARE (SHORT_BOUND_ROUND_END_SHARE below a job's budget, so that the exact stage
  // keeps its time).
  // The routes the dives' LPs valued, kept for the next search of this problem (`keep`), even from a
  // dive that ends without a plan: under load (10 s at load average 9-11) the hub storm's LP ended but
  // its support's model did not, and the next search solves that model from its start (`earlier`).
  const valued: Route[] = [];
  async function boundRound(plan: StrategySolve, exactStage: Promise<unknown> | null): Promise<StrategySolve> {
    const budget = deadline - started;
    const at = started + BOUND_ROUND_SHARE * budget;
    const latest = started + BOUND_ROUND_LATEST_SHARE * budget;
    const until = started + (long ? BOUND_ROUND_END_SHARE : SHORT_BOUND_ROUND_END_SHARE) * budget;
    const redo = started + REDIVE_END_SHARE * budget;
    // Waits for the bound's routes, but not once the generation has proven its plan optimal (no plan is
    // cheaper: a small scope under a job's budget would otherwise wait 30 % of it for nothing).
    const proven = () => args.generationPlan?.()?.outcome.status === 'optimal';
    const wait = (until: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(BOUND_ROUND_POLL_MS, until - performance.now()))));
    while (performance.now() < at && !proven() && !signal?.aborted) await wait(at);
    const heard = args.boundRoutes!();
    // The same problem searched before: the routes its dives valued are in the pool already, and the
    // bound, going on from its kept relaxation, tells only the routes it prices anew (67-111 on the
    // issue storm by half of 10 s, at load average 16: the round waited until BOUND_ROUND_LATEST_SHARE
    // for the count below).
    const enough = earlier ? 0 : BOUND_ROUND_ROUTES_PER_AIRCRAFT * scope.aircraft.length;
    while (heard.length < enough && performance.now() < latest && !proven() && !signal?.aborted) {
      await wait(latest);
      heard.push(...args.boundRoutes!());
    }
    // With a job's budget the dive's solves wait for the rounds' exact stage: beside it, at 10 s under
    // load 13, they took the workers from it (the issue storm's answer was the rounds' plan on direct
    // flights, 1,553,315, in three runs of three, against 1,394,017.5-1,548,005 without the round).
    // Below it there is no such stage to wait for (below).
    await exactStage?.then(() => undefined, () => undefined);
    if (proven()) return plan;
    if (signal?.aborted) throw new RecoveryError({ kind: 'aborted', message: 'The simulation was cancelled.' });
    const before = keys.size;
    for (const route of heard) add(route);
    for (const route of chosenRoutes(plan.model, plan.outcome.values).values()) add(route);
    if (keys.size === before || performance.now() >= until) return plan;
    let better = plan;
    // Below a job's budget, the dive again over the routes the bound has told since (after more steps
    // they make cheaper plans: docs/model.md 3.9), while a dive as long as the last still ends by
    // REDIVE_END_SHARE.
    // Each dive's last models keep the best plan so far beside the LP's routes (a later dive then gives
    // no dearer plan than an earlier one, and may combine them).
    for (let dives = 0; ; dives++) {
      const diveStarted = performance.now();
      const dived = await diveForPlan({
        schedule, scope, config, groups, solver, signal, deadline: exactDeadline, until: dives === 0 ? until : redo, pool, fallback: chosenRoutes(better.model, better.outcome.values),
        onSupport: (routes) => valued.push(...routes),
      });
      if (dived && dived.outcome.objective! < better.outcome.objective! - 1e-6) better = asSolve(dived.model, dived.outcome, rounds, started);
      if (long || 2 * performance.now() - diveStarted >= redo) break;
      const more = keys.size;
      for (const route of args.boundRoutes!()) add(route);
      if (keys.size - more < BOUND_ROUND_ROUTES_PER_AIRCRAFT * scope.aircraft.length) break;
    }
    if (!long || performance.now() >= until) return better;
    const model = buildStrategyModel(schedule, scope, config, 'integrated', pool, groups);
    const outcome = await solver.solve({ model: model.model, timeLimitMs: Math.max(1, until - performance.now()), mipGap: config.solver.mip_gap }, { signal, deadline: exactDeadline }).catch(keepSearchPlan);
    if (!outcome || outcome.objective === null || outcome.objective >= better.outcome.objective! - 1e-6) return better;
    return asSolve(model, outcome, rounds, started);
  }
  // The best plan's routes alone, with every journey of several flights worth taking: its passengers
  // re-accommodated exactly (the checker of section 1.6 asks it of every option), in the time left.
  // With a job's budget first for the rounds' plan, so that the answer has it whatever the
  // neighbourhoods take (measured at 10 s under load 12-15: done only after them, it did not finish in
  // two runs of three); the journeys found then serve the later plans' own exact stage. `warmJourneys`
  // finds the journeys of a plan's passengers only (on this thread, yielding), for an exact stage later.
  const warmJourneys = async (plan: StrategySolve): Promise<void> => {
    const routes = new Map([...chosenRoutes(plan.model, plan.outcome.values)].map(([tail, route]) => [tail, [route]]));
    const model = buildStrategyModel(schedule, scope, config, 'integrated', routes, groups);
    await withAllJourneys(model, () => model, journeysFound, groups, config, exactDeadline);
  };
  const exactly = async (plan: StrategySolve): Promise<StrategySolve | null> => {
    if (performance.now() >= exactDeadline) return null;
    const routes = new Map([...chosenRoutes(plan.model, plan.outcome.values)].map(([tail, route]) => [tail, [route]]));
    const exact = await withAllJourneys(buildStrategyModel(schedule, scope, config, 'integrated', routes, groups), (journeys) => buildStrategyModel(schedule, scope, config, 'integrated', routes, groups, journeys), journeysFound, groups, config, exactDeadline);
    if (!exact || performance.now() >= exactDeadline) return null;
    const outcome = await solver.solve({ model: exact.model, timeLimitMs: Math.max(1, exactDeadline - performance.now()), mipGap: 0 }, { signal, deadline, background: args.background }).catch(keepSearchPlan);
    return outcome && outcome.status === 'optimal' && outcome.objective !== null && outcome.objective <= plan.outcome.objective! + 1e-6 ? asSolve(exact, outcome, rounds, started) : null;
  };
  // With a job's budget the bound round waits for the bound's routes beside the rounds' exact stage,
  // and dives once that stage is done; its plan, when cheaper than the exact stage's, gets an exact
  // stage of its own. (The round before the exact stage, at 10 s under load average 14-17, left that
  // stage no time: 1,553,315 against 1,509,750 on the issue storm; its dive beside it took the workers
  // from it: boundRound.) Below a job's budget (10-30 s) the rounds' plan gets no exact stage of its
  // own: the dive goes first, the rounds' plan's journeys are found meanwhile on this thread, and the
  // exact stage is the answer's only, the dive's plan's when cheaper. A dive with its exact stage
  // meets the 5 % goal on both storms from about 100 of the bound's steps, but waiting for the rounds'
  // exact stage (1.1-1.2 s of CPU) put its end late or past its window: the 10 s plans varied (1.20-1.50
  // M on the issue storm on a quiet host), and at load average 13-18 that stage did not end by its end
  // in 19 runs of 20 and no dive started (docs/model.md 4.6, "The dive before the exact stage").
  const roundsPlan = best;
  const journeysWarm = diveFirst ? warmJourneys(roundsPlan) : null;
  const exactStage = diveFirst ? null : exactly(roundsPlan);
  const bounded = bounding ? boundRound(roundsPlan, exactStage) : null;
  // (Awaited below, after the exact stage: a rejection meanwhile is not unhandled.)
  bounded?.catch(() => undefined);
  journeysWarm?.catch(() => undefined);
  const exactRounds = await exactStage;
  let answer = exactRounds ?? best;
  if (exactRounds) passengers = 'exact';
  if (exactRounds) args.onIncumbent?.(exactRounds, 'exact');
  const dived = await bounded;
  if (diveFirst) {
    await journeysWarm;
    const plan = dived && dived.outcome.objective! < roundsPlan.outcome.objective! - 1e-6 ? dived : roundsPlan;
    best = plan;
    const exact = await exactly(plan);
    answer = exact ?? plan;
    if (exact) passengers = 'exact';
    else if (plan !== roundsPlan) passengers = 'direct_flights';
    if (answer !== roundsPlan) args.onIncumbent?.(answer, passengers);
  } else if (dived && dived !== roundsPlan && dived.outcome.objective! < answer.outcome.objective! - 1e-6) {
    best = dived;
    const exact = await exactly(dived);
    answer = exact ?? dived;
    passengers = exact ? 'exact' : 'direct_flights';
    args.onIncumbent?.(answer, passengers);
  }
  // Large neighbourhoods of the rounds' plan (passengers on direct flights, as the rounds'), each
  // re-solved by the column generation on its sub-scope; then the exact stage for the best of them.
  let neighbourhoods = 0;
  const neighbourhoodDeadline = started + NEIGHBOURHOOD_SHARE * (deadline - started);
  if (long && neighbourhoodDeadline - performance.now() > 0) {
    const found = await searchNeighbourhoods({
      schedule, scope, config, groups, solver, signal, deadline: neighbourhoodDeadline, background: args.background, best, elsewhere: args.generationPlan,
      onBetter: (better, routes) => {
        // (A plan on direct flights costs at least what it costs re-accommodated exactly.)
        if (better.outcome.objective! < answer.outcome.objective! - 1e-6) args.onIncumbent?.(better, 'direct_flights');
        for (const route of routes.values()) if (!offered.has(route.key)) { offered.add(route.key); args.offer?.push(route); }
      },
    });
    neighbourhoods = found.neighbourhoods;
    if (found.improvements > 0) {
      const exact = await exactly(found.best);
      const plan = exact ?? found.best;
      if (plan.outcome.objective! < answer.outcome.objective! - 1e-6) {
        answer = plan;
        passengers = exact ? 'exact' : 'direct_flights';
        args.onIncumbent?.(answer, passengers);
      }
    }
  }
  best = answer;
  args.keep?.({ plan: chosenRoutes(best.model, best.outcome.values), cost: best.outcome.objective!, support: valued });
  return { best, rounds, routes: keys.size, passengers, neighbourhoods };
}

/** A route whose LP value is above this is fixed by the dive together with the others above it (two such routes cannot share a flight). */
const DIVE_FIX_VALUE = 0.5 + 1e-6;
/** A route whose value in one of the dive's LPs is above this is in its support (overSupport). */
const SUPPORT_VALUE = 1e-6;

/**
 * A plan over `pool` (routes per tail) from its LP relaxation (direct flights, on the solver). First
 * the integer model over the LP's support (every route with a value), each aircraft's route in
 * `fallback` and its grounded one: on the storms' pools after the bound's 100 steps (2026-11-29, load
 * average 7-8, one process) it gave 1,184,160 on the issue storm (the whole pool's optimum, which
 * GLPK's branch and bound over the pool found in 0.62-0.74 s of CPU) and 858,455 on the hub storm (the
 * pool's 853,245 in 8.3-8.5 s), two solves and 0.9-1.2 s of CPU in all, most of it the LP. That model
 * has the time to `until`: with half of it (at 10 s, load average 9) the hub storm's had no plan in
 * 1.5 s twice, and the fixing below had no time left either. When it fails before, a dive: fix every
 * aircraft whose best route is above one half to that route (two such routes share no flight), or, when
 * none is, the aircraft whose best route is highest, and solve the LP again, until every aircraft has one route;
 * then the integer model over those routes, each beside its aircraft's routes in `fallback` and its
 * grounded one (a few per aircraft: solved as fast as a walk's), and last the model over every LP's
 * support beside that plan (1,188,900 to 1,184,160 and 859,700 to 853,245 on the pools above, in 0.23
 * s of CPU). Fixing several at once may break a capacity row together (five routes at 0.8 in an hour of
 * four slots): that LP, or that integer model when the batch fixed the last aircraft without its
 * fallbacks (seen on the hub storm, whose first LP had every aircraft's best route above one half), is
 * infeasible, and the dive takes back the batch and fixes its better half, and so on (a lone fix that
 * fails leaves its route out of the dive's pool). Null when `until` (a performance.now() instant)
 * passes first, or when no fix is left to try. `support`: every route any of its LPs valued, per tail.
 */
export async function diveForPlan(args: {
  schedule: Schedule; scope: RecoveryScope; config: SolverConfig; groups: PassengerGroups; solver: Solver;
  signal?: AbortSignal; deadline: number; until: number; pool: ReadonlyMap<string, readonly Route[]>;
  /** Per tail, a route of a plan known (the search's best): beside the LPs' routes in the integer models. */
  fallback: ReadonlyMap<string, Route>;
  /** Told of the routes each LP values first, as they come (kept for the next search even when the dive ends without a plan). */
  onSupport?: (routes: readonly Route[]) => void;
}): Promise<{ model: StrategyModel; outcome: SolveOutcome; support: Map<string, Route[]> } | null> {
  const { schedule, scope, config, groups, solver, signal, deadline, until } = args;
  const pool = new Map([...args.pool].map(([tail, routes]) => [tail, [...routes]]));
  const support = new Map<string, Route[]>(scope.aircraft.map((a) => [a.aircraft.tail, []]));
  const supported = new Set<string>();
  // An integer model over the support, beside `plan`'s routes (a route per tail) and the grounded ones, solved by `by`.
  const overSupport = async (plan: ReadonlyMap<string, Route>, by: number) => {
    if (performance.now() >= by) return null;
    const routes = new Map([...pool].map(([tail, list]) => [tail, [...new Map([...support.get(tail)!, ...list.filter((r) => r.legs.length === 0), ...(plan.has(tail) ? [plan.get(tail)!] : [])].map((r) => [r.key, r])).values()]]));
    const model = buildStrategyModel(schedule, scope, config, 'integrated', routes, groups);
    const outcome = await solver.solve({ model: model.model, timeLimitMs: Math.max(1, by - performance.now()), mipGap: config.solver.mip_gap }, { signal, deadline }).catch(keepSearchPlan);
    return outcome && outcome.objective !== null ? { model, outcome, support } : null;
  };
  const fixed = new Map<string, Route>();
  // The last fixes, the highest value first (halved when they fail together).
  let batch: Route[] = [];
  while (performance.now() < until) {
    const last = fixed.size === scope.aircraft.length;
    // The last model keeps, beside each fixed route, the aircraft's route in `fallback` and its grounded
    // one, so that fixes that overfill an hour together still leave a plan.
    const routes = new Map([...pool].map(([tail, list]) => [tail, !fixed.has(tail) ? list
      : !last ? [fixed.get(tail)!]
      : [fixed.get(tail)!, ...list.filter((r) => r.key !== fixed.get(tail)!.key && (r.legs.length === 0 || r.key === args.fallback.get(tail)?.key))]]));
    const model = buildStrategyModel(schedule, scope, config, 'integrated', routes, groups);
    const outcome = await solver.solve({ model: model.model, timeLimitMs: Math.max(1, until - performance.now()), mipGap: last ? config.solver.mip_gap : 0, relaxation: !last }, { signal, deadline }).catch(keepSearchPlan);
    if (!outcome) return null;
    if (last && outcome.objective !== null) {
      const polished = await overSupport(chosenRoutes(model, outcome.values), until);
      return polished && polished.outcome.objective! < outcome.objective - 1e-6 ? polished : { model, outcome, support };
    }
    if (outcome.status !== 'optimal' || last) {
      if (outcome.status !== 'infeasible' || batch.length === 0) return null;
      for (const route of batch) fixed.delete(route.tail);
      if (batch.length > 1) {
        batch = batch.slice(0, Math.ceil(batch.length / 2));
        for (const route of batch) fixed.set(route.tail, route);
      } else {
        pool.set(batch[0]!.tail, pool.get(batch[0]!.tail)!.filter((r) => r.key !== batch[0]!.key));
        batch = [];
      }
      continue;
    }
    const bestOf = new Map<string, { route: Route; value: number }>();
    const valued: Route[] = [];
    for (const [column, route] of model.routeColumns) {
      const value = outcome.values[column] ?? 0;
      if (value > SUPPORT_VALUE && !supported.has(route.key)) {
        supported.add(route.key);
        support.get(route.tail)!.push(route);
        valued.push(route);
      }
      if (!fixed.has(route.tail) && value > (bestOf.get(route.tail)?.value ?? -1)) bestOf.set(route.tail, { route, value });
    }
    args.onSupport?.(valued);
    if (fixed.size === 0) {
      const first = await overSupport(args.fallback, until);
      if (first) return first;
    }
    const best = [...bestOf.values()].sort((p, q) => q.value - p.value);
    if (best.length === 0) return null;
    const above = best.filter((b) => b.value > DIVE_FIX_VALUE).map((b) => b.route);
    batch = above.length > 0 ? above : [best[0]!.route];
    for (const route of batch) fixed.set(route.tail, route);
  }
  return null;
}

/** A failed or stopped exact solve leaves the search's plan standing (the caller's abort still rejects elsewhere). */
function keepSearchPlan(error: unknown): null {
  if (error instanceof RecoveryError) return null;
  throw error;
}

/** Longest the journey search runs before it lets the event loop turn, milliseconds. */
const YIELD_EVERY_MS = 25;

/**
 * `model` rebuilt (by `rebuild`) with a column for every journey of several flights of its passenger
 * sources that costs less than compensating the passengers (more never pays): with them the integer
 * model decides the passengers exactly for its routes, as the checker of section 1.6 asks. `model`
 * itself when no source has such a journey. A source's journeys depend on the scope only (at zero
 * leg prices), so they are found once per search (`found`); the search yields to the event loop
 * between sources, so that the other solves' deadlines keep their time. Null when `until` (a
 * performance.now() instant) passes first: at 2 s under load the search for a storm's sources ran
 * seconds past the exact stage's end, and the answer with it (measured: 5.7 s for a 1.9 s search).
 */
async function withAllJourneys(
  model: StrategyModel, rebuild: (journeys: ReadonlyMap<string, readonly Journey[]>) => StrategyModel, found: Map<string, Journey[]>,
  groups: PassengerGroups, config: SolverConfig, until: number,
): Promise<StrategyModel | null> {
  const journeys = new Map<string, Journey[]>();
  let since = performance.now();
  for (const source of model.journeySources) {
    let list = found.get(source.key);
    if (!list) {
      if (performance.now() - since > YIELD_EVERY_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        since = performance.now();
      }
      if (performance.now() >= until) return null;
      const worth = new JourneyFinder(groups.network, config, source.search, source.usable, config.constraints.max_reaccommodation_legs).worthTaking(until);
      if (worth === null) return null;
      list = worth;
      found.set(source.key, list);
    }
    if (list.length > 0) journeys.set(source.key, list);
  }
  return journeys.size === 0 ? model : rebuild(journeys);
}

/**
 * What a walk's plan looks like it costs, to pick the walk solved first: its routes' cost, and per
 * flight it cancels the cancellation and its booked passengers' compensation (on both storms of issue
 * 23 this ranked the cheapest walk first: 2.48 M for the 90-minute walk of the storm, whose
 * plan cost 1.93 M, the least of five; 1.68 M for the 150- and 240-minute walks of the hub storm,
 * 1.77 M, the least). Infinity when the walk leaves an aircraft without a route.
 */
function walkEstimate(routes: ReadonlyMap<string, Route | null>, walks: ScopeWalks, config: SolverConfig): number {
  let estimate = 0;
  const flown = new Set<string>();
  for (const route of routes.values()) {
    if (!route) return Number.POSITIVE_INFINITY;
    estimate += route.cost;
    for (const leg of route.legs) flown.add(leg.flight.id);
  }
  const cost = serviceCostModel(config);
  for (const list of walks.planned.values()) {
    for (const f of list) {
      if (flown.has(f.id)) continue;
      estimate += cost.cancellationPerLeg() + cost.compensation(walks.compensationKm(f), f.bookedPassengers);
    }
  }
  return estimate;
}

/**
 * Greedy descent over whole-network walks that cancel nothing but what they are told: from every
 * planned flight, each step walks the network once per candidate round trip removed (the
 * DESCENT_CANDIDATES late ones with the most delay minutes on the current walk: delayedRoundTrips)
 * and keeps the walk that looks cheapest (walkEstimate), until none looks cheaper or `until` (a
 * performance.now() instant) passes. Where the capacity cut queues the hub's flights first come,
 * first served, a trip cancelled frees its movements for the others; the thresholds of the portfolio
 * cancel the trips that happen to queue last instead.
 *
 * Candidates are tried lazily: the estimate a trip's removal saved at an earlier step bounds what it
 * saves now (it is tried again only while it could beat the best of the step; freeing capacity rarely
 * makes another trip's cancellation save more), and those never tried go first. `onStep` is told of
 * each walk kept. Null when the walk that cancels nothing leaves an aircraft without a route.
 */
export function cancellationDescent(
  walks: ScopeWalks, config: SolverConfig, until: number, onStep: (routes: ReadonlyMap<string, Route | null>) => void,
): { routes: Map<string, Route | null>; estimate: number } | null {
  const planned = walks.planned;
  let sequences = new Map([...planned].map(([tail, list]) => [tail, [...list]]));
  let routes = walks.walk({ sequences, thresholdMinutes: Number.POSITIVE_INFINITY });
  let estimate = walkEstimate(routes, walks, config);
  if (!Number.isFinite(estimate)) return null;
  onStep(routes);
  const saved = new Map<string, number>();
  while (performance.now() < until) {
    const candidates: { tail: string; ids: Set<string>; key: string; delay: number }[] = [];
    for (const [tail, route] of routes) {
      for (const trip of delayedRoundTrips(route!)) {
        const ids = route!.legs.slice(trip.from, trip.to).map((l) => l.flight.id);
        candidates.push({ tail, ids: new Set(ids), key: `${tail}:${ids.join(',')}`, delay: trip.delay });
      }
    }
    const tried = candidates.sort((p, q) => q.delay - p.delay).slice(0, DESCENT_CANDIDATES)
      .sort((p, q) => (saved.get(q.key) ?? Number.POSITIVE_INFINITY) - (saved.get(p.key) ?? Number.POSITIVE_INFINITY));
    let step: { sequences: Map<string, Flight[]>; routes: Map<string, Route | null>; estimate: number } | null = null;
    for (const c of tried) {
      if (step && (saved.get(c.key) ?? Number.POSITIVE_INFINITY) <= estimate - step.estimate) break;
      if (performance.now() >= until) break;
      const next = new Map(sequences).set(c.tail, sequences.get(c.tail)!.filter((f) => !c.ids.has(f.id)));
      const walked = walks.walk({ sequences: next, thresholdMinutes: Number.POSITIVE_INFINITY });
      const e = walkEstimate(walked, walks, config);
      saved.set(c.key, estimate - e);
      if (e < (step?.estimate ?? estimate)) step = { sequences: next, routes: walked, estimate: e };
    }
    if (!step) break;
    ({ sequences, routes, estimate } = step);
    onStep(routes);
  }
  return { routes, estimate };
}

/**
 * Runs of legs [from, to) of `route` that leave from an airport and bring the aircraft back to it
 * (the shortest from each leg), late ones only, the most delay minutes first.
 */
function delayedRoundTrips(route: Route): { from: number; to: number; delay: number }[] {
  const trips: { from: number; to: number; delay: number }[] = [];
  for (let i = 0; i < route.legs.length; i++) {
    let delay = 0;
    for (let k = i; k < route.legs.length; k++) {
      delay += route.legs[k]!.delayMinutes;
      if (route.legs[k]!.flight.dest !== route.legs[i]!.flight.origin) continue;
      if (delay > 0) trips.push({ from: i, to: k + 1, delay });
      break;
    }
  }
  return trips.sort((p, q) => q.delay - p.delay);
}

function asSolve(model: StrategyModel, outcome: SolveOutcome, rounds: number, started: number): StrategySolve {
  return {
    model, iterations: rounds, boundSource: null, facts: { kind: 'running' },
    // The search proves no bound of its own: its plan is feasible, the pipeline adds the bounds it has.
    outcome: { ...outcome, status: 'feasible', lowerBound: null, solveMs: performance.now() - started },
  };
}

/**
 * The plan of `model`, built over one route per aircraft (a walk's), with no solver: for an answer
 * when no solve of the search ends in time (a stuck or refused solve, a loaded machine). Every route
 * flown and every flight none of them flies cancelled; each itinerary's share of disrupted passengers
 * the least its rows ask (all at its first hub); every disrupted passenger compensated; then, the
 * largest saving per passenger first, passengers moved from compensation onto the model's rebooking
 * columns (direct flights) that cost less, as many as every seat, reach and journey row lets, in whole
 * passengers. Its values satisfy every row, bound and integrality of the model (checked: null
 * otherwise), and its objective is theirs, as a solver's would be; the re-accommodation is not
 * necessarily the cheapest for its routes.
 */
export function planWithoutSolver(model: StrategyModel): SolveOutcome | null {
  const { variables, constraints } = model.model;
  const value = new Map<string, number>(variables.map((v) => [v.name, v.lb]));
  const rowsOf = new Map<string, { row: number; coef: number }[]>();
  constraints.forEach((c, row) => { for (const t of c.terms) (rowsOf.get(t.variable) ?? rowsOf.set(t.variable, []).get(t.variable)!).push({ row, coef: t.coef }); });
  const activity = constraints.map((c) => c.terms.reduce((sum, t) => sum + t.coef * value.get(t.variable)!, 0));
  const set = (variable: string, x: number) => {
    const delta = x - value.get(variable)!;
    value.set(variable, x);
    for (const { row, coef } of rowsOf.get(variable) ?? []) activity[row] = activity[row]! + coef * delta;
  };
  const flown = new Set<string>();
  for (const [column, route] of model.routeColumns) {
    set(column, 1);
    for (const leg of route.legs) flown.add(leg.flight.id);
  }
  for (const [column, flight] of model.cancelColumns) set(column, flown.has(flight.id) ? 0 : 1);
  // The itineraries' shares (the columns that are none of the others): each `>=` row still short raised
  // by its first such column, the first hub's (every row of an itinerary holds it).
  const decided = (name: string) => model.routeColumns.has(name) || model.cancelColumns.has(name) || model.rebookColumns.has(name) || model.strandedColumns.has(name);
  const byName = new Map(variables.map((v) => [v.name, v]));
  constraints.forEach((c, row) => {
    if (c.sense !== '>=' || activity[row]! >= c.rhs - 1e-9) return;
    const share = c.terms.find((t) => t.coef > 0 && !decided(t.variable));
    if (share) set(share.variable, Math.min(byName.get(share.variable)!.ub, value.get(share.variable)! + (c.rhs - activity[row]!) / share.coef));
  });
  // Every disrupted passenger compensated: the stranded column balances its group's passengers row.
  const strandedOf = new Map<object, string>([...model.strandedColumns].map(([column, group]) => [group, column]));
  for (const column of model.strandedColumns.keys()) {
    for (const { row, coef } of rowsOf.get(column) ?? []) if (constraints[row]!.sense === '=') set(column, value.get(column)! + (constraints[row]!.rhs - activity[row]!) / coef);
  }
  // Compensated passengers moved onto cheaper rebookings, the largest saving first, as far as every row lets.
  const moves = [...model.rebookColumns].map(([column, { group }]) => ({ column, stranded: strandedOf.get(group)!, saving: byName.get(strandedOf.get(group)!)!.cost - byName.get(column)!.cost }))
    .filter((m) => m.saving > 0).sort((p, q) => q.saving - p.saving);
  for (const { column, stranded } of moves) {
    let most = Math.min(value.get(stranded)!, byName.get(column)!.ub - value.get(column)!);
    const net = new Map<number, number>();
    for (const { row, coef } of rowsOf.get(column) ?? []) net.set(row, (net.get(row) ?? 0) + coef);
    for (const { row, coef } of rowsOf.get(stranded) ?? []) net.set(row, (net.get(row) ?? 0) - coef);
    for (const [row, per] of net) {
      const c = constraints[row]!;
      if (Math.abs(per) < 1e-9) continue;
      if (c.sense === '=') most = 0;
      else if (c.sense === '<=' && per > 0) most = Math.min(most, (c.rhs - activity[row]!) / per);
      else if (c.sense === '>=' && per < 0) most = Math.min(most, (activity[row]! - c.rhs) / -per);
    }
    const moved = Math.floor(most + 1e-9);
    if (moved < 1) continue;
    set(column, value.get(column)! + moved);
    set(stranded, value.get(stranded)! - moved);
  }
  const tolerance = 1e-6;
  for (const v of variables) {
    const x = value.get(v.name)!;
    if (x < v.lb - tolerance || x > v.ub + tolerance || (v.kind !== 'continuous' && Math.abs(x - Math.round(x)) > tolerance)) return null;
  }
  for (const [row, c] of constraints.entries()) {
    const a = activity[row]!;
    if ((c.sense !== '>=' && a > c.rhs + tolerance) || (c.sense !== '<=' && a < c.rhs - tolerance)) return null;
  }
  const values: Record<string, number> = {};
  let objective = 0;
  for (const v of variables) {
    const x = value.get(v.name)!;
    if (x === 0) continue;
    values[v.name] = x;
    objective += v.cost * x;
  }
  return { status: 'feasible', objective, values, lowerBound: null, solveMs: 0, detail: null };
}
