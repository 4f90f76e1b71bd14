// Machine-independent figures of every benchmark solve: model size, candidate routes, GLPK's work
// (simplex iterations, branch-and-bound subproblems), the objective, and the facts the scenario
// tags promise. The same scenario gives the same report on any machine: solves run on this thread
// with a time limit far above their duration, so the machine's speed cannot change an outcome.
import type { Schedule } from '../../src/domain/schedule.ts';
import { modelSize, type LinearModel } from '../../src/recovery/model/linear-model.ts';
import type { SolveStatus } from '../../src/recovery/model/result.ts';
import { prepareSimulation, rankOptions, readOptions, solveStrategies } from '../../src/recovery/pipeline.ts';
import type { SolverConfig, Strategy } from '../../src/recovery/model/solver-config.ts';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import { solveCounting } from './glpk-main-thread.ts';
import { describeDisruptions, simulationRequest, staticFacts, type Scenario, type ScenarioFacts, type Tag } from './scenarios.ts';

/** Time limit of the counting solves: GLPK's maximum here, far above any benchmark solve. */
export const COUNTER_TIME_LIMIT_MS = 120_000;

export interface StrategyCounters {
  status: SolveStatus;
  objective: number | null;
  rows: number;
  columns: number;
  nonzeros: number;
  integers: number;
  candidate_routes: number;
  /** Rounds of column generation. */
  iterations: number;
  /** GLPK's work summed over every solve of the strategy (the master LPs and the integer solves). */
  simplex_iterations: number | null;
  bb_nodes: number | null;
}

export interface ScenarioCounters {
  schedule: string;
  /** What the scenario disrupts (describeDisruptions): the gate refuses a baseline measured on other disruptions. */
  disruptions: string;
  tags: Tag[];
  facts: ScenarioFacts;
  scope: { aircraft: number; flights: number; itineraries: number };
  best_strategy: Strategy | null;
  strategies: Partial<Record<Strategy, StrategyCounters>>;
}

export interface CounterReport {
  scenarios: Record<string, ScenarioCounters>;
}

/** A change applied to every model before it is solved; used to plant regressions in tests. */
export type ModelTransform = (model: LinearModel) => LinearModel;

export interface CounterOptions {
  transform?: ModelTransform;
  onScenario?: (scenario: Scenario, index: number, total: number) => void;
}

export function counterConfig(scenario: Scenario): SolverConfig {
  return { ...scenario.solverConfig, solver: { ...scenario.solverConfig.solver, time_limit_ms: COUNTER_TIME_LIMIT_MS } };
}

export async function measureScenarioCounters(schedule: Schedule, scenario: Scenario, transform?: ModelTransform): Promise<ScenarioCounters> {
  const request = simulationRequest(scenario, counterConfig(scenario));
  const prepared = prepareSimulation(schedule, request);
  const work = new Map<string, { simplex: number | null; bb: number | null }>();
  /** Size of the last integer model each strategy solved (as GLPK saw it, after any transform): its final model. */
  const finalSize = new Map<string, ReturnType<typeof modelSize>>();
  // An LP relaxation has no branch and bound: its log gives no node count, which adds nothing.
  const add = (sum: number | null, more: number | null, relaxation: boolean) => (sum === null || (more === null && !relaxation) ? null : sum + (more ?? 0));
  const port: Solver = {
    solve: async (task) => {
      const model = transform ? transform(task.model) : task.model;
      const counted = await solveCounting({ ...task, model });
      const strategy = task.model.name.split('__').at(-1)!;
      const sum = work.get(strategy) ?? { simplex: 0, bb: 0 };
      const relaxation = task.relaxation === true;
      work.set(strategy, { simplex: add(sum.simplex, counted.work.simplexIterations, false), bb: add(sum.bb, counted.work.bbNodes, relaxation) });
      if (!relaxation) finalSize.set(strategy, modelSize(model));
      return counted.outcome;
    },
  };
  const solved = await solveStrategies(schedule, prepared, request.config, port);
  const options = rankOptions(readOptions(schedule, prepared, request.config, solved).options, request.config);
  const strategies: Partial<Record<Strategy, StrategyCounters>> = {};
  for (const s of solved) {
    const spent = work.get(s.model.strategy) ?? { simplex: null, bb: null };
    strategies[s.model.strategy] = {
      status: s.outcome.status,
      objective: s.outcome.objective,
      ...(finalSize.get(s.model.strategy) ?? modelSize(s.model.model)),
      candidate_routes: s.model.candidateRoutes,
      iterations: s.iterations,
      simplex_iterations: spent.simplex,
      bb_nodes: spent.bb,
    };
  }
  const integrated = options.find((o) => o.strategy === 'integrated');
  const count = (type: 'crew_duty' | 'maintenance') => prepared.violations.filter((v) => v.type === type).length;
  return {
    schedule: scenario.schedule,
    disruptions: describeDisruptions(scenario),
    tags: scenario.tags,
    facts: {
      ...staticFacts(schedule, scenario),
      violations: { crew_duty: count('crew_duty'), maintenance: count('maintenance') },
      integrated: integrated ? {
        delayed: integrated.delays.length,
        swapped: integrated.swaps.length,
        cancelled: integrated.cancellations.length,
      } : null,
    },
    scope: { aircraft: prepared.scope.aircraft.length, flights: prepared.scope.flights.length, itineraries: prepared.groups.misconnections.length },
    best_strategy: options[0]?.strategy ?? null,
    strategies,
  };
}

export async function measureCounters(
  schedules: ReadonlyMap<string, Schedule>, scenarios: readonly Scenario[], options: CounterOptions = {},
): Promise<CounterReport> {
  const report: CounterReport = { scenarios: {} };
  for (const [i, scenario] of scenarios.entries()) {
    options.onScenario?.(scenario, i, scenarios.length);
    const schedule = schedules.get(scenario.schedule);
    if (!schedule) throw new Error(`schedule ${scenario.schedule} of scenario ${scenario.key} is not loaded`);
    report.scenarios[scenario.key] = await measureScenarioCounters(schedule, scenario, options.transform);
  }
  return report;
}
