// The flight bound (src/recovery/bounds/flight-bound.ts) on a hand-checked case: what a capacity cut
// forces whatever the aircraft do. Its validity on random instances (never above a brute-force
// optimum) is checked by the optimality property (optimality.property.test.ts).
import { describe, expect, it } from 'vitest';
import { at, config, fixture, flightBoundOf, id, simulateAsResponse } from './fixtures.ts';

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
});
