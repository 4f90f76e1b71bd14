// Scenario: an instance imported with `npm run roadef -- import` is served over real HTTP like the
// bundled schedules (GET /flights/<name>, GET /snapshot) and keeps in its file what the core schedule
// format lacks. POST /simulate on it: test/http/simulate-imported.test.ts.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchedule } from '../../src/formats/schedule-json/read-schedule.ts';
import { loadScheduleCatalog } from '../../src/formats/schedule-json/schedule-catalog.ts';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import { RoadefTranslation } from '../../src/recovery/roadef-adapter.ts';
import { bundledCatalog, startTestServer, type TestServer } from '../support/server.ts';
import { importedA01, instance } from './support.ts';

interface Summary { id: string; tail: string; origin: string; dest: string; dep: string; arr: string }

let dir: string;
let server: TestServer;
let file: ScheduleFile;

beforeAll(async () => {
  ({ dir, file } = await importedA01());
  server = await startTestServer({ schedules: loadScheduleCatalog(dir, 'a01') });
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function getJson<T>(path: string, status = 200): Promise<T> {
  const response = await server.get(path);
  expect(response.status, path).toBe(status);
  return (await response.json()) as T;
}

describe('GET /flights/a01 of the imported A01', () => {
  it('lists the 608 legs under airline RX, ids <RX + flight number>_<UTC departure>, every time at +00:00, in departure order', async () => {
    const body = await getJson<{ airline: string; schedule_file: string; flight_count: number; flights: Summary[] }>('/flights/a01?airline=RX');
    expect(body.schedule_file).toBe('a01');
    expect(body.flight_count).toBe(608);
    expect(body.flights).toHaveLength(50);
    expect(body.flights[0]).toEqual({ id: 'RX1_2006-01-07T00:00:00Z', tail: 'TranspCom#1', origin: 'CDG', dest: 'ORY', dep: '2006-01-07T00:00:00+00:00', arr: '2006-01-07T00:30:00+00:00' });
    for (const f of body.flights) expect(f.dep.endsWith('+00:00') && f.arr.endsWith('+00:00')).toBe(true);
    const deps = body.flights.map((f) => Date.parse(f.dep));
    expect([...deps].sort((a, b) => a - b)).toEqual(deps);
  });

  it('the airline of the bundled schedules has no flights there: 404 with the contract sentence', async () => {
    const body = await getJson<{ detail: string }>('/flights/a01', 404);
    expect(body.detail).toBe("Airline 'NV' has no flights in schedule 'a01'");
  });
});

describe('GET /snapshot of the imported A01', () => {
  it('at the window start (12:00): the legs in the air or departing, aircraft positions, A319#15 in its maintenance at CDG', async () => {
    const body = await getJson<{
      flights: (Summary & { flight_number: string; fleet: string; seats: number; booked_passengers: number })[];
      aircraft: { tail: string; status: string; location: string; airborne_flight: string | null; next_maintenance: unknown }[];
      maintenance: { tail: string; type: string; station: string; start: string; end: string }[];
    }>('/snapshot?schedule_file=a01&airline=RX&from=2006-01-07T12:00:00Z&to=2006-01-07T13:00:00Z');
    const leg4344 = await getJson<{ flights: { id: string; booked_passengers: number; seats: number; fleet: string }[] }>('/snapshot?schedule_file=a01&airline=RX&from=2006-01-07T05:00:00Z&to=2006-01-07T06:00:00Z');
    const f4344 = leg4344.flights.find((f) => f.id === 'RX4344_2006-01-07T05:50:00Z')!;
    expect(f4344).toMatchObject({ fleet: 'CRJ100', seats: 50 });
    expect(f4344.booked_passengers).toBeGreaterThan(0);
    expect(body.flights.every((f) => Date.parse(f.dep) < Date.parse('2006-01-07T13:00:00Z') && Date.parse(f.arr) > Date.parse('2006-01-07T12:00:00Z'))).toBe(true);
    expect(body.flights.length).toBeGreaterThan(20);
    const a319 = body.aircraft.find((a) => a.tail === 'A319#15')!;
    expect(a319).toMatchObject({ status: 'in_maintenance', location: 'CDG', airborne_flight: null });
    expect(body.maintenance).toContainEqual({ tail: 'A319#15', type: 'a_check', station: 'CDG', start: '2006-01-07T10:00:00+00:00', end: '2006-01-07T15:00:00+00:00' });
    const shuttle = body.aircraft.find((a) => a.tail === 'TranspCom#1')!;
    expect(['CDG', 'ORY', 'airborne']).toContain(shuttle.location);
  });
});

describe('the imported file keeps what the core format lacks', () => {
  it('seat classes, per-aircraft ground times, range and hourly cost', () => {
    expect(file.aircraft.find((a) => a.tail === 'A319#16')).toEqual({
      tail: 'A319#16', airline: 'RX', fleet: 'A319', seats: 79, base: 'MRS',
      cabin_seats: { first: 0, business: 28, economy: 51 }, min_turnaround_minutes: 35, min_transit_minutes: 35, max_leg_minutes: 510, cost_per_block_hour: 1800,
    });
    expect(file.aircraft.find((a) => a.tail === 'TranspCom#1')!.cabin_seats).toEqual({ first: null, business: null, economy: null });
  });

  it('every aircraft\'s seats are its cabins\' total (an unlimited cabin: 9999), the seats re-accommodation counts; a file where they disagree is refused at load', () => {
    for (const a of file.aircraft) {
      const cabins = Object.values(a.cabin_seats!);
      expect(a.seats, a.tail).toBe(cabins.includes(null) ? 9999 : cabins.reduce((sum: number, n) => sum + n!, 0));
    }
    const edited: ScheduleFile = { ...file, aircraft: file.aircraft.map((a) => (a.tail === 'A319#16' ? { ...a, seats: 80 } : a)) };
    expect(() => buildSchedule(edited)).toThrow('aircraft A319#16 has 80 seats but its cabin_seats add up to 79');
  });

  it('itineraries of any length with direction, fare and cabins; linked flights; haul classes', () => {
    const four = file.itineraries.find((it) => it.itinerary_id === '7')!;
    expect(four).toEqual({
      itinerary_id: '7', passengers: 5, direction: 'outbound', fare: 500, cabins: ['economy', 'economy', 'economy', 'economy'],
      flights: ['RX4344_2006-01-07T05:50:00Z', 'RX4225_2006-01-07T08:10:00Z', 'RX4238_2006-01-07T16:35:00Z', 'RX4347_2006-01-07T18:20:00Z'],
    });
    expect(file.itineraries).toHaveLength(1943);
    expect(file.flights.find((f) => f.flight_number === 'RX2598')).toMatchObject({ linked_to: 'RX2597', haul: 'domestic' });
  });

  it('maintenance budgets, airport hourly capacities, the window, the 63 delays, end positions, the route table and the costs', () => {
    expect(file.maintenance.find((m) => m.tail === 'A319#16')).toEqual({ tail: 'A319#16', type: 'a_check', station: 'CDG', start: '2006-01-07T12:00:00Z', end: '2006-01-07T18:00:00Z', max_flying_minutes_before: 600 });
    expect(file.airports.find((a) => a.code === 'BIQ')!.hourly_capacity).toEqual([
      { from: '00:00', to: '05:00', max_departures_per_hour: 1, max_arrivals_per_hour: 1 },
      { from: '05:00', to: '07:00', max_departures_per_hour: 2, max_arrivals_per_hour: 1 },
      { from: '07:00', to: '20:00', max_departures_per_hour: 1, max_arrivals_per_hour: 1 },
      { from: '20:00', to: '22:00', max_departures_per_hour: 1, max_arrivals_per_hour: 2 },
      { from: '22:00', to: '24:00', max_departures_per_hour: 1, max_arrivals_per_hour: 1 },
    ]);
    expect(file.recovery_window).toEqual({ start: '2006-01-07T12:00:00Z', end: '2006-01-08T04:00:00Z' });
    expect(file.disruptions).toHaveLength(63);
    expect(file.disruptions![0]).toEqual({ type: 'flight_delay', flight: 'RX145_2006-01-07T08:05:00Z', delay_minutes: 9 });
    expect(file.required_positions!.reduce((sum, p) => sum + p.count, 0)).toBe(81);
    expect(file.airport_pairs).toHaveLength(1190);
    expect(file.cost_parameters!.inbound_cancellation.economy.domestic).toBe(750);
    expect(file.cost_parameters!.downgrading.business_to_economy.continental).toBe(400);
    expect(file.source).toEqual({ format: 'roadef-2009', instance: 'A01' });
  });

  it('the bundled schedules still load beside it (they use none of the optional parts)', () => {
    for (const name of bundledCatalog().names()) {
      const schedule = bundledCatalog().resolve(name)!.schedule;
      expect(schedule.flights.length, name).toBeGreaterThan(0);
      expect([...schedule.airports.values()].every((a) => a.lat !== null && a.lon !== null), name).toBe(true);
    }
  });
});

describe('the network engine\'s problem of A01 (roadef-adapter.ts) and the imported schedule', () => {
  it('name every flight, aircraft and booking alike: the same flight ids, tails, airports and times, the same bookings of the same flights and cabins', () => {
    const { problem } = new RoadefTranslation(instance('A01'));
    const schedule = loadScheduleCatalog(dir, 'a01').resolve('a01')!.schedule;
    expect(problem.flights).toHaveLength(schedule.flights.length);
    for (const f of problem.flights) {
      const s = schedule.flightsById.get(f.id)!;
      expect({ id: s.id, tail: s.tail, origin: s.origin, dest: s.dest, depMinutes: s.depMinutes, arrMinutes: s.arrMinutes }, f.id)
        .toEqual({ id: f.id, tail: f.tail, origin: f.origin, dest: f.dest, depMinutes: f.depMinutes, arrMinutes: f.arrMinutes });
    }
    expect([...problem.aircraft.keys()].sort()).toEqual([...schedule.aircraft.keys()].sort());
    const cabin = { first: 'F', business: 'B', economy: 'E' } as const;
    const booked = new Map(file.itineraries.map((it) => [it.itinerary_id, it.flights.map((flightId, i) => ({ flightId, cabin: cabin[it.cabins![i]!] }))]));
    expect(problem.bookings).toHaveLength(file.itineraries.length);
    for (const b of problem.bookings) expect(b.flights, b.id).toEqual(booked.get(b.id));
    // The disruptions are the file's, in the domain's shapes.
    expect(problem.disruptions).toHaveLength(file.disruptions!.length);
  });
});
