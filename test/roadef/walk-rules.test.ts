// The ROADEF 2009 rules the network engine's walk asks (src/recovery/model/roadef-rules.ts, docs/model.md
// 4.2), one test per rule with hand-checked figures, and a walk of a four-leg rotation whose times
// follow from them alone: transit before a leg that continues the one just flown, turn-round
// otherwise, a leg beyond the range cancelled.
import { describe, expect, it } from 'vitest';
import { ROADEF_WALK_RULES, groundMinutes } from '../../src/recovery/model/roadef-rules.ts';
import { solveReferencePlan } from '../../src/recovery/network/operating-plan.ts';
import type { NetworkAircraft, NetworkFlight, NetworkProblem } from '../../src/recovery/network/problem.ts';

const DAY = 20_000;
const T = DAY * 1440;
const aircraft: NetworkAircraft = {
  tail: 'X', fleet: 'A320', family: 'A32', seats: { F: 0, B: 0, E: 150 }, configuration: '0/0/150', rangeMinutes: 120,
  costPerBlockHour: 1000, turnaroundMinutes: 45, transitMinutes: 20, base: 'AAA', check: null, shuttle: false,
};
const flight = (id: string, continues: string | null, origin: string, dest: string, dep: number, arr: number): NetworkFlight => ({
  id, flightNumber: `XX${id.slice(1)}`, continues, day: DAY, tail: 'X', origin, dest, depMinutes: T + dep, arrMinutes: T + arr,
});

describe('ROADEF 2009 walk rules', () => {
  it('unit: ground time is transit before a leg that continues the one just flown (R26), turn-round otherwise and before a new flight (R25)', () => {
    const next = flight('F2', 'XX1', 'BBB', 'AAA', 580, 640);
    expect(groundMinutes(aircraft, 'XX1', next)).toBe(20);
    expect(groundMinutes(aircraft, 'XX7', next)).toBe(45);
    expect(groundMinutes(aircraft, null, next)).toBe(45);
    expect(groundMinutes(aircraft, 'XX1', null)).toBe(45);
    expect(ROADEF_WALK_RULES.earliestDeparture(aircraft, T + 570, 'XX1', next)).toBe(T + 590);
    expect(ROADEF_WALK_RULES.earliestDeparture(aircraft, null, null, next)).toBe(Number.NEGATIVE_INFINITY);
  });

  it('unit: a leg longer than the range is not flown (R23)', () => {
    expect(ROADEF_WALK_RULES.withinRange(aircraft, 120)).toBe(true);
    expect(ROADEF_WALK_RULES.withinRange(aircraft, 121)).toBe(false);
  });

  it('unit: a departure pushed past midnight that reads, without its +N, before the end of a period it follows is not flown (spec 4.11)', () => {
    // An unavailability ends at 01:40 of the next day; a departure at 02:00 that day is written as 02:00 of the operating date.
    const period = { startMinutes: T + 1380, endMinutes: T + 1440 + 100 };
    expect(ROADEF_WALK_RULES.readsAfterPeriods(T + 1440 + 120, DAY, [period], null)).toBe(false);
    expect(ROADEF_WALK_RULES.readsAfterPeriods(T + 1440 + 120, DAY, [], period)).toBe(false);
    expect(ROADEF_WALK_RULES.readsAfterPeriods(T + 1440 + 120, DAY, [], null)).toBe(true);
    // On its own date the departure is read as written.
    expect(ROADEF_WALK_RULES.readsAfterPeriods(T + 1440 + 120, DAY + 1, [period], null)).toBe(true);
  });

  it('scenario: a delayed leg, then a leg continuing it, a leg after a turn-round, and one beyond the range', () => {
    const flights = [
      flight('F1', null, 'AAA', 'BBB', 480, 540),
      flight('F2', 'XX1', 'BBB', 'AAA', 580, 640),
      flight('F3', null, 'AAA', 'BBB', 660, 720),
      flight('F4', null, 'BBB', 'AAA', 800, 950),
    ];
    const problem: NetworkProblem = {
      name: 'walk-rules', window: { startMinutes: T, endMinutes: T + 2 * 1440 }, aircraft: new Map([['X', aircraft]]),
      flights, flightsById: new Map(flights.map((f) => [f.id, f])), airportCapacity: new Map(), airportPairs: new Map(),
      bookings: [], requiredPositions: [], disruptions: [{ type: 'flight_delay', flightId: 'F1', minDelayMinutes: 30 }],
    };
    const legs = solveReferencePlan(problem, {}, ROADEF_WALK_RULES).legs.map((l) => [l.flightId, l.tail, l.depMinutes - T, l.arrMinutes - T]);
    expect(legs).toEqual([
      ['F1', 'X', 510, 570], // its disruption's 30 minutes
      ['F2', 'X', 590, 650], // 20 minutes' transit after F1, which it continues
      ['F3', 'X', 695, 755], // 45 minutes' turn-round after F2
      ['F4', null, 800, 950], // 150 minutes, beyond the range of 120: cancelled
    ]);
  });
});
