// Unit: the progress a simulation reports (recovery/pipeline.ts SimulationProgress, fed by each
// strategy's pricing rounds and integer solves in column-generation.ts): it starts with 'preparing',
// only moves forward, ends with 'done' and the best plans equal to the final result's, and its best
// cost and lower bound are those of the option that answers for the cheapest plan.
import { describe, expect, it } from 'vitest';
import { simulate, type SimulationProgress, type SimulationRequest } from '../../src/recovery/pipeline.ts';
import { DEFAULT_SOLVER_CONFIG } from '../../src/recovery/model/solver-config.ts';
import { bundledCatalog } from '../support/server.ts';
import { inProcessSolver } from './fixtures.ts';

describe('simulation progress', () => {
  it('unit: reports move forward from preparing to done, and the last best plans are the result\'s', async () => {
    const schedule = bundledCatalog().resolve('small')!.schedule;
    const request: SimulationRequest = {
      scenarioId: 'progress', airline: 'NV', scheduleName: 'small', disruptedFlightId: 'NV136_2026-11-21T05:15:00Z',
      disruptions: [{ type: 'flight_delay', flightId: 'NV136_2026-11-21T05:15:00Z', minDelayMinutes: 180 }],
      config: { ...DEFAULT_SOLVER_CONFIG, solver: { ...DEFAULT_SOLVER_CONFIG.solver, time_limit_ms: 20_000 } },
    };
    const reports: SimulationProgress[] = [];
    const result = await simulate(schedule, request, inProcessSolver, undefined, (p) => reports.push(structuredClone(p)));

    expect(reports[0]).toMatchObject({ phase: 'preparing', iterations: 0, bestCost: null, result: null });
    const last = reports.at(-1)!;
    expect(last.phase).toBe('done');
    const order = ['preparing', 'generating_columns', 'integer_plan', 'proving', 'done'];
    for (let i = 1; i < reports.length; i++) {
      expect(reports[i]!.elapsedMs).toBeGreaterThanOrEqual(reports[i - 1]!.elapsedMs);
      expect(reports[i]!.iterations).toBeGreaterThanOrEqual(reports[i - 1]!.iterations);
    }
    expect(reports.some((p) => p.phase === 'generating_columns')).toBe(true);
    expect(order.indexOf(last.phase)).toBe(order.length - 1);
    // The best cost only falls, and never below the bound proven with it.
    const costs = reports.map((p) => p.bestCost).filter((c): c is number => c !== null);
    expect(costs.length).toBeGreaterThan(0);
    for (let i = 1; i < costs.length; i++) expect(costs[i]!).toBeLessThanOrEqual(costs[i - 1]! + 1e-6);
    const withPlans = reports.filter((p) => p.result !== null);
    const lastPlans = withPlans.at(-1)!.result!;
    expect(lastPlans.options.map((o) => [o.strategy, o.kpis.cost, o.solver.status])).toEqual(result.options.map((o) => [o.strategy, o.kpis.cost, o.solver.status]));
    const integrated = result.options.find((o) => o.strategy === 'integrated')!;
    expect(last.bestCost).toBe(integrated.kpis.cost);
    expect(last.lowerBound).toBe(integrated.solver.lowerBound);
    expect(last.mipGap).toBe(integrated.solver.mipGap);
    expect(last.iterations).toBe(result.options.reduce((sum, o) => sum + o.solver.iterations, 0));
  }, 60_000);
});
