// The flight bound (src/recovery/bounds/flight-bound.ts) on a hand-checked case: what a capacity cut
// forces whatever the aircraft do, as an LP and in closed form. The LP's validity on random instances
// (never above a brute-force optimum) is checked by the optimality property
// (optimality.property.test.ts); the closed form's here, against the same brute force and the LP.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Schedule } from '../../src/domain/schedule.ts';
import { buildSchedule } from '../../src/formats/schedule-json/read-schedule.ts';
import { flightBoundInClosedForm, flightBoundWithoutCapacities } from '../../src/recovery/bounds/flight-bound.ts';
import { RouteEvaluator } from '../../src/recovery/neighbourhood/aircraft-routes.ts';
import { prepareSimulation } from '../../src/recovery/pipeline.ts';
import { bruteForceOptimum } from '../oracle/brute-force.ts';
import { close } from '../oracle/model.ts';
import { randomInstanceArbitrary } from '../oracle/random-instance.ts';
import { at, config, fixture, flightBoundOf, fullRequest, id, simulateAsResponse, type DisruptionsRequest } from './fixtures.ts';

/** The flight bound in closed form (with the capacities) and without the capacities, of a simulation. */
function closedForms(schedule: Schedule, body: DisruptionsRequest): { closed: number; withoutCapacities: number } {
  const full = fullRequest(body);
  const prepared = prepareSimulation(schedule, full);
  const ev = new RouteEvaluator(schedule, prepared.scope, full.config);
  return { closed: flightBoundInClosedForm(ev, prepared.groups), withoutCapacities: flightBoundWithoutCapacities(ev, prepared.groups) };
}

// Three aircraft leave VIE for PRG at 08:00, 08:10 and 08:20 (an hour each, 100 booked, nothing
// after); VIE takes one departure in the hour from 08:00. Each minute of delay costs 100 + 0.5 × 100
// = 150. Two flights must leave at 09:00 or later: the cheapest are the two latest, 50 and 40 minutes
// late, 7,500 + 6,000 = 13,500. Cancelling one instead costs 8,000 + 100 × min(120, 250) = 20,000.
const schedule = fixture({
  flights: [
    { no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '08:00', arr: '09:00' },
    { no: 'NV2', tail: 'OE-BBB', from: 'VIE', to: 'PRG', dep: '08:10', arr: '09:10' },
    { no: 'NV3', tail: 'OE-CCC', from: 'VIE', to: 'PRG', dep: '08:20', arr: '09:20' },
  ],
});
const storm = (maxDepartures: number, partial: Record<string, unknown> = {}) => ({
  disruptions: [{ type: 'airport_capacity' as const, airport: 'VIE', from: at('08:00'), to: at('09:00'), max_departures_per_hour: maxDepartures, max_arrivals_per_hour: 10 }],
  config: config({ solver: { time_step_minutes: 10 }, ...partial }),
});

describe('flight bound', () => {
  it('unit: a capacity of one departure an hour forces two flights out of the hour: 13,500, and the plan that does so is proven optimal at it', async () => {
    expect(await flightBoundOf(schedule, storm(1))).toBeCloseTo(13_500, 6);
    const integrated = (await simulateAsResponse(schedule, storm(1))).options.find((o) => o.strategy === 'integrated')!;
    expect(integrated.summary.cost).toBeCloseTo(13_500, 6);
    expect(integrated.solver).toMatchObject({ status: 'optimal', lower_bound: 13_500 });
    expect(integrated.action_set.delays.map((d) => [d.flight, d.delay_minutes]).sort()).toEqual([[id('NV2', '08:10'), 50], [id('NV3', '08:20'), 40]]);
  });

  it('unit: with two departures an hour one flight moves (the latest, 6,000); with none allowed to be delayed past 30 minutes, cancelling is what is left (6,000 + 20,000)', async () => {
    expect(await flightBoundOf(schedule, storm(2))).toBeCloseTo(6_000, 6);
    // NV2 and NV3 cannot reach 09:00 within 30 minutes, NV1 neither: two of the three are cancelled.
    expect(await flightBoundOf(schedule, storm(1, { constraints: { max_delay_minutes: 30 } }))).toBeCloseTo(2 * 20_000, 6);
  });

  it('unit: in closed form, without a solve, the same three figures (no delay is forced: without the capacities it is 0)', () => {
    expect(closedForms(schedule, storm(1))).toEqual({ closed: 13_500, withoutCapacities: 0 });
    expect(closedForms(schedule, storm(2)).closed).toBe(6_000);
    expect(closedForms(schedule, storm(1, { constraints: { max_delay_minutes: 30 } })).closed).toBe(2 * 20_000);
  });

  it('unit: in closed form, a flight whose aircraft is out of service costs at least a swap, its delay until the aircraft is back, or its cancellation, the least', () => {
    // OE-AAA is out from 07:30 to 10:00: NV1 (08:00, 100 booked) flies with another aircraft (a swap,
    // 400), with OE-AAA at 10:00 (120 minutes × 150 = 18,000) or not (8,000 + 100 × 120 = 20,000).
    const out = (partial: Record<string, unknown> = {}) => ({
      disruptions: [{ type: 'aircraft_unavailable' as const, tail: 'OE-AAA', from: at('07:30'), to: at('10:00') }],
      config: config(partial),
    });
    expect(closedForms(schedule, out())).toEqual({ closed: 400, withoutCapacities: 0 });
    expect(closedForms(schedule, out({ cost_weights: { swap_per_flight: 50_000 } })).closed).toBe(18_000);
    expect(closedForms(schedule, out({ cost_weights: { swap_per_flight: 50_000 }, constraints: { max_delay_minutes: 90 } })).closed).toBe(20_000);
  });

  it('property: on 120 random instances the closed form is at most the brute-force optimum, and the LP flight bound where no aircraft is out of service', async () => {
    const found: string[] = [];
    let compared = 0;
    let raised = 0;
    for (const instance of fc.sample(randomInstanceArbitrary(), { numRuns: 120, seed: 20261128 })) {
      const schedule = buildSchedule(instance.schedule);
      const solverConfig = config(instance.config);
      const body = { disruptions: instance.disruptions, config: solverConfig, airline: instance.airline };
      const brute = bruteForceOptimum({ schedule: instance.schedule, disruptions: instance.disruptions, airline: instance.airline, config: solverConfig, strategy: 'integrated' });
      if (!brute.feasible) continue;
      compared++;
      const { closed, withoutCapacities } = closedForms(schedule, body);
      const lp = await flightBoundOf(schedule, body);
      if (closed > brute.cost && !close(closed, brute.cost, 1e-6)) found.push(`seed ${instance.seed}: closed form ${closed} above the optimum ${brute.cost}`);
      // The LP relaxes the aircraft away: only a closed form that counts no aircraft out of service is below it.
      const outOfService = instance.disruptions.some((d) => d.type === 'aircraft_unavailable');
      if (lp !== null && !outOfService && closed > lp && !close(closed, lp, 1e-6)) found.push(`seed ${instance.seed}: closed form ${closed} above the LP flight bound ${lp}`);
      if (closed > withoutCapacities + 1e-6) raised++;
    }
    console.info(`closed flight bound property: ${compared} compared, raised by the capacities or an aircraft out of service on ${raised}`);
    expect(found).toEqual([]);
    // They must raise it somewhere, or the comparison would prove nothing about them.
    expect(raised).toBeGreaterThan(0);
  }, 300_000);
});
