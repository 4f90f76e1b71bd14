// Scenario tests of the recovery engine, one rule each, on hand-written schedules whose expected
// plans were worked out by hand (turnaround A320 = 40 min at every airport used here).
import { describe, expect, it } from 'vitest';
import type { RecoveryOptionView, SimulationResponse } from '../../src/http/recovery-schemas.ts';
import { config, fixture, id, request, simulateAsResponse } from './fixtures.ts';

const option = (result: SimulationResponse, strategy: string): RecoveryOptionView => {
  const found = result.options.find((o) => o.strategy === strategy);
  if (!found) throw new Error(`no ${strategy} option: ${JSON.stringify(result.unsolved_strategies)}`);
  return found;
};

// OE-AAA: VIE-PRG 06:00-07:00, PRG-VIE 07:50-08:50, VIE-BUD 09:40-10:40, BUD-VIE 11:30-12:30.
const rotation = [
  { no: 'NV1', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '06:00', arr: '07:00' },
  { no: 'NV2', tail: 'OE-AAA', from: 'PRG', to: 'VIE', dep: '07:50', arr: '08:50' },
  { no: 'NV3', tail: 'OE-AAA', from: 'VIE', to: 'BUD', dep: '09:40', arr: '10:40' },
  { no: 'NV4', tail: 'OE-AAA', from: 'BUD', to: 'VIE', dep: '11:30', arr: '12:30' },
];

describe('delay propagation', () => {
  it('unit: a 60-minute delay shrinks by each turnaround slack of 10 minutes downstream', async () => {
    const schedule = fixture({ flights: rotation });
    const result = await simulateAsResponse(schedule, request(id('NV1', '06:00'), 60));
    const delays = option(result, 'delay_propagation').action_set.delays.map((d) => [d.flight, d.delay_minutes]);
    expect(delays).toEqual([[id('NV1', '06:00'), 60], [id('NV2', '07:50'), 50], [id('NV3', '09:40'), 40], [id('NV4', '11:30'), 30]]);
    const first = option(result, 'delay_propagation').action_set.delays[0]!;
    expect(first.new_dep).toBe('2026-11-21T08:00:00+01:00'); // 07:00Z in Vienna, November
    expect(first.new_arr).toBe('2026-11-21T09:00:00+01:00');
  });

  it('scenario: the disrupted flight leaves at least min_delay late in every option', async () => {
    const schedule = fixture({ flights: rotation, aircraft: [{ tail: 'OE-AAA' }, { tail: 'OE-BBB' }] });
    const result = await simulateAsResponse(schedule, request(id('NV1', '06:00'), 45));
    for (const o of result.options) {
      const cancelled = o.action_set.cancellations.some((c) => c.flight === id('NV1', '06:00'));
      const delay = o.action_set.delays.find((d) => d.flight === id('NV1', '06:00'))?.delay_minutes ?? 0;
      expect(cancelled || delay >= 45).toBe(true);
    }
  });
});

describe('aircraft swap', () => {
  it('scenario: a spare aircraft at the hub takes the late aircraft\'s next round trip', async () => {
    const schedule = fixture({ flights: rotation, aircraft: [{ tail: 'OE-AAA' }, { tail: 'OE-BBB' }] });
    const result = await simulateAsResponse(schedule, request(id('NV1', '06:00'), 180));
    const swap = option(result, 'aircraft_swap');
    // Two equal-cost answers exist (the spare flies the late round trip, or the on-time one); in
    // both, exactly one round trip changes aircraft and NV3/NV4 leave on time.
    expect(swap.action_set.swaps).toHaveLength(2);
    expect(new Set(swap.action_set.swaps.map((s) => s.to_tail))).toEqual(new Set(['OE-BBB']));
    expect(swap.action_set.delays.map((d) => d.flight)).toEqual([id('NV1', '06:00'), id('NV2', '07:50')]);
    expect(swap.summary.cost).toBeLessThan(option(result, 'delay_propagation').summary.cost);
    expect(option(result, 'delay_propagation').action_set.swaps).toEqual([]);
    expect(swap.action_set.cancellations).toEqual([]);
  });

  it('unit: swaps respect the fleet policy (same_fleet forbids an A319 for an A320 flight)', async () => {
    const schedule = fixture({ flights: rotation, aircraft: [{ tail: 'OE-AAA' }, { tail: 'OE-BBB', fleet: 'A319' }] });
    const result = await simulateAsResponse(schedule, request(id('NV1', '06:00'), 180, config({ constraints: { swap_fleet_policy: 'same_fleet' } })));
    for (const o of result.options) expect(o.action_set.swaps).toEqual([]);
  });
});

describe('cancellation', () => {
  it('scenario: cancelling the delayed round trip beats a five-hour delay of four flights', async () => {
    const lightly = rotation.map((f) => ({ ...f, booked: f.no === 'NV1' || f.no === 'NV2' ? 10 : 150 }));
    const schedule = fixture({ flights: lightly });
    const result = await simulateAsResponse(schedule, request(id('NV1', '06:00'), 300));
    const cancel = option(result, 'cancellation');
    expect(cancel.action_set.cancellations.map((c) => c.flight)).toEqual([id('NV1', '06:00'), id('NV2', '07:50')]);
    expect(cancel.action_set.delays).toEqual([]);
    expect(cancel.action_set.swaps).toEqual([]);
    // 2 × 8000 + 20 passengers × EU261 250 € (VIE-PRG 250 km, no later flight to rebook on)
    expect(cancel.cost_breakdown.cancellation).toBe(16000);
    expect(cancel.cost_breakdown.compensation).toBe(5000);
    expect(cancel.summary.cost).toBe(21000);
    expect(result.best_option_id).toBe(result.options[0]!.option_id);
    expect(option(result, 'integrated').summary.cost).toBe(21000);
  });
});

describe('maintenance', () => {
  const withCheck = {
    flights: [
      rotation[0]!, rotation[1]!,
      { no: 'NV3', tail: 'OE-AAA', from: 'VIE', to: 'BUD', dep: '12:10', arr: '13:10' },
    ],
    maintenance: [{ tail: 'OE-AAA', type: 'daily_check' as const, station: 'VIE', start: '2026-11-21T09:30:00Z', end: '2026-11-21T11:30:00Z' }],
  };

  it('unit: a delay that brings the aircraft back after the check start is a reported maintenance violation (soft)', async () => {
    const result = await simulateAsResponse(fixture(withCheck), request(id('NV1', '06:00'), 60));
    expect(result.violations).toEqual([expect.objectContaining({ type: 'maintenance', tail: 'OE-AAA', flight: id('NV2', '07:50'), excess_minutes: 10 })]);
    expect(option(result, 'delay_propagation').cost_breakdown.maintenance).toBe(50000);
  });

  it('unit: with hard maintenance no returned option misses the check and delay propagation has no plan', async () => {
    const result = await simulateAsResponse(fixture(withCheck), request(id('NV1', '06:00'), 60, config({ constraints: { maintenance: 'hard' } })));
    expect(result.unsolved_strategies.map((u) => u.strategy)).toContain('delay_propagation');
    expect(result.options.length).toBeGreaterThan(0);
    for (const o of result.options) expect(o.violations.filter((v) => v.type === 'maintenance')).toEqual([]);
  });

  it('unit: an on-time arrival performs the check and the next flight waits for its end', async () => {
    const result = await simulateAsResponse(fixture(withCheck), request(id('NV1', '06:00'), 20));
    const plan = option(result, 'delay_propagation');
    expect(plan.violations).toEqual([]);
    expect(plan.action_set.delays.map((d) => d.flight)).toEqual([id('NV1', '06:00'), id('NV2', '07:50')]);
  });
});

describe('crew duty', () => {
  const crewed = {
    flights: rotation,
    crew: [{ id: 'NV-FC1', start: '05:00', maxMinutes: 480, flights: rotation.map((f) => id(f.no, f.dep)) }], // limit 13:00Z
  };

  it('unit: a delay pushing the last sector past the maximum duty is one violation per flight and crew (soft)', async () => {
    const result = await simulateAsResponse(fixture(crewed), request(id('NV1', '06:00'), 60));
    // NV4 arrives 12:30 + 30 = 13:00: exactly at the limit, not beyond.
    expect(result.violations).toEqual([]);
    const later = await simulateAsResponse(fixture(crewed), request(id('NV1', '06:00'), 90));
    expect(later.violations).toEqual([expect.objectContaining({ type: 'crew_duty', crew_id: 'NV-FC1', flight: id('NV4', '11:30'), excess_minutes: 30 })]);
    expect(option(later, 'delay_propagation').cost_breakdown.crew_duty).toBe(15000);
  });

  it('unit: with hard crew duty no option keeps a flight beyond the limit', async () => {
    const result = await simulateAsResponse(fixture(crewed), request(id('NV1', '06:00'), 90, config({ constraints: { crew_duty: 'hard' } })));
    for (const o of result.options) expect(o.violations).toEqual([]);
    expect(result.unsolved_strategies.map((u) => u.strategy)).toEqual(['delay_propagation', 'aircraft_swap']);
  });
});

describe('passengers', () => {
  it('scenario: misconnected passengers move to the next flight to their destination with free seats', async () => {
    const schedule = fixture({
      flights: [
        { no: 'NV1', tail: 'OE-AAA', from: 'PRG', to: 'VIE', dep: '06:00', arr: '07:00' },
        { no: 'NV2', tail: 'OE-AAA', from: 'VIE', to: 'PRG', dep: '07:40', arr: '08:40' },
        { no: 'NV5', tail: 'OE-CCC', from: 'VIE', to: 'BUD', dep: '07:45', arr: '08:45' },
        { no: 'NV7', tail: 'OE-DDD', from: 'VIE', to: 'BUD', dep: '10:00', arr: '11:00', booked: 170 },
      ],
      itineraries: [{ id: 'IT1', passengers: 12, flights: [id('NV1', '06:00'), id('NV5', '07:45')] }],
    });
    const result = await simulateAsResponse(schedule, request(id('NV1', '06:00'), 30, config({ solver: { max_candidate_aircraft: 0 } })));
    const plan = option(result, 'delay_propagation');
    // arrives 07:30, needs 30 min to connect, NV5 leaves 07:45: missed. NV7 has 10 free seats.
    expect(plan.action_set.reaccommodations).toEqual([
      { from_flight: id('NV5', '07:45'), to_flights: [id('NV7', '10:00')], passengers: 10, reason: 'misconnection', itinerary_id: 'IT1' },
      { from_flight: id('NV5', '07:45'), to_flights: [], passengers: 2, reason: 'misconnection', itinerary_id: 'IT1' },
    ]);
    // 10 × (120 + 0.5 × 135 min later arrival) = 1875, cheaper than 250 € each; 2 × 250 € compensation (PRG-BUD 443 km)
    expect(plan.cost_breakdown.reaccommodation).toBe(10 * (120 + 0.5 * 135));
    expect(plan.cost_breakdown.compensation).toBe(500);
    expect(plan.summary.passengers_disrupted).toBe(12);
  });
});

describe('ranking and determinism', () => {
  it('scenario: options are ranked by cost, integrated is never above another, the same request gives the same answer', async () => {
    const schedule = fixture({ flights: rotation, aircraft: [{ tail: 'OE-AAA' }, { tail: 'OE-BBB' }] });
    // A limit no strategy nears even on a loaded machine: the answer is the same when every strategy
    // finishes its proof (at the default 2 s a restricted one cut short could differ, and says so).
    const ample = request(id('NV1', '06:00'), 120, config({ solver: { time_limit_ms: 30_000 } }));
    const first = await simulateAsResponse(schedule, ample);
    const second = await simulateAsResponse(schedule, ample);
    const strip = (r: SimulationResponse) => ({ ...r, timings_ms: null, options: r.options.map((o) => ({ ...o, solver: { ...o.solver, solve_ms: 0 } })) });
    expect(strip(second)).toEqual(strip(first));
    const costs = first.options.map((o) => o.summary.cost);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    expect(first.options.map((o) => o.rank)).toEqual([1, 2, 3, 4]);
    const integrated = option(first, 'integrated').summary.cost;
    for (const o of first.options) expect(integrated).toBeLessThanOrEqual(o.summary.cost);
    for (const o of first.options) {
      const sum = Object.values(o.cost_breakdown).reduce((s, v) => s + v, 0);
      expect(o.summary.cost).toBeCloseTo(sum, 6);
      expect(o.solver.objective).toBeCloseTo(o.summary.cost, 4);
    }
  });
});
