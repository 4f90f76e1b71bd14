// Standing airport capacities (docs/model.md 1.1, 1.3 constraint 8): a schedule's airports[].hourly_capacity
// become capacity rows of the scope, read on the airport's clock, ground shuttles not counted, only
// where a plan of the scope could break them; every option keeps them (the independent checker).
import { describe, expect, it } from 'vitest';
import { buildSchedule } from '../../src/formats/schedule-json/read-schedule.ts';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import { selectScope } from '../../src/recovery/model/scope.ts';
import { checkOption } from '../oracle/checker.ts';
import { oracleConfig } from '../oracle/config.ts';
import { at, config, id, request, simulateAsResponse } from './fixtures.ts';

// VIE is at UTC+1 on 2026-11-21: its 09:00-10:00 window (one departure an hour) is 08:00-09:00 UTC.
// B's NV2 leaves VIE at 08:30 UTC and the coach S's NV5 at 08:40 (a ground shuttle: not counted).
const file: ScheduleFile = {
  format_version: 1, name: 'fixture', description: 'standing capacity fixture', operating_date: '2026-11-21',
  airlines: [{ code: 'NV', name: 'Northvale Airways' }],
  airports: [
    {
      code: 'VIE', name: 'Vienna', time_zone: 'Europe/Vienna', lat: 48.11, lon: 16.57, hub: true, maintenance_station: true, min_connection_minutes: 30,
      hourly_capacity: [
        { from: '00:00', to: '09:00', max_departures_per_hour: 5, max_arrivals_per_hour: 5 },
        { from: '09:00', to: '10:00', max_departures_per_hour: 1, max_arrivals_per_hour: 5 },
        { from: '10:00', to: '24:00', max_departures_per_hour: 5, max_arrivals_per_hour: 5 },
      ],
    },
    { code: 'PRG', name: 'Prague', time_zone: 'Europe/Prague', lat: 50.1, lon: 14.26, hub: false, maintenance_station: false, min_connection_minutes: 45 },
    { code: 'BUD', name: 'Budapest', time_zone: 'Europe/Budapest', lat: 47.44, lon: 19.26, hub: false, maintenance_station: false, min_connection_minutes: 45 },
  ],
  fleets: [{ code: 'A320', family: 'A320', seats: 180 }, { code: 'BUS', family: 'COACH', seats: 9999 }],
  aircraft: [
    { tail: 'A', airline: 'NV', fleet: 'A320', seats: 180, base: 'VIE' },
    { tail: 'B', airline: 'NV', fleet: 'A320', seats: 180, base: 'VIE' },
    { tail: 'S', airline: 'NV', fleet: 'BUS', seats: 9999, base: 'VIE', cabin_seats: { first: 0, business: 0, economy: null } },
  ],
  flights: [
    { no: 'NV1', tail: 'A', from: 'VIE', to: 'PRG', dep: '07:30', arr: '08:30' },
    { no: 'NV3', tail: 'A', from: 'PRG', to: 'VIE', dep: '09:30', arr: '10:30' },
    { no: 'NV2', tail: 'B', from: 'VIE', to: 'BUD', dep: '08:30', arr: '09:30' },
    { no: 'NV4', tail: 'B', from: 'BUD', to: 'VIE', dep: '10:30', arr: '11:30' },
    { no: 'NV5', tail: 'S', from: 'VIE', to: 'PRG', dep: '08:40', arr: '09:40' },
  ].map((f) => ({
    flight_number: f.no, airline: 'NV', tail: f.tail, origin: f.from, dest: f.to, dep: at(f.dep), arr: at(f.arr), distance_km: 250, booked_passengers: 100,
  })),
  maintenance: [],
  crew: [],
  itineraries: [],
};
const schedule = buildSchedule(file);
const delay = (minutes: number) => [{ type: 'flight_delay' as const, flightId: id('NV1', '07:30'), minDelayMinutes: minutes }];
const vieDepartures = (capacities: ReturnType<typeof selectScope>['capacities']) => capacities.filter((c) => c.airport === 'VIE' && c.kind === 'departures');

describe('standing airport capacities in the scope (docs/model.md 1.3, constraint 8)', () => {
  it('unit: the file\'s windows are read on the airport\'s clock; the coach S is a ground shuttle', () => {
    expect(schedule.airports.get('VIE')!.hourlyCapacity[1]).toEqual({ fromMinuteOfDay: 540, toMinuteOfDay: 600, maxDeparturesPerHour: 1, maxArrivalsPerHour: 5 });
    expect([...schedule.aircraft.values()].map((a) => [a.tail, a.groundShuttle])).toEqual([['A', false], ['B', false], ['S', true]]);
  });

  it('unit: a delay that may move NV1 into VIE\'s 09:00 local hour gets that hour\'s row (08:00 UTC, max 1), B\'s NV2 in scope; no row where the limit is 5', () => {
    const scope = selectScope(schedule, 'NV', delay(40), config());
    expect(scope.aircraft.map((a) => a.aircraft.tail)).toContain('B');
    expect(vieDepartures(scope.capacities)).toEqual([{ airport: 'VIE', kind: 'departures', hourStartMinutes: Date.parse(at('08:00')) / 60_000, max: 1, fixed: 0 }]);
    expect(scope.capacities.filter((c) => c.kind === 'arrivals')).toEqual([]);
  });

  it('unit: with B outside the scope its NV2 is fixed in the row, the shuttle\'s NV5 is not', () => {
    const scope = selectScope(schedule, 'NV', delay(40), config({ solver: { max_candidate_aircraft: 0 } }));
    expect(scope.aircraft.map((a) => a.aircraft.tail)).toEqual(['A']);
    expect(vieDepartures(scope.capacities)).toEqual([{ airport: 'VIE', kind: 'departures', hourStartMinutes: Date.parse(at('08:00')) / 60_000, max: 1, fixed: 1 }]);
  });

  it('unit: a schedule without standing capacities gets no row (the bundled schedules: their answers unchanged)', () => {
    const plain = buildSchedule({ ...file, airports: file.airports.map(({ hourly_capacity: _, ...a }) => a) });
    expect(selectScope(plain, 'NV', delay(40), config()).capacities).toEqual([]);
  });

  it('scenario: NV1 late 40 min (into the full hour); every option keeps one VIE departure in 08:00-09:00 UTC (the independent checker), delay propagation (no holds) has none', async () => {
    const result = await simulateAsResponse(schedule, request(id('NV1', '07:30'), 40));
    expect(result.options.length).toBeGreaterThan(0);
    const disruptions = [{ type: 'flight_delay' as const, flight: id('NV1', '07:30'), min_delay_minutes: 40 }];
    for (const option of result.options) {
      expect(checkOption({ schedule: file, disruptions, airline: 'NV', config: oracleConfig(), option }), option.strategy).toEqual([]);
    }
    // Propagation has no holds (docs/model.md 1.8): NV1 at 08:10 UTC beside NV2 breaks the hour, so it has no plan.
    expect(result.unsolved_strategies).toEqual([expect.objectContaining({ strategy: 'delay_propagation', status: 'infeasible' })]);
    const integrated = result.options.find((o) => o.strategy === 'integrated')!;
    const leavesVieAt = (flight: string, planned: string) => {
      const moved = integrated.action_set.delays.find((d) => d.flight === flight);
      return Date.parse(moved ? moved.new_dep : at(planned)) / 60_000;
    };
    const hour = [Date.parse(at('08:00')) / 60_000, Date.parse(at('09:00')) / 60_000];
    const inHour = [leavesVieAt(id('NV1', '07:30'), '07:30'), leavesVieAt(id('NV2', '08:30'), '08:30')].filter((t) => t >= hour[0]! && t < hour[1]!);
    expect(inHour.length).toBeLessThanOrEqual(1);
  });
});
