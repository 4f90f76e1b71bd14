// A synthetic ROADEF 2009 instance at the size of the challenge's largest set (X: 618 aircraft, 2,178
// flight numbers flown on three days, 28,308 itineraries), written in the challenge's format, to show
// that the reader, the scorer and the reference plan handle that scale. Deterministic: the same size
// and seed give the same bytes (mulberry32, no clock).
//
// The airline is invented: four hubs, spokes around them in four regions, a few far airports served
// long-haul (class I, First and Business cabins). Aircraft fly out-and-back rotations from their hub,
// the same every day; some return legs are linked to their outbound (PREV); about one aircraft in
// twelve has a night maintenance at its hub after the first day with a flying budget. Two ground
// shuttles (TranspCom) link the first hub with a second airport of its city; a spare of every model
// and a spare shuttle wait at the first hub without planned legs. Disruptions:
// delays and cancellations before the window start, a few aircraft out of service on day 2, one hub's
// capacity halved for two hours on day 1.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatClock, formatDate, MINUTES_PER_DAY } from '../../src/formats/roadef-2009/text.ts';
import { mulberry32 } from '../../schedules/generate.ts';

export interface SyntheticSize {
  aircraft: number;
  flightNumbers: number;
  days: number;
  itineraries: number;
  seed: number;
}

/** The size of the challenge's set X (spec 7.2). */
export const CHALLENGE_X_SIZE: SyntheticSize = { aircraft: 618, flightNumbers: 2178, days: 3, itineraries: 28_308, seed: 2009 };

interface Model { model: string; family: string; seats: [number, number, number]; range: number; cost: number; turnRound: number; transit: number; longHaul: boolean }

const MODELS: Model[] = [
  { model: 'A320', family: 'Airbus', seats: [0, 0, 174], range: 300, cost: 2000, turnRound: 40, transit: 30, longHaul: false },
  { model: 'A321', family: 'Airbus', seats: [0, 24, 160], range: 300, cost: 2300, turnRound: 45, transit: 35, longHaul: false },
  { model: 'B737', family: 'Boeing', seats: [0, 12, 150], range: 300, cost: 2100, turnRound: 40, transit: 30, longHaul: false },
  { model: 'E190', family: 'Embraer', seats: [0, 0, 100], range: 200, cost: 1500, turnRound: 30, transit: 25, longHaul: false },
  { model: 'CRJ700', family: 'CRJ', seats: [0, 0, 70], range: 180, cost: 1300, turnRound: 25, transit: 20, longHaul: false },
];
const LONG_HAUL: Model = { model: 'B777', family: 'Boeing', seats: [14, 48, 240], range: 720, cost: 9500, turnRound: 90, transit: 60, longHaul: true };
const SHUTTLE: Model = { model: 'TranspCom', family: 'TranspCom', seats: [-1, -1, -1], range: 120, cost: 0, turnRound: 10, transit: 10, longHaul: false };
/** Spare aircraft (one per model) and shuttles (two running, one spare). */
const SPARES = MODELS.length + 1;
const SHUTTLES = 3;
/** A shuttle leg takes 30 minutes; each shuttle runs back and forth from 06:00 to 22:30. */
const SHUTTLE_LEGS_PER_DAY = 24;

interface Airport { code: string; x: number; y: number; region: number; hub: boolean; far: boolean; shuttleOnly?: boolean }
interface Flight { number: number; origin: string; dest: string; dep: number; arr: number; previous: number }
interface Plane { id: string; model: Model; base: string; flights: Flight[]; maintenance: string }

const code = (i: number) => `Z${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`;
const clock = (minuteOfDay: number) => formatClock(minuteOfDay, 0);

/** The eleven files of a synthetic instance, by file name. Throws when the size cannot be laid out. */
export function generateSyntheticInstance(size: SyntheticSize = CHALLENGE_X_SIZE): Record<string, string> {
  const random = mulberry32(size.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const int = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

  // Airports: 4 hubs, 12 spokes around each, 8 far airports.
  const airports: Airport[] = [];
  const centres = [[0, 0], [600, 0], [0, 600], [600, 600]] as const;
  centres.forEach(([x, y], region) => airports.push({ code: code(airports.length), x, y, region, hub: true, far: false }));
  for (let region = 0; region < 4; region++) {
    for (let k = 0; k < 12; k++) {
      const angle = random() * 2 * Math.PI;
      const distance = 150 + random() * 650;
      airports.push({ code: code(airports.length), x: centres[region]![0] + distance * Math.cos(angle), y: centres[region]![1] + distance * Math.sin(angle), region, hub: false, far: false });
    }
  }
  // Far airports 5.5 to 7 hours from every hub: a long-haul round trip fits in a day.
  for (let k = 0; k < 8; k++) airports.push({ code: code(airports.length), x: 2800 + 100 * k, y: -1500, region: 9, hub: false, far: true });
  const cityAirport: Airport = { code: code(airports.length), x: 20, y: 0, region: 0, hub: false, far: false, shuttleOnly: true };
  airports.push(cityAirport);
  const byCode = new Map(airports.map((a) => [a.code, a]));
  const hubs = airports.filter((a) => a.hub);
  const block = (a: Airport, b: Airport) => 30 + 5 * Math.ceil(Math.hypot(a.x - b.x, a.y - b.y) / 50);
  const haul = (a: Airport, b: Airport) => (a.far || b.far ? 'I' : a.region === b.region ? 'D' : 'C');

  // Aircraft mix: long-haul aircraft fly one round trip a day, the others one or two.
  const flying = size.aircraft - SPARES - SHUTTLES;
  const longHaul = Math.max(1, Math.round(flying * 0.065));
  const shortHaul = flying - longHaul;
  const twoTrips = (size.flightNumbers - 2 * SHUTTLE_LEGS_PER_DAY - 2 * longHaul - 2 * shortHaul) / 2;
  if (!Number.isInteger(twoTrips) || twoTrips < 0 || twoTrips > shortHaul) throw new Error(`cannot lay out ${size.flightNumbers} flight numbers on ${size.aircraft} aircraft`);

  let nextNumber = 1000;
  const planes: Plane[] = [];
  const dayStart = 6 * 60;
  const dayEnd = 23 * 60;
  for (let i = 0; i < flying; i++) {
    const model = i < longHaul ? LONG_HAUL : MODELS[i % MODELS.length]!;
    const base = hubs[i % hubs.length]!;
    const trips = model.longHaul ? 1 : i - longHaul < twoTrips ? 2 : 1;
    const destinations = airports.filter((a) => a !== base && !a.shuttleOnly && (model.longHaul ? a.far : !a.far && block(base, a) <= model.range) && (model.longHaul || a.hub || a.region === base.region || random() < 0.1));
    const stops = Array.from({ length: trips }, () => pick(destinations));
    const gaps = Array.from({ length: trips * 2 - 1 }, () => model.turnRound + 5 * int(0, 8));
    const total = stops.reduce((sum, s) => sum + 2 * block(base, s), 0) + gaps.reduce((a, b) => a + b, 0);
    if (total > dayEnd - dayStart) throw new Error(`aircraft ${i + 1}: a day of ${total} minutes does not fit between 06:00 and 23:00`);
    let t = dayStart + 5 * Math.floor(random() * ((dayEnd - dayStart - total) / 5));
    const flights: Flight[] = [];
    stops.forEach((stop, k) => {
      const out: Flight = { number: nextNumber++, origin: base.code, dest: stop.code, dep: t, arr: t + block(base, stop), previous: 0 };
      t = out.arr + gaps[2 * k]!;
      const back: Flight = { number: nextNumber++, origin: stop.code, dest: base.code, dep: t, arr: t + block(stop, base), previous: random() < 0.1 ? out.number : 0 };
      t = back.arr + (gaps[2 * k + 1] ?? 0);
      flights.push(out, back);
    });
    planes.push({ id: `${model.model}#${i + 1}`, model, base: base.code, flights, maintenance: 'NULL' });
  }
  const hub0 = hubs[0]!;
  [...MODELS, LONG_HAUL].forEach((model) => planes.push({ id: `${model.model}#${planes.length + 1}`, model, base: hub0.code, flights: [], maintenance: 'NULL' }));
  let shuttleNumber = 1;
  for (let k = 0; k < SHUTTLES; k++) {
    const [from, to] = k === 0 ? [hub0, cityAirport] : [cityAirport, hub0];
    const flights: Flight[] = [];
    for (let j = 0; k < 2 && j < SHUTTLE_LEGS_PER_DAY; j++) {
      const dep = dayStart + 40 * j;
      const [o, d] = j % 2 === 0 ? [from, to] : [to, from];
      flights.push({ number: shuttleNumber++, origin: o.code, dest: d.code, dep, arr: dep + 30, previous: 0 });
    }
    planes.push({ id: `TranspCom#${k + 1}`, model: SHUTTLE, base: k === 0 || k === 2 ? hub0.code : cityAirport.code, flights, maintenance: 'NULL' });
  }

  const day0 = Date.UTC(2009, 2, 1) / 86_400_000;
  const S = day0 * MINUTES_PER_DAY + 10 * 60;
  const E = (day0 + size.days) * MINUTES_PER_DAY + 2 * 60;
  const legs: { flight: Flight; day: number; plane: Plane; dep: number; arr: number }[] = [];
  for (const plane of planes) {
    for (let d = 0; d < size.days; d++) {
      for (const f of plane.flights) legs.push({ flight: f, day: day0 + d, plane, dep: (day0 + d) * MINUTES_PER_DAY + f.dep, arr: (day0 + d) * MINUTES_PER_DAY + f.arr });
    }
  }
  // Night maintenance at the hub after day 1, within a flying budget of day 1 plus an hour and a half.
  planes.forEach((plane, i) => {
    if (plane.model.longHaul || plane.flights.length === 0 || plane.model === SHUTTLE || i % 12 !== 5) return;
    const flown = plane.flights.reduce((sum, f) => sum + f.arr - f.dep, 0);
    plane.maintenance = [plane.base, formatDate(day0), '23:30', formatDate(day0 + 1), '05:30', flown + 90].join('-');
  });

  // Disruptions of the legs before the window start: delays (propagated along the aircraft's legs that
  // have also departed, as the data of the challenge are) and a few cancelled round trips.
  const altFlights: string[] = [];
  const actual = new Map<(typeof legs)[number], number>();
  for (const plane of planes) {
    if (plane.model.longHaul || plane.model === SHUTTLE) continue;
    const early = legs.filter((l) => l.plane === plane && l.dep < S);
    if (early.length === 0 || random() >= 0.2) continue;
    if (random() < 0.05 && early.length >= 2 && early[1]!.flight.origin === early[0]!.flight.dest) {
      for (const l of early.slice(0, 2)) altFlights.push(`${l.flight.number} ${formatDate(l.day)} -1`);
      continue;
    }
    let delay = int(1, 36) * 5;
    let readyAt = -Infinity;
    for (const l of early) {
      const needed = Math.max(0, readyAt + plane.model.turnRound - l.dep);
      const d = Math.max(l === early[0] ? delay : 0, needed);
      if (d > 0) { altFlights.push(`${l.flight.number} ${formatDate(l.day)} ${d}`); actual.set(l, d); }
      readyAt = l.arr + d;
      delay = 0;
    }
  }
  // Never a ground shuttle, as in the challenge's instances: one out of service could neither run as
  // planned (spec R19a-c) nor stay on the ground (R21), so no plan would be feasible.
  const altAircraft = planes.filter((p, i) => p.model !== SHUTTLE && i % 97 === 13).map((p) => `${p.id} ${formatDate(day0 + 1)} 08:00 ${formatDate(day0 + 1)} 20:00`);

  // Airport capacity per clock hour of the day: the busiest hour of the plan and of the delayed legs, plus slack.
  const busiest = new Map<string, number[]>();
  const bump = (airport: string, minute: number, kind: 0 | 1) => {
    const key = `${airport} ${kind}`;
    const hours = busiest.get(key) ?? Array<number>(24).fill(0);
    hours[Math.floor((minute % MINUTES_PER_DAY) / 60)]! += 1;
    busiest.set(key, hours);
  };
  for (const plane of planes) {
    if (plane.model !== SHUTTLE) for (const f of plane.flights) { bump(f.origin, f.dep, 0); bump(f.dest, f.arr, 1); }
  }
  for (const [l, d] of actual) { bump(l.flight.origin, l.dep + d, 0); bump(l.flight.dest, l.arr + d, 1); }
  const capacityLine = (a: Airport) => {
    const groups: string[] = [];
    for (let h = 0; h < 24; h++) {
      const dep = (busiest.get(`${a.code} 0`)?.[h] ?? 0) + (a.hub ? 4 : 2);
      const arr = (busiest.get(`${a.code} 1`)?.[h] ?? 0) + (a.hub ? 4 : 2);
      groups.push(`${dep} ${arr} ${clock(h * 60)} ${clock(((h + 1) % 24) * 60)}`);
    }
    return `${a.code} ${groups.join(' ')}`;
  };

  // Bookings: single flights, hub connections and a few three-flight trips through two hubs.
  const free = new Map<string, [number, number, number]>();
  const legKeyOf = (l: (typeof legs)[number]) => `${l.flight.number} ${l.day}`;
  for (const l of legs) free.set(legKeyOf(l), l.plane.model.seats.map((s) => Math.floor(s * 0.9)) as [number, number, number]);
  const departures = new Map<string, (typeof legs)[number][]>();
  const bookable = legs.filter((l) => l.plane.model !== SHUTTLE);
  for (const l of bookable) {
    const key = `${l.flight.origin} ${l.day}`;
    const list = departures.get(key) ?? [];
    list.push(l);
    departures.set(key, list);
  }
  const onward = (from: (typeof legs)[number], avoid: string) => {
    const options = (departures.get(`${from.flight.dest} ${from.day}`) ?? []).filter((l) => l.dep >= from.arr + 40 && l.dep <= from.arr + 300 && l.flight.dest !== avoid);
    return options.length > 0 ? pick(options) : null;
  };
  const itineraries: string[] = [];
  for (let id = 1; itineraries.length < size.itineraries; id++) {
    const first = pick(bookable);
    const trip = [first];
    const shape = random();
    if (shape < 0.4 && byCode.get(first.flight.dest)!.hub) {
      const second = onward(first, first.flight.origin);
      if (second) {
        trip.push(second);
        if (shape < 0.05 && byCode.get(second.flight.dest)!.hub) {
          const third = onward(second, first.flight.origin);
          if (third) trip.push(third);
        }
      }
    }
    const roll = random();
    const cabin = roll < 0.05 && trip.every((l) => l.plane.model.seats[0] > 0) ? 0 : roll < 0.2 && trip.every((l) => l.plane.model.seats[1] > 0) ? 1 : 2;
    const passengers = Math.min(1 + Math.floor(random() ** 2 * 8), ...trip.map((l) => free.get(legKeyOf(l))![cabin]));
    if (passengers < 1) continue;
    for (const l of trip) free.get(legKeyOf(l))![cabin] -= passengers;
    const haulClass = trip.some((l) => haul(byCode.get(l.flight.origin)!, byCode.get(l.flight.dest)!) === 'I') ? 2 : trip.some((l) => haul(byCode.get(l.flight.origin)!, byCode.get(l.flight.dest)!) === 'C') ? 1 : 0;
    const price = (80 + random() * [320, 550, 2000][haulClass]!) * [4, 2, 1][cabin]!;
    const legsText = trip.map((l) => `${l.flight.number} ${formatDate(l.day)} ${'FBE'[cabin]}`).join(' ');
    itineraries.push(`${id} ${random() < 0.5 ? 'A' : 'R'} ${price.toFixed(1)} ${passengers} ${legsText}`);
  }

  // One hub's capacity halved for two hours on day 1.
  const hub = hubs[0]!;
  const altAirports = [14, 15].map((h) => {
    const dep = Math.floor((busiest.get(`${hub.code} 0`)?.[h] ?? 0) / 2);
    const arr = Math.floor((busiest.get(`${hub.code} 1`)?.[h] ?? 0) / 2);
    return `${hub.code} ${formatDate(day0)} ${clock(h * 60)} ${formatDate(day0)} ${clock((h + 1) * 60)} ${dep} ${arr}`;
  });

  const positions = new Map<string, Map<string, number>>();
  for (const p of planes) {
    if (p.model === SHUTTLE) continue;
    const at = positions.get(p.base) ?? new Map<string, number>();
    const key = `${p.model.model} ${p.model.seats.join('/')}`;
    at.set(key, (at.get(key) ?? 0) + 1);
    positions.set(p.base, at);
  }

  const file = (records: string[]) => `${[...records, '#'].join('\n')}\n`;
  const coefficients = (f: number, b: number, e: number, step: number) =>
    (['F', 'B', 'E'] as const).flatMap((c, i) => ['D', 'C', 'I'].map((h, j) => `${c} ${h} ${([f, b, e][i]! * (1 + step * j)).toFixed(2)}`)).join(' ');
  return {
    'config.csv': file([
      `${formatDate(Math.floor(S / MINUTES_PER_DAY))} ${clock(S % MINUTES_PER_DAY)} ${formatDate(Math.floor(E / MINUTES_PER_DAY))} ${clock(E % MINUTES_PER_DAY)}`,
      coefficients(1.25, 0.8, 0.05, 0.5),
      coefficients(2500, 1500, 250, 1),
      coefficients(7500, 4500, 750, 1),
      'F B D 150.0 F B C 400.0 F B I 750.0 F E D 200.0 F E C 500.0 F E I 1500.0 B E D 150.0 B E C 400.0 B E I 750.0',
      '20000.0 5000.0 1000.0',
      '1.0 1.0 1.0',
    ]),
    'airports.csv': file(airports.map(capacityLine)),
    'dist.csv': file(airports.flatMap((a) => airports.filter((b) => b !== a).map((b) => `${a.code} ${b.code} ${block(a, b)} ${haul(a, b)}`))),
    'flights.csv': file(planes.flatMap((p) => p.flights.map((f) => `${f.number} ${f.origin} ${f.dest} ${clock(f.dep)} ${clock(f.arr)} ${f.previous}`))),
    'aircraft.csv': file(planes.map((p) => `${p.id} ${p.model.model} ${p.model.family} ${p.model.seats.join('/')} ${p.model.range} ${p.model.cost.toFixed(1)} ${p.model.turnRound} ${p.model.transit} ${p.base} ${p.maintenance}`)),
    'rotations.csv': file(legs.map((l) => `${l.flight.number} ${formatDate(l.day)} ${l.plane.id}`)),
    'itineraries.csv': file(itineraries),
    'position.csv': file([...positions].map(([airport, models]) => `${airport} ${[...models].map(([key, n]) => `${key} ${n}`).join(' ')} #`)),
    'alt_flights.csv': file(altFlights),
    'alt_aircraft.csv': file(altAircraft),
    'alt_airports.csv': file(altAirports),
  };
}

/** Write a synthetic instance into `dir` (created if needed); returns `dir`. */
export function writeSyntheticInstance(dir: string, size: SyntheticSize = CHALLENGE_X_SIZE): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(generateSyntheticInstance(size))) writeFileSync(join(dir, name), text);
  return dir;
}
