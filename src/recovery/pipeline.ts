// The use case: a disruption in, ranked recovery options out, in four stages that the service and the
// benchmarks share: prepare (scope, candidate routes, one model per strategy) -> solve (on the solver
// port) -> read (plans back into options) -> rank. Protocol-free: the HTTP layer validates the input
// and presents the result; failures the caller may see are RecoveryError (failure.ts).
import type { Schedule } from '../domain/schedule.ts';
import { RouteFactory, type Route } from './aircraft-routes.ts';
import { RecoveryError } from './failure.ts';
import { modelSize } from './linear-model.ts';
import { buildStrategyModel, type StrategyModel } from './model/strategy-model.ts';
import { passengerGroups, type PassengerGroups } from './passengers.ts';
import { evaluatePlan, routeViolations, type PassengerFlow, type Plan } from './plan.ts';
import type { RecoveryOption, SimulationResult, SolverReport, UnsolvedStrategy, Violation } from './result.ts';
import { selectScope, type RecoveryScope } from './scope.ts';
import type { SolverConfig, Strategy } from './solver-config.ts';
import type { SolveOutcome, Solver } from './solver-port.ts';

export interface SimulationRequest {
  scenarioId: string;
  disruptedFlightId: string;
  minDelayMinutes: number;
  airline: string;
  scheduleName: string;
  config: SolverConfig;
}

export interface PreparedSimulation {
  scope: RecoveryScope;
  groups: PassengerGroups;
  models: StrategyModel[];
  /** What the disruption breaks if only the minimum delay is propagated (delay propagation under soft rules). */
  violations: Violation[];
  capped: boolean;
  buildMs: number;
}

/**
 * Stage 1: build every strategy's model for a disruption (no solving). Throws RecoveryError
 * 'flight_not_found' when the disrupted flight is not the airline's.
 */
export function prepareSimulation(schedule: Schedule, request: SimulationRequest): PreparedSimulation {
  const started = performance.now();
  const disrupted = schedule.flightsById.get(request.disruptedFlightId);
  if (!disrupted || disrupted.airline !== request.airline) {
    throw new RecoveryError({ kind: 'flight_not_found', flightId: request.disruptedFlightId, airline: request.airline });
  }
  const { config } = request;
  const scope = selectScope(schedule, disrupted, request.minDelayMinutes, config);
  const factory = new RouteFactory(schedule, scope, config);
  const planned = new Map<string, Route | null>();
  const own = new Map<string, Route[]>();
  const any = new Map<string, Route[]>();
  let capped = false;
  const needs = new Set(config.strategies.evaluate);
  for (const a of scope.aircraft) {
    const tail = a.aircraft.tail;
    planned.set(tail, factory.plannedRoute(a));
    if (needs.has('cancellation') || needs.has('integrated')) {
      const generated = factory.candidateRoutes(a, 'own');
      own.set(tail, generated.routes);
      capped ||= generated.capped;
    }
    if (needs.has('aircraft_swap') || needs.has('integrated')) {
      const generated = factory.candidateRoutes(a, 'any');
      any.set(tail, generated.routes);
      capped ||= generated.capped;
    }
  }
  const union = (...lists: (Route | null | undefined)[][]): Route[] => {
    const seen = new Set<string>();
    const out: Route[] = [];
    for (const list of lists) for (const r of list) if (r && !seen.has(r.key)) { seen.add(r.key); out.push(r); }
    return out;
  };
  const routesFor = (strategy: Strategy) => new Map(scope.aircraft.map((a) => {
    const tail = a.aircraft.tail;
    const p = [planned.get(tail)];
    if (strategy === 'delay_propagation') return [tail, union(p)];
    if (strategy === 'cancellation') return [tail, union(p, own.get(tail) ?? [])];
    if (strategy === 'aircraft_swap') return [tail, union(p, any.get(tail) ?? [])];
    // The integrated route set contains every other strategy's, so its optimum is never worse.
    return [tail, union(p, own.get(tail) ?? [], any.get(tail) ?? [])];
  }));
  const groups = passengerGroups(schedule, scope, config);
  const models = config.strategies.evaluate.map((strategy) => buildStrategyModel(schedule, scope, config, strategy, routesFor(strategy), groups));
  const softConfig: SolverConfig = { ...config, constraints: { ...config.constraints, crew_duty: 'soft', maintenance: 'soft', max_delay_minutes: 2880, max_swaps: 1000 } };
  const softFactory = new RouteFactory(schedule, scope, softConfig, false);
  const softPlannedRoutes = scope.aircraft.map((a) => softFactory.plannedRoute(a)).filter((r): r is Route => r !== null);
  return { scope, groups, models, violations: routeViolations(schedule, softPlannedRoutes), capped, buildMs: performance.now() - started };
}

/**
 * Stage 2: solve every model on `solver` in parallel. The first failure (RecoveryError) rejects and
 * drops the solves still waiting, since the simulation cannot be answered without them; `signal`
 * (the caller's) drops them too.
 */
export async function solveModels(prepared: PreparedSimulation, config: SolverConfig, solver: Solver, signal?: AbortSignal): Promise<SolveOutcome[]> {
  const failed = new AbortController();
  const drop = signal ? AbortSignal.any([signal, failed.signal]) : failed.signal;
  try {
    return await Promise.all(prepared.models.map((m) => solver.solve({
      model: m.model, timeLimitMs: config.solver.time_limit_ms, mipGap: config.solver.mip_gap,
    }, { signal: drop })));
  } catch (error) {
    failed.abort();
    throw error;
  }
}

/** Read a solver's variable values back into a plan. */
export function readPlan(model: StrategyModel, values: Record<string, number>): Plan {
  const routes: Route[] = [];
  for (const [column, route] of model.routeColumns) if ((values[column] ?? 0) > 0.5) routes.push(route);
  const flows: PassengerFlow[] = [];
  for (const [column, { group, target }] of model.rebookColumns) {
    const passengers = Math.round(values[column] ?? 0);
    if (passengers > 0) flows.push({ group, target, passengers });
  }
  for (const [column, group] of model.strandedColumns) {
    const passengers = Math.round(values[column] ?? 0);
    if (passengers > 0) flows.push({ group, target: null, passengers });
  }
  return { routes, flows };
}

export function solverReport(model: StrategyModel, outcome: SolveOutcome, note: string | null): SolverReport {
  let mipGap: number | null = null;
  if (outcome.status === 'optimal') mipGap = 0;
  else if (outcome.objective !== null && outcome.lowerBound !== null) {
    mipGap = Math.max(0, (outcome.objective - outcome.lowerBound) / Math.max(1, Math.abs(outcome.objective)));
  }
  return {
    status: outcome.status, objective: outcome.objective, mipGap, solveMs: Math.round(outcome.solveMs * 10) / 10,
    size: modelSize(model.model), candidateRoutes: model.candidateRoutes, note,
  };
}

/**
 * Stage 3: every solved model's plan as an option; the strategies without a plan as unsolved. Every
 * restricted strategy's plan is also a plan of the integrated strategy: if the integrated solve
 * stopped early with something worse (or nothing), the best restricted plan stands in.
 */
export function readOptions(
  schedule: Schedule, prepared: PreparedSimulation, config: SolverConfig, outcomes: readonly SolveOutcome[],
): { options: RecoveryOption[]; unsolved: UnsolvedStrategy[] } {
  const { scope, models } = prepared;
  const options: RecoveryOption[] = [];
  const unsolved: UnsolvedStrategy[] = [];
  models.forEach((model, i) => {
    const outcome = outcomes[i]!;
    if (outcome.objective === null) {
      unsolved.push({ strategy: model.strategy, status: outcome.status, detail: outcome.detail ?? 'No plan was found.' });
      return;
    }
    options.push(evaluatePlan(schedule, scope, config, model.strategy, readPlan(model, outcome.values), solverReport(model, outcome, null)));
  });

  const integratedIndex = models.findIndex((m) => m.strategy === 'integrated');
  if (integratedIndex >= 0) {
    const integrated = options.find((o) => o.strategy === 'integrated');
    const best = options.filter((o) => o.strategy !== 'integrated').sort((p, q) => p.kpis.cost - q.kpis.cost)[0];
    if (best && (!integrated || best.kpis.cost < integrated.kpis.cost - 1e-6)) {
      const outcome = outcomes[integratedIndex]!;
      const replacement: RecoveryOption = {
        ...structuredClone(best), strategy: 'integrated',
        solver: solverReport(models[integratedIndex]!, outcome, `The integrated solve ended with status ${outcome.status}; the ${best.strategy} plan, also feasible for all actions, is better and is used.`),
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
 * Run a simulation through the four stages. Rejects with RecoveryError: 'flight_not_found' for an
 * unknown flight, or the solver's failure (busy, crashed, aborted by `signal`); solver outcomes
 * (infeasible, time limit) are values in the result.
 */
export async function simulate(schedule: Schedule, request: SimulationRequest, solver: Solver, signal?: AbortSignal): Promise<SimulationResult> {
  const started = performance.now();
  const prepared = prepareSimulation(schedule, request);
  const { scope } = prepared;
  const solveStarted = performance.now();
  const outcomes = await solveModels(prepared, request.config, solver, signal);
  const solveMs = performance.now() - solveStarted;
  const { options, unsolved } = readOptions(schedule, prepared, request.config, outcomes);
  return {
    scenarioId: request.scenarioId,
    airline: scope.airline,
    scheduleName: request.scheduleName,
    disrupted: scope.disrupted,
    minDelayMinutes: request.minDelayMinutes,
    disruptionMinutes: scope.disruptionMinutes,
    windowEndMinutes: scope.windowEndMinutes,
    scope: { tails: scope.aircraft.map((a) => a.aircraft.tail), flights: scope.flights.length, itineraries: prepared.groups.misconnections.length },
    options: rankOptions(options, request.config),
    violations: prepared.violations,
    unsolved,
    timingsMs: {
      total: Math.round(performance.now() - started),
      build: Math.round(prepared.buildMs),
      solve: Math.round(solveMs),
    },
  };
}
