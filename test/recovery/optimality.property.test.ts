// The engine against the independent oracle (test/oracle/, which shares no code with it): on random
// small instances with 1-3 disruptions of all four kinds, each strategy's option is proven optimal and
// costs exactly the optimum found by exhaustive enumeration, every option passes the plan checker,
// the engine finds no plan where none exists, its lower bound never exceeds the optimum, the scope
// and the top-level violations agree. Every disagreement of the run is listed, not only the first.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSchedule } from '../../src/formats/schedule-json/read-schedule.ts';
import type { SimulationResponse } from '../../src/http/recovery-schemas.ts';
import { STRATEGIES } from '../../src/recovery/solver-config.ts';
import { bruteForceOptimum, topLevelViolations } from '../oracle/brute-force.ts';
import { checkOption, optionHolds } from '../oracle/checker.ts';
import { close, violationKey } from '../oracle/model.ts';
import { randomInstanceArbitrary, type RandomInstance } from '../oracle/random-instance.ts';
import { config, simulateAsResponse } from './fixtures.ts';

const RUNS = 200;
const SEED = 20261123;

/** What the instances exercised, counted on the optima both sides agree on. */
interface Coverage {
  instances: number;
  kinds: Record<'flight_delay' | 'flight_cancellation' | 'aircraft_unavailable' | 'airport_capacity', number>;
  optionsCompared: number;
  noPlanAgreed: number;
  withHold: number;
  withSwap: number;
  withCancellation: number;
  propagatedPlanAsIntegrated: number;
}

/** The disagreements of one instance with the oracle, one sentence each. */
async function disagreements(instance: RandomInstance, coverage: Coverage): Promise<string[]> {
  const out: string[] = [];
  const schedule = buildSchedule(instance.schedule);
  // The engine's own resolution of the instance's configuration, handed unchanged to the oracle.
  const solverConfig = config(instance.config);
  let result: SimulationResponse;
  try {
    result = await simulateAsResponse(schedule, { disruptions: instance.disruptions, config: solverConfig, airline: instance.airline, scenarioId: `seed-${instance.seed}` });
  } catch (error) {
    return [`the engine failed: ${(error as Error).message}`];
  }
  const input = { schedule: instance.schedule, disruptions: instance.disruptions, airline: instance.airline, config: solverConfig };
  for (const d of instance.disruptions) coverage.kinds[d.type]++;

  for (const strategy of STRATEGIES) {
    const brute = bruteForceOptimum({ ...input, strategy });
    if (strategy === 'integrated' && [...result.scope.aircraft].sort().join() !== [...brute.scope.aircraft].sort().join()) {
      out.push(`scope: the engine takes aircraft ${result.scope.aircraft.join(', ')}, the oracle ${brute.scope.aircraft.join(', ')}`);
    }
    const option = result.options.find((o) => o.strategy === strategy);
    const unsolved = result.unsolved_strategies.find((u) => u.strategy === strategy);
    if (!brute.feasible) {
      if (option) out.push(`${strategy}: the engine returns a plan of cost ${option.summary.cost} (${option.solver.status}) where brute force proves none exists`);
      else if (unsolved?.status !== 'infeasible') out.push(`${strategy}: no plan exists, but the engine reports ${unsolved?.status ?? 'nothing'} rather than infeasible`);
      else coverage.noPlanAgreed++;
      continue;
    }
    if (!option) {
      out.push(`${strategy}: brute force finds a plan of cost ${brute.cost}, the engine none (${unsolved?.status}: ${unsolved?.detail})`);
      continue;
    }
    const problems = checkOption({ ...input, option });
    for (const p of problems) out.push(`${strategy}: checker: ${p}`);
    if (option.solver.status !== 'optimal') out.push(`${strategy}: the engine reports ${option.solver.status}, not optimal, on an instance this small (cost ${option.summary.cost}, optimum ${brute.cost}; ${option.solver.note})`);
    else if (!close(option.summary.cost, brute.cost, 1e-9)) out.push(`${strategy}: the engine's optimal option costs ${option.summary.cost}, the brute-force optimum is ${brute.cost}`);
    const lb = option.solver.lower_bound;
    if (lb !== null && lb > brute.cost && !close(lb, brute.cost, 1e-9)) out.push(`${strategy}: solver.lower_bound ${lb} is above the optimum ${brute.cost}`);
    if (problems.length === 0 && close(option.summary.cost, brute.cost, 1e-9)) {
      coverage.optionsCompared++;
      if (optionHolds(input, option) > 0) coverage.withHold++;
      if (option.summary.flights_swapped > 0) coverage.withSwap++;
      if (option.action_set.cancellations.length > instance.disruptions.filter((d) => d.type === 'flight_cancellation').length) coverage.withCancellation++;
      if (strategy === 'integrated' && brute.plan!.source === 'delay_propagation') coverage.propagatedPlanAsIntegrated++;
    }
  }
  const engineViolations = result.violations.map(violationKey).sort();
  const oracleViolations = topLevelViolations(input).map(violationKey).sort();
  if (engineViolations.join() !== oracleViolations.join()) out.push(`top-level violations: the engine reports [${engineViolations.join('; ')}], the oracle [${oracleViolations.join('; ')}]`);
  return out;
}

describe('optimality against exhaustive enumeration', () => {
  it(`property: on ${RUNS} random instances each strategy is proven optimal at the brute-force optimum, and every option checks out`, async () => {
    const coverage: Coverage = {
      instances: 0, kinds: { flight_delay: 0, flight_cancellation: 0, aircraft_unavailable: 0, airport_capacity: 0 },
      optionsCompared: 0, noPlanAgreed: 0, withHold: 0, withSwap: 0, withCancellation: 0, propagatedPlanAsIntegrated: 0,
    };
    const found: string[] = [];
    for (const instance of fc.sample(randomInstanceArbitrary(), { numRuns: RUNS, seed: SEED })) {
      coverage.instances++;
      for (const d of await disagreements(instance, coverage)) found.push(`seed ${instance.seed}: ${d}`);
    }
    console.info(`optimality property: ${JSON.stringify(coverage)}`);
    expect(found).toEqual([]);
    // The instances must exercise every disruption and every action, or equality would prove little.
    for (const kind of Object.keys(coverage.kinds) as (keyof Coverage['kinds'])[]) expect(coverage.kinds[kind], kind).toBeGreaterThan(0);
    expect(coverage.withHold).toBeGreaterThan(0);
    expect(coverage.withSwap).toBeGreaterThan(0);
    expect(coverage.withCancellation).toBeGreaterThan(0);
    expect(coverage.noPlanAgreed).toBeGreaterThan(0);
  }, 600_000);
});
