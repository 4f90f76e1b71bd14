// Invariants of the committed schedule files (schedules/*.json) and determinism of their generator.
// The checks below are written independently of the generator: their own great-circle distance,
// their own EASA Table 2, their own wall-clock conversion and rotation walk. Each check returns a
// list of problems, so the same code is also shown to catch a broken file (see "the checks can fail").
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Schedule } from '../../src/domain/schedule.ts';
import { loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import { DEFAULT_TURNAROUND, minTurnaroundMinutes } from '../../src/domain/turnaround.ts';
import { easaMaxFdpMinutes } from '../../src/domain/crew-rules.ts';
import { SPECS, generateSchedule, mulberry32, serializeSchedule } from '../../schedules/generate.ts';

type Name = 'small' | 'default' | 'large';
const NAMES: Name[] = ['small', 'default', 'large'];
const pathOf = (name: Name): string => fileURLToPath(new URL(`../../schedules/${name}.json`, import.meta.url));

// ---------------------------------------------------------------------------------------------
// Independent helpers

const toMin = (iso: string): number => Date.parse(iso) / 60_000;

function greatCircleKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = (d: number): number => (d * Math.PI) / 180;
  const a = Math.sin(r(lat2 - lat1) / 2) ** 2 + Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lon2 - lon1) / 2) ** 2;
  return 2 * 6371 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

const wallClockFormatters = new Map<string, Intl.DateTimeFormat>();
/** Local calendar date and minute of the day at `tz` for a UTC minute. */
function wallClock(utcMinutes: number, tz: string): { date: string; minute: number } {
  let f = wallClockFormatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    wallClockFormatters.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(utcMinutes * 60_000)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, minute: Number(p.hour) * 60 + Number(p.minute) };
}

/** EASA ORO.FTL.205(b)(1) Table 2, written out again: [start of FDP (local minute), max FDP for 1-2 sectors]. */
const TABLE_2: Array<[number, number]> = [
  [0, 11 * 60], [5 * 60, 12 * 60], [5 * 60 + 15, 12 * 60 + 15], [5 * 60 + 30, 12 * 60 + 30], [5 * 60 + 45, 12 * 60 + 45],
  [6 * 60, 13 * 60], [13 * 60 + 30, 12 * 60 + 45], [14 * 60, 12 * 60 + 30], [14 * 60 + 30, 12 * 60 + 15],
  [15 * 60, 12 * 60], [15 * 60 + 30, 11 * 60 + 45], [16 * 60, 11 * 60 + 30], [16 * 60 + 30, 11 * 60 + 15], [17 * 60, 11 * 60],
];
function tableMaxFdp(localMinute: number, sectors: number): number {
  let base = 0;
  for (const [from, value] of TABLE_2) if (localMinute >= from) base = value;
  return Math.max(9 * 60, base - 30 * Math.max(0, sectors - 2));
}

type F = ScheduleFile['flights'][number] & { id: string; depMin: number; arrMin: number };
interface Index {
  file: ScheduleFile;
  flights: Map<string, F>;
  rotations: Map<string, F[]>;
  aircraft: Map<string, ScheduleFile['aircraft'][number]>;
  airports: Map<string, ScheduleFile['airports'][number]>;
  fleets: Map<string, ScheduleFile['fleets'][number]>;
}

function index(file: ScheduleFile): Index {
  const flights = new Map<string, F>();
  const rotations = new Map<string, F[]>();
  for (const raw of file.flights) {
    const f: F = { ...raw, id: `${raw.flight_number}_${raw.dep}`, depMin: toMin(raw.dep), arrMin: toMin(raw.arr) };
    flights.set(f.id, f);
    rotations.set(f.tail, [...(rotations.get(f.tail) ?? []), f]);
  }
  for (const list of rotations.values()) list.sort((a, b) => a.depMin - b.depMin);
  return {
    file, flights, rotations,
    aircraft: new Map(file.aircraft.map((a) => [a.tail, a])),
    airports: new Map(file.airports.map((a) => [a.code, a])),
    fleets: new Map(file.fleets.map((f) => [f.code, f])),
  };
}

const dayChecks = (ix: Index, tail: string) => ix.file.maintenance.filter((m) => m.tail === tail && m.type !== 'overnight_check');

// ---------------------------------------------------------------------------------------------
// Checks: each returns the problems it finds (empty = fine)

function rotationErrors(ix: Index): string[] {
  const errors: string[] = [];
  for (const plane of ix.aircraft.values()) {
    const rot = ix.rotations.get(plane.tail) ?? [];
    if (rot.length === 0) { errors.push(`${plane.tail} flies nothing`); continue; }
    if (rot[0]!.origin !== plane.base) errors.push(`${plane.tail} starts at ${rot[0]!.origin}, not its base`);
    if (rot[rot.length - 1]!.dest !== plane.base) errors.push(`${plane.tail} ends at ${rot[rot.length - 1]!.dest}, not its base`);
    for (const f of rot) {
      if (!(f.arrMin > f.depMin)) errors.push(`${f.id} arrives before it departs`);
      if (ix.aircraft.get(f.tail)!.airline !== f.airline) errors.push(`${f.id} flown by another airline's tail`);
    }
    for (let i = 1; i < rot.length; i++) {
      const prev = rot[i - 1]!;
      const next = rot[i]!;
      if (prev.dest !== next.origin) errors.push(`${plane.tail} jumps from ${prev.dest} to ${next.origin}`);
      const ground = next.depMin - prev.arrMin;
      const min = minTurnaroundMinutes(DEFAULT_TURNAROUND, plane.fleet, prev.dest);
      if (ground < min) errors.push(`${plane.tail} turns ${prev.id} -> ${next.id} in ${ground} < ${min} min`);
      const checkBetween = dayChecks(ix, plane.tail).some((m) => toMin(m.start) >= prev.arrMin && toMin(m.end) <= next.depMin);
      if (!checkBetween && ground > min + 30) errors.push(`${plane.tail} idles ${ground - min} min beyond the minimum turn at ${prev.dest}`);
    }
  }
  return errors;
}

function timeWindowErrors(ix: Index): string[] {
  const errors: string[] = [];
  const date = ix.file.operating_date;
  for (const f of ix.flights.values()) {
    const dep = wallClock(f.depMin, ix.airports.get(f.origin)!.time_zone);
    const arr = wallClock(f.arrMin, ix.airports.get(f.dest)!.time_zone);
    if (dep.date !== date || dep.minute < 5 * 60 + 30) errors.push(`${f.id} departs ${dep.date} ${dep.minute} local`);
    if (arr.date !== date || arr.minute > 23 * 60 + 30) errors.push(`${f.id} arrives ${arr.date} ${arr.minute} local`);
  }
  for (const plane of ix.aircraft.values()) {
    const first = ix.rotations.get(plane.tail)?.[0];
    if (!first) continue;
    const local = wallClock(first.depMin, ix.airports.get(plane.base)!.time_zone).minute;
    if (local < 5 * 60 + 30 || local > 7 * 60) errors.push(`${plane.tail} first departs at local minute ${local}`);
  }
  return errors;
}

function blockTimeErrors(ix: Index): string[] {
  const errors: string[] = [];
  for (const f of ix.flights.values()) {
    const a = ix.airports.get(f.origin)!;
    const b = ix.airports.get(f.dest)!;
    const km = greatCircleKm(a.lat!, a.lon!, b.lat!, b.lon!);
    if (Math.abs(km - f.distance_km!) > 1) errors.push(`${f.id} distance ${f.distance_km} km, great circle ${km.toFixed(1)} km`);
    const fleet = ix.fleets.get(ix.aircraft.get(f.tail)!.fleet)!;
    const block = f.arrMin - f.depMin;
    const allowance = block - (km / fleet.cruise_speed_kmh!) * 60;
    if (block % 5 !== 0 || allowance < 25 || allowance > 36) errors.push(`${f.id} block ${block} min leaves ${allowance.toFixed(1)} min beyond cruise`);
  }
  return errors;
}

function crewErrors(ix: Index): string[] {
  const errors: string[] = [];
  const cockpit = new Set<string>();
  const cabin = new Set<string>();
  const ids = new Set<string>();
  for (const c of ix.file.crew) {
    if (ids.has(c.crew_id)) errors.push(`crew ${c.crew_id} twice`);
    ids.add(c.crew_id);
    if (!/^(NV|BZ)-(FC|CC)\d{4,}$/.test(c.crew_id) || !c.crew_id.startsWith(c.airline)) errors.push(`crew id ${c.crew_id}`);
    const fl = c.flights.map((id) => ix.flights.get(id));
    if (fl.some((f) => !f)) { errors.push(`${c.crew_id} names an unknown flight`); continue; }
    const flights = fl as F[];
    (c.role === 'cockpit' ? cockpit : cabin).add(c.crew_id);
    if (flights.length < 2 || flights.length > 6) errors.push(`${c.crew_id} has ${flights.length} sectors`);
    const tail = flights[0]!.tail;
    const rot = ix.rotations.get(tail)!;
    const start = rot.indexOf(flights[0]!);
    flights.forEach((f, k) => {
      if (f.tail !== tail || rot[start + k] !== f) errors.push(`${c.crew_id}: ${f.id} is not the next flight of ${tail}`);
      if (f.airline !== c.airline) errors.push(`${c.crew_id} works ${f.id} of another airline`);
    });
    const first = flights[0]!;
    const last = flights[flights.length - 1]!;
    if (first.origin !== c.base || last.dest !== c.base) errors.push(`${c.crew_id} does not start and end at base ${c.base}`);
    if (ix.aircraft.get(tail)!.base !== c.base) errors.push(`${c.crew_id} is based away from its aircraft`);
    const dutyStart = toMin(c.duty_start);
    const dutyEnd = toMin(c.duty_end);
    if (dutyStart !== first.depMin - 60) errors.push(`${c.crew_id} reports ${first.depMin - dutyStart} min before departure`);
    if (dutyEnd !== last.arrMin) errors.push(`${c.crew_id} duty ends off the last on-blocks`);
    const report = wallClock(dutyStart, ix.airports.get(c.base)!.time_zone).minute;
    const expected = tableMaxFdp(report, flights.length);
    if (c.max_duty_minutes !== expected) errors.push(`${c.crew_id} max FDP ${c.max_duty_minutes}, table says ${expected}`);
    if (dutyEnd - dutyStart > c.max_duty_minutes) errors.push(`${c.crew_id} FDP ${dutyEnd - dutyStart} above max ${c.max_duty_minutes}`);
  }
  const onFlight = new Map<string, { cockpit: number; cabin: number }>();
  for (const c of ix.file.crew) {
    for (const id of c.flights) {
      const n = onFlight.get(id) ?? { cockpit: 0, cabin: 0 };
      n[c.role] += 1;
      onFlight.set(id, n);
    }
  }
  for (const f of ix.flights.values()) {
    const n = onFlight.get(f.id);
    if (!n || n.cockpit < 1) errors.push(`${f.id} has no cockpit crew`);
    if (!n || n.cabin < 1) errors.push(`${f.id} has no cabin crew`);
  }
  return errors;
}

function maintenanceErrors(ix: Index): string[] {
  const errors: string[] = [];
  for (const m of ix.file.maintenance) {
    if (!ix.airports.get(m.station)?.maintenance_station) errors.push(`${m.tail} checked at ${m.station}, not a maintenance station`);
  }
  for (const plane of ix.aircraft.values()) {
    const rot = ix.rotations.get(plane.tail) ?? [];
    if (rot.length === 0) continue;
    const last = rot[rot.length - 1]!;
    const first = rot[0]!;
    if (ix.airports.get(last.dest)!.maintenance_station) {
      const night = ix.file.maintenance.filter((m) => m.tail === plane.tail && m.type === 'overnight_check');
      const ok = night.some((m) => m.station === last.dest
        && toMin(m.start) - last.arrMin >= 30 && toMin(m.start) - last.arrMin <= 60
        && first.depMin + 1440 - toMin(m.end) >= 45 && first.depMin + 1440 - toMin(m.end) <= 90);
      if (!ok) errors.push(`${plane.tail} ends at ${last.dest} without a fitting overnight check`);
    }
    for (const m of dayChecks(ix, plane.tail)) {
      const start = toMin(m.start);
      const end = toMin(m.end);
      if (!ix.airports.get(m.station)?.hub) errors.push(`${plane.tail} day check away from a hub`);
      if (end - start < 120 || end - start > 240) errors.push(`${plane.tail} day check lasts ${end - start} min`);
      if (rot.some((f) => f.depMin < end && f.arrMin > start)) errors.push(`${plane.tail} flies during its ${m.type}`);
      const inbound = rot.filter((f) => f.arrMin <= start).pop();
      if (!inbound || inbound.dest !== m.station) errors.push(`${plane.tail} is not at ${m.station} for its ${m.type}`);
      else if (start - inbound.arrMin < 20 || start - inbound.arrMin > 90) errors.push(`${plane.tail} lands ${start - inbound.arrMin} min before its check`);
      const next = rot.find((f) => f.depMin >= end);
      if (next && next.depMin - end < minTurnaroundMinutes(DEFAULT_TURNAROUND, plane.fleet, m.station)) errors.push(`${plane.tail} leaves too soon after its check`);
    }
  }
  return errors;
}

function passengerErrors(ix: Index): string[] {
  const errors: string[] = [];
  for (const f of ix.flights.values()) {
    const seats = ix.aircraft.get(f.tail)!.seats;
    const lf = f.booked_passengers / seats;
    if (f.booked_passengers > seats) errors.push(`${f.id} overbooked ${f.booked_passengers}/${seats}`);
    if (lf < 0.445 || lf > 1) errors.push(`${f.id} load factor ${lf.toFixed(2)}`);
  }
  return errors;
}

function itineraryErrors(ix: Index): string[] {
  const errors: string[] = [];
  const onFlight = new Map<string, number>();
  const ids = new Set<string>();
  const bases = new Set(ix.file.aircraft.map((a) => `${a.airline}:${a.base}`));
  for (const it of ix.file.itineraries) {
    if (ids.has(it.itinerary_id)) errors.push(`itinerary ${it.itinerary_id} twice`);
    ids.add(it.itinerary_id);
    const [a, b] = it.flights.map((id) => ix.flights.get(id));
    if (!a || !b) { errors.push(`${it.itinerary_id} names an unknown flight`); continue; }
    if (it.passengers < 1 || it.passengers > 20) errors.push(`${it.itinerary_id} has ${it.passengers} passengers`);
    const hub = ix.airports.get(a.dest)!;
    if (a.dest !== b.origin || !hub.hub || a.airline !== b.airline || !bases.has(`${a.airline}:${hub.code}`)) {
      errors.push(`${it.itinerary_id} does not connect at a hub of its airline`);
    }
    if (a.origin === b.dest) errors.push(`${it.itinerary_id} returns where it started`);
    const connection = b.depMin - a.arrMin;
    if (connection < hub.min_connection_minutes || connection > 180) errors.push(`${it.itinerary_id} connects in ${connection} min`);
    for (const id of it.flights) onFlight.set(id, (onFlight.get(id) ?? 0) + it.passengers);
  }
  for (const [id, pax] of onFlight) {
    const booked = ix.flights.get(id)?.booked_passengers ?? 0;
    if (pax > booked) errors.push(`${id} has ${pax} itinerary passengers, ${booked} booked`);
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------

const EXPECTED: Record<Name, { check: (byAirline: Record<string, { aircraft: number; flights: number }>) => void; airports: [number, number] }> = {
  small: {
    airports: [10, 45],
    check: (n) => {
      expect(n.NV!.aircraft).toBeGreaterThanOrEqual(8);
      expect(n.NV!.aircraft).toBeLessThanOrEqual(12);
      expect(n.BZ!.aircraft).toBeGreaterThanOrEqual(2);
      expect(n.BZ!.aircraft).toBeLessThanOrEqual(3);
      const flights = n.NV!.flights + n.BZ!.flights;
      expect(flights).toBeGreaterThanOrEqual(40);
      expect(flights).toBeLessThanOrEqual(60);
    },
  },
  default: {
    airports: [35, 45],
    check: (n) => {
      expect(n.NV!.aircraft).toBeGreaterThanOrEqual(80);
      expect(n.NV!.flights).toBeGreaterThanOrEqual(450);
      expect(n.BZ!.aircraft).toBeGreaterThanOrEqual(12);
      expect(n.BZ!.aircraft).toBeLessThanOrEqual(20);
      expect(n.BZ!.flights).toBeGreaterThanOrEqual(60);
      expect(n.BZ!.flights).toBeLessThanOrEqual(100);
    },
  },
  large: {
    airports: [35, 45],
    check: (n) => {
      expect(n.NV!.aircraft + n.BZ!.aircraft).toBeGreaterThanOrEqual(600);
      expect(n.NV!.flights + n.BZ!.flights).toBeGreaterThanOrEqual(3500);
    },
  },
};

describe.each(NAMES)('committed schedules/%s.json', (name) => {
  let text = '';
  let file: ScheduleFile;
  let ix: Index;
  let schedule: Schedule;

  beforeAll(() => {
    text = readFileSync(pathOf(name), 'utf8');
    file = JSON.parse(text) as ScheduleFile;
    ix = index(file);
    schedule = loadScheduleFile(pathOf(name)); // the service's own loader: zod schema + references + rotations
  });

  it('loads with the service loader and matches the raw JSON', () => {
    expect(schedule.flights).toHaveLength(file.flights.length);
    expect(schedule.aircraft.size).toBe(file.aircraft.length);
    expect(ix.flights.size).toBe(file.flights.length); // flight ids unique
    expect(file.operating_date).toBe('2026-11-21');
    for (const f of file.flights) {
      expect(f.flight_number.startsWith(f.airline)).toBe(true);
      expect(f.dep).toMatch(/^2026-11-2[12]T\d{2}:\d{2}:00Z$/);
    }
    const order = file.flights.map((f) => `${String(toMin(f.dep)).padStart(12, '0')} ${f.flight_number}`);
    expect(order).toEqual([...order].sort());
  });

  it('has the expected size, two airlines and at least two fleets of different size', () => {
    const n: Record<string, { aircraft: number; flights: number }> = {};
    for (const a of file.aircraft) (n[a.airline] ??= { aircraft: 0, flights: 0 }).aircraft++;
    for (const f of file.flights) n[f.airline]!.flights++;
    expect(file.airlines.map((a) => a.code).sort()).toEqual(['BZ', 'NV']);
    EXPECTED[name].check(n);
    const seats = new Set(file.fleets.map((f) => f.seats));
    const families = new Set(file.fleets.map((f) => f.family));
    expect(seats.size).toBeGreaterThanOrEqual(2);
    expect(families.size).toBeGreaterThanOrEqual(2);
    for (const f of file.fleets) {
      expect(f.cruise_speed_kmh).toBeGreaterThanOrEqual(750);
      expect(f.cruise_speed_kmh).toBeLessThanOrEqual(850);
    }
    for (const a of file.aircraft) {
      expect(a.seats).toBe(ix.fleets.get(a.fleet)!.seats);
      expect(a.tail).toMatch(a.airline === 'BZ' ? /^HB-J[A-Z]{2}$/ : /^(OE-N|D-A[A-Z])[A-Z]{2}$/);
      const base = ix.airports.get(a.base)!;
      expect(base.hub && base.maintenance_station).toBe(true);
    }
  });

  it('uses real-looking European airports with valid time zones and hub connection times', () => {
    const [lo, hi] = EXPECTED[name].airports;
    expect(file.airports.length).toBeGreaterThanOrEqual(lo);
    expect(file.airports.length).toBeLessThanOrEqual(hi);
    const codes = file.airports.map((a) => a.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toEqual(expect.arrayContaining(['LHR', 'CDG', 'VIE', 'FRA', 'ZRH']));
    const offsets = new Set<number>();
    for (const a of file.airports) {
      expect(a.code).toMatch(/^[A-Z]{3}$/);
      expect(a.lat).toBeGreaterThan(34);
      expect(a.lat).toBeLessThan(72);
      expect(a.lon).toBeGreaterThan(-25);
      expect(a.lon).toBeLessThan(45);
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: a.time_zone })).not.toThrow();
      expect(a.time_zone).toMatch(/^(Europe|Asia)\/[A-Za-z_]+$/);
      const noon = wallClock(toMin('2026-11-21T12:00:00Z'), a.time_zone).minute;
      offsets.add(noon - 720);
      if (a.hub) {
        expect(a.maintenance_station).toBe(true);
        expect(a.min_connection_minutes).toBeGreaterThanOrEqual(30);
        expect(a.min_connection_minutes).toBeLessThanOrEqual(45);
      } else {
        expect(a.min_connection_minutes).toBeGreaterThanOrEqual(45);
        expect(a.min_connection_minutes).toBeLessThanOrEqual(60);
      }
    }
    expect([ix.airports.get('VIE')!.min_connection_minutes, ix.airports.get('FRA')!.min_connection_minutes, ix.airports.get('ZRH')!.min_connection_minutes]).toEqual([30, 45, 40]);
    expect([...offsets].sort((a, b) => a - b)).toEqual([0, 60, 120, 180]);
  });

  it('keeps every rotation continuous, ordered, from and to base, with legal turns near the minimum', () => {
    expect(rotationErrors(ix)).toEqual([]);
    let near = 0;
    let long = 0;
    let turns = 0;
    for (const [tail, rot] of ix.rotations) {
      const fleet = ix.aircraft.get(tail)!.fleet;
      for (let i = 1; i < rot.length; i++) {
        const spare = rot[i]!.depMin - rot[i - 1]!.arrMin - minTurnaroundMinutes(DEFAULT_TURNAROUND, fleet, rot[i]!.origin);
        turns++;
        if (spare <= 10) near++;
        if (spare >= 20) long++;
      }
    }
    expect(near / turns).toBeGreaterThan(0.5);
    expect(long).toBeGreaterThan(0);
    const hubToHub = file.flights.filter((f) => f.airline === 'NV' && ix.airports.get(f.origin)!.hub && ix.airports.get(f.dest)!.hub);
    expect(hubToHub.some((f) => f.origin === 'VIE' && f.dest === 'FRA')).toBe(true);
  });

  it('plans the day in local time: departures from 05:30, arrivals by 23:30, first departures 05:30-07:00', () => {
    expect(timeWindowErrors(ix)).toEqual([]);
  });

  it('derives distance and block time from the great circle and the fleet speed', () => {
    expect(blockTimeErrors(ix)).toEqual([]);
  });

  it('offers several frequencies on busy routes', () => {
    const perRoute = new Map<string, number>();
    for (const f of file.flights) perRoute.set(`${f.origin}-${f.dest}`, (perRoute.get(`${f.origin}-${f.dest}`) ?? 0) + 1);
    const busy = [...perRoute.values()].filter((n) => n >= 3).length;
    expect(busy).toBeGreaterThanOrEqual(name === 'small' ? 1 : 50);
  });

  it('crews every flight with pairings of consecutive flights of one tail within the EASA maximum FDP', () => {
    expect(crewErrors(ix)).toEqual([]);
    const duties = file.crew.filter((c) => c.role === 'cockpit');
    const slack = duties.map((c) => c.max_duty_minutes - (toMin(c.duty_end) - toMin(c.duty_start)));
    expect(Math.min(...slack)).toBeGreaterThanOrEqual(0);
    expect(slack.filter((s) => s < 90).length / slack.length).toBeGreaterThanOrEqual(0.1);
    expect(slack.filter((s) => s > 180).length).toBeGreaterThan(0);
    // The engine's function agrees with the table on every duty in the file.
    for (const c of file.crew) {
      const report = wallClock(toMin(c.duty_start), ix.airports.get(c.base)!.time_zone).minute;
      expect(easaMaxFdpMinutes(report, c.flights.length)).toBe(c.max_duty_minutes);
    }
  });

  it('gives every aircraft ending at a maintenance station an overnight check, and ~10 % a day check on the ground', () => {
    expect(maintenanceErrors(ix)).toEqual([]);
    const withDayCheck = new Set(file.maintenance.filter((m) => m.type !== 'overnight_check').map((m) => m.tail));
    expect(withDayCheck.size).toBeGreaterThanOrEqual(1);
    if (name !== 'small') {
      expect(withDayCheck.size / file.aircraft.length).toBeGreaterThan(0.05);
      expect(withDayCheck.size / file.aircraft.length).toBeLessThan(0.2);
    }
    expect(file.maintenance.filter((m) => m.type === 'overnight_check')).toHaveLength(file.aircraft.length);
  });

  it('books realistic loads and never more passengers than seats', () => {
    expect(passengerErrors(ix)).toEqual([]);
    const lfs = file.flights.map((f) => f.booked_passengers / ix.aircraft.get(f.tail)!.seats);
    const mean = lfs.reduce((s, x) => s + x, 0) / lfs.length;
    expect(mean).toBeGreaterThan(0.75);
    expect(mean).toBeLessThan(0.85);
    expect(Math.min(...lfs)).toBeLessThan(0.65);
    expect(lfs.filter((x) => x >= 0.99).length).toBeGreaterThan(0);
  });

  it('connects passengers at the airlines\' hubs within MCT..180 min, never more than booked', () => {
    expect(itineraryErrors(ix)).toEqual([]);
    expect(file.itineraries.length).toBeGreaterThan(name === 'small' ? 5 : file.flights.length);
    if (name !== 'small') {
      const booked = file.flights.reduce((s, f) => s + f.booked_passengers, 0);
      const connecting = file.itineraries.reduce((s, it) => s + 2 * it.passengers, 0);
      expect(connecting / booked).toBeGreaterThan(0.15);
      expect(new Set(file.itineraries.map((it) => ix.flights.get(it.flights[0]!)!.dest))).toEqual(new Set(['VIE', 'FRA', 'ZRH', ...(name === 'large' ? ['MUC', 'BER'] : [])]));
    }
  });

  it('is written one record per line', () => {
    const lines = text.split('\n');
    expect(lines[lines.length - 1]).toBe('');
    let expected = 2;
    for (const value of Object.values(file)) expected += Array.isArray(value) && value.length > 0 ? value.length + 2 : 1;
    expect(lines.length - 1).toBe(expected);
    expect(lines.filter((l) => l.includes('"flight_number"'))).toHaveLength(file.flights.length);
  });

  it('is exactly what the generator produces from its spec (determinism)', () => {
    const spec = SPECS[name];
    expect(file.generator!.seed).toBe(spec.seed);
    expect(serializeSchedule(generateSchedule(spec)) === text).toBe(true);
  });
});

describe('the generator', () => {
  it('is a pure function of its spec and seed', () => {
    const a = serializeSchedule(generateSchedule(SPECS.small));
    const b = serializeSchedule(generateSchedule(SPECS.small));
    expect(a).toBe(b);
    const other = generateSchedule({ ...SPECS.small, seed: SPECS.small.seed + 1 });
    expect(serializeSchedule(other)).not.toBe(a);
    // Another seed still gives a valid day.
    const ix = index(other);
    expect([...rotationErrors(ix), ...crewErrors(ix), ...maintenanceErrors(ix), ...itineraryErrors(ix), ...timeWindowErrors(ix)]).toEqual([]);
  });

  it('uses a seeded PRNG (mulberry32)', () => {
    const r1 = mulberry32(123);
    const r2 = mulberry32(123);
    const xs = Array.from({ length: 1000 }, () => r1());
    expect(Array.from({ length: 1000 }, () => r2())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(xs).size).toBeGreaterThan(990);
    expect(mulberry32(124)()).not.toBe(xs[0]);
  });
});

describe('the checks can fail', () => {
  let ix: () => Index;
  beforeAll(() => {
    const text = readFileSync(pathOf('small'), 'utf8');
    ix = () => index(JSON.parse(text) as ScheduleFile);
  });

  it('rotation check catches a short turn and a jump', () => {
    const bad = ix();
    const [tail, rot] = [...bad.rotations].find(([, r]) => r.length >= 2)!;
    rot[1]!.depMin = rot[0]!.arrMin + 5;
    expect(rotationErrors(bad).some((e) => e.includes(tail) && e.includes('turns'))).toBe(true);
    rot[1]!.origin = rot[1]!.origin === 'LHR' ? 'CDG' : 'LHR';
    expect(rotationErrors(bad).some((e) => e.includes('jumps'))).toBe(true);
  });

  it('crew check catches a wrong maximum FDP, a gap in a pairing and an uncrewed flight', () => {
    const bad = ix();
    bad.file.crew[0]!.max_duty_minutes += 15;
    expect(crewErrors(bad).some((e) => e.includes('table says'))).toBe(true);
    const twoRoundTrips = bad.file.crew.find((c) => c.flights.length >= 4)!;
    twoRoundTrips.flights.splice(1, 1);
    expect(crewErrors(bad).some((e) => e.includes('is not the next flight'))).toBe(true);
    bad.file.crew = bad.file.crew.filter((c) => c.role !== 'cockpit' || !c.flights.includes(bad.file.crew[0]!.flights[0]!));
    expect(crewErrors(bad).some((e) => e.includes('no cockpit crew'))).toBe(true);
  });

  it('maintenance check catches a missing overnight check and flying during a day check', () => {
    const bad = ix();
    const day = bad.file.maintenance.find((m) => m.type !== 'overnight_check')!;
    const rot = bad.rotations.get(day.tail)!;
    const next = rot.find((f) => f.depMin >= toMin(day.end))!;
    next.depMin = toMin(day.end) - 30;
    expect(maintenanceErrors(bad).some((e) => e.includes('flies during'))).toBe(true);
    bad.file.maintenance = bad.file.maintenance.filter((m) => !(m.tail === rot[0]!.tail && m.type === 'overnight_check'));
    expect(maintenanceErrors(bad).some((e) => e.includes('overnight'))).toBe(true);
  });

  it('passenger and itinerary checks catch overbooking and impossible connections', () => {
    const bad = ix();
    const f = [...bad.flights.values()][0]!;
    f.booked_passengers = bad.aircraft.get(f.tail)!.seats + 1;
    expect(passengerErrors(bad).some((e) => e.includes('overbooked'))).toBe(true);
    const it0 = bad.file.itineraries[0]!;
    bad.flights.get(it0.flights[0]!)!.booked_passengers = 0;
    expect(itineraryErrors(bad).some((e) => e.includes('itinerary passengers'))).toBe(true);
    it0.flights = [it0.flights[1]!, it0.flights[0]!];
    expect(itineraryErrors(bad).some((e) => e.includes(it0.itinerary_id))).toBe(true);
  });

  it('block time check catches a wrong distance', () => {
    const bad = ix();
    [...bad.flights.values()][3]!.distance_km! += 50;
    expect(blockTimeErrors(bad)).toHaveLength(1);
  });
});

describe('easaMaxFdpMinutes (EASA ORO.FTL.205(b)(1) Table 2)', () => {
  it('gives the table values at the row boundaries', () => {
    const hm = (h: number, m: number): number => h * 60 + m;
    const cases: Array<[number, number, number]> = [
      [hm(6, 0), 1, hm(13, 0)], [hm(13, 29), 2, hm(13, 0)], [hm(13, 30), 2, hm(12, 45)], [hm(14, 0), 2, hm(12, 30)],
      [hm(14, 30), 2, hm(12, 15)], [hm(15, 0), 2, hm(12, 0)], [hm(15, 30), 2, hm(11, 45)], [hm(16, 0), 2, hm(11, 30)],
      [hm(16, 30), 2, hm(11, 15)], [hm(17, 0), 2, hm(11, 0)], [hm(23, 59), 1, hm(11, 0)], [hm(0, 0), 2, hm(11, 0)],
      [hm(4, 59), 2, hm(11, 0)], [hm(5, 0), 2, hm(12, 0)], [hm(5, 14), 2, hm(12, 0)], [hm(5, 15), 2, hm(12, 15)],
      [hm(5, 30), 2, hm(12, 30)], [hm(5, 45), 2, hm(12, 45)], [hm(5, 59), 2, hm(12, 45)],
      [hm(6, 0), 3, hm(12, 30)], [hm(6, 0), 4, hm(12, 0)], [hm(6, 0), 10, hm(9, 0)], [hm(6, 0), 12, hm(9, 0)],
      [hm(5, 45), 4, hm(11, 45)], [hm(17, 0), 4, hm(10, 0)], [hm(17, 0), 6, hm(9, 0)], [hm(17, 0), 7, hm(9, 0)],
    ];
    for (const [minute, sectors, expected] of cases) expect([minute, sectors, easaMaxFdpMinutes(minute, sectors)]).toEqual([minute, sectors, expected]);
  });

  it('agrees with the table for every minute of the day and 1-10 sectors', () => {
    for (let minute = 0; minute < 1440; minute++) {
      for (let sectors = 1; sectors <= 10; sectors++) {
        if (easaMaxFdpMinutes(minute, sectors) !== tableMaxFdp(minute, sectors)) {
          expect({ minute, sectors, got: easaMaxFdpMinutes(minute, sectors) }).toEqual({ minute, sectors, got: tableMaxFdp(minute, sectors) });
        }
      }
    }
  });

  it('rejects impossible input', () => {
    expect(() => easaMaxFdpMinutes(-1, 2)).toThrow(RangeError);
    expect(() => easaMaxFdpMinutes(1440, 2)).toThrow(RangeError);
    expect(() => easaMaxFdpMinutes(600.5, 2)).toThrow(RangeError);
    expect(() => easaMaxFdpMinutes(600, 0)).toThrow(RangeError);
  });
});
