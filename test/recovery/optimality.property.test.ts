// The engine against the independent oracle (test/oracle/, which shares no code with it): on random
// small instances, every strategy's option costs exactly the optimum found by exhaustive
// enumeration, every option passes the plan checker, and the top-level violations agree.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSchedule } from '../../src/formats/schedule-json/read-schedule.ts';
import { STRATEGIES } from '../../src/recovery/solver-config.ts';
import { bruteForceOptimum, topLevelViolations } from '../oracle/brute-force.ts';
import { checkOption } from '../oracle/checker.ts';
import { randomInstanceArbitrary } from '../oracle/random-instance.ts';
import { config, simulateAsResponse } from './fixtures.ts';

// Limits large enough that candidate route generation is complete on instances this small, so the
// model's plan space is the whole plan space of docs/model.md section 1.
const COMPLETE_GENERATION = { max_routes_per_aircraft: 20_000, max_route_deviations: 50, max_branching: 200 };

const violationKey = (v: { type: string; flight: string | null; tail?: string; crew_id?: string }) =>
  `${v.type}|${v.flight}|${v.type === "crew_duty" ? v.crew_id : v.tail}`;

describe('optimality against exhaustive enumeration', () => {
  it('property: on 200 random instances each strategy\'s cost equals the brute-force optimum and every option checks out', async () => {
    let withCancellation = 0;
    let withSwap = 0;
    await fc.assert(fc.asyncProperty(randomInstanceArbitrary(), async (instance) => {
      const schedule = buildSchedule(instance.schedule);
      const solverConfig = config({ ...instance.config, solver: { ...instance.config.solver, ...COMPLETE_GENERATION } });
      const result = await simulateAsResponse(schedule, {
        scenarioId: `seed-${instance.seed}`, disruptedFlightId: instance.disruptedFlight, minDelayMinutes: instance.minDelayMinutes,
        airline: schedule.flightsById.get(instance.disruptedFlight)!.airline, scheduleName: 'random', config: solverConfig,
      });
      const input = { schedule: instance.schedule, disruptedFlight: instance.disruptedFlight, minDelayMinutes: instance.minDelayMinutes, config: solverConfig };

      for (const strategy of STRATEGIES) {
        const brute = bruteForceOptimum({ ...input, strategy });
        const option = result.options.find((o) => o.strategy === strategy);
        if (!brute.feasible) {
          expect(option, `${strategy}: the engine found a plan where none is feasible`).toBeUndefined();
          continue;
        }
        expect(option, `${strategy}: brute force found a plan of cost ${brute.cost}, the engine none (${JSON.stringify(result.unsolved_strategies)})`).toBeDefined();
        expect(option!.summary.cost).toBeCloseTo(brute.cost, 6);
        expect(checkOption({ ...input, option: option! })).toEqual([]);
        if (strategy === 'integrated') {
          if (option!.summary.flights_cancelled > 0) withCancellation++;
          if (option!.summary.flights_swapped > 0) withSwap++;
        }
      }
      expect(result.violations.map(violationKey).sort()).toEqual(topLevelViolations(input).map(violationKey).sort());
    }), { numRuns: 200, seed: 20261121 });
    // The instances must exercise the actions, or equality would prove little.
    expect(withCancellation).toBeGreaterThan(5);
    expect(withSwap).toBeGreaterThan(5);
  }, 240_000);
});
