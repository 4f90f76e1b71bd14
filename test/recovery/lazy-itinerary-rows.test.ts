// The lazy itinerary rows (docs/model.md 2.4): an itinerary's rows join the model only when a master
// first cancels one of its legs, and an integer plan that cancels such a leg is solved again with
// the rows added (StrategyRun.solvePlan). The column generation's masters usually cancel such a leg
// before any integer solve does, so here the pool is made by hand: the one route it holds for OE-AAA
// is the empty one, and the integer plan must cancel both its flights, one of them the first leg
// of an itinerary whose rows no route of the pool brings. The costs are worked out by hand below.
import { describe, expect, it } from 'vitest';
import { Budget } from '../../src/recovery/model/budget.ts';
import { StrategyRun } from '../../src/recovery/neighbourhood/strategy-run.ts';
import { prepareSimulation } from '../../src/recovery/pipeline.ts';
import { config, fixture, id, inProcessSolver } from './fixtures.ts';

// OE-AAA flies VIE-PRG-VIE in the morning, OE-BBB VIE-BUD-VIE at noon; IT1 takes OE-AAA's PRG-VIE
// and OE-BBB's VIE-BUD (60 minutes at VIE, whose minimum is 30). No other flight serves PRG-VIE,
// VIE-PRG or PRG-BUD, so nobody can be re-accommodated.
const schedule = fixture({
  flights: [
    { no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '08:00', arr: '09:00', booked: 100 },
    { no: 'NV2', tail: 'OE-AAA', from: 'PRG', to: 'VIE', dep: '10:00', arr: '11:00', booked: 100 },
    { no: 'NV3', tail: 'OE-BBB', from: 'VIE', to: 'BUD', dep: '12:00', arr: '13:00', booked: 100 },
    { no: 'NV4', tail: 'OE-BBB', from: 'BUD', to: 'VIE', dep: '14:00', arr: '15:00', booked: 100 },
  ],
  itineraries: [{ id: 'IT1', passengers: 20, flights: [id('NV2', '10:00'), id('NV3', '12:00')] }],
});

describe('lazy itinerary rows', () => {
  it('unit: an integer plan that cancels the first leg of an itinerary without rows is solved again with them, and its cost counts the itinerary\'s passengers', async () => {
    const cfg = config({ strategies: { evaluate: ['integrated'] } });
    const prepared = prepareSimulation(schedule, {
      scenarioId: 'lazy', airline: 'NV', scheduleName: 'fixture', config: cfg, disruptedFlightId: null,
      disruptions: [{ type: 'flight_delay', flightId: id('NV1', '08:00'), minDelayMinutes: 30 }],
    });
    expect(prepared.scope.aircraft.map((a) => a.aircraft.tail).sort()).toEqual(['OE-AAA', 'OE-BBB']);
    const run = new StrategyRun({
      schedule, scope: prepared.scope, config: cfg, strategy: 'integrated', groups: prepared.groups, solver: inProcessSolver, budget: Budget.start(60_000),
    });
    const [aaa, bbb] = ['OE-AAA', 'OE-BBB'].map((tail) => prepared.scope.aircraft.find((a) => a.aircraft.tail === tail)!);
    // OE-AAA on the ground all day, OE-BBB as planned: no route breaks IT1's connection.
    run.add(run.ev.finish(aaa!, [], aaa!.checks.map(() => null))!);
    run.add(run.ev.plannedRoute(bbb!)!);
    run.rebuild();
    const first = run.model;
    expect(first.itineraryRows.has('IT1')).toBe(false);

    // The first solve's plan cancels NV1 and NV2 (2 x 8,000) and compensates their own passengers: NV1's
    // 100 and NV2's 100 less IT1's 20, at EU261's 250 each (VIE-PRG is under 1,500 km): 45,000.
    // It leaves out IT1's 20, whose first leg NV2 it cancels: 61,000 is not the plan's cost.
    const alone = await inProcessSolver.solve({ model: first.model, timeLimitMs: 60_000, mipGap: 0 });
    expect(alone.status).toBe('optimal');
    expect(alone.objective).toBeCloseTo(2 * 8_000 + (100 + 80) * 250, 6);

    // solvePlan notes IT1, rebuilds the model with its rows and solves again: IT1's 20 passengers wait at
    // PRG and are compensated for PRG-BUD (under 1,500 km): 20 x 250 more, 66,000.
    const solved = await run.solvePlan();
    expect(solved.rebuilt).toBe(true);
    expect(solved.model.itineraryRows.has('IT1')).toBe(true);
    expect(solved.outcome.status).toBe('optimal');
    expect(solved.outcome.objective).toBeCloseTo(2 * 8_000 + (100 + 80) * 250 + 20 * 250, 6);
    // The rows stay: the next model built over the pool holds them too.
    run.rebuild();
    expect(run.model.itineraryRows.has('IT1')).toBe(true);
  });
});
