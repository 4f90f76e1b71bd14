// Read an instance folder (spec section 2) into a RoadefInstance. Every file is checked record by
// record, and references between files too (a rotation's flight and aircraft, a booking's legs, a
// disruption's leg); the first problem throws a RoadefFormatError naming the file, the line and the
// problem, so nothing half-read is ever used.
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import {
  CABINS, HAUL_CLASSES, routeKey,
  type AircraftUnavailability, type BookedLeg, type ByCabinAndClass, type Cabin, type CapacityReduction, type CapacityWindow,
  type Direction, type Downgrade, type FlightDisruption, type HaulClass, type Itinerary, type Maintenance, type PlannedLeg,
  type PositionRequirement, type RoadefAircraft, type RoadefConfig, type RoadefFlight, type RoadefInstance, type RouteInfo,
} from './instance.ts';
import {
  MINUTES_PER_DAY, RoadefFormatError, legKey, parseClock, parseDate, parseDecimal, parseInteger, parseTimeOfDay,
  splitRecords, type TextRecord,
} from './text.ts';

const DOWNGRADES: readonly Downgrade[] = ['FB', 'FE', 'BE'];

export const INSTANCE_FILES = [
  'config.csv', 'airports.csv', 'dist.csv', 'flights.csv', 'aircraft.csv', 'rotations.csv', 'itineraries.csv',
  'position.csv', 'alt_flights.csv', 'alt_aircraft.csv', 'alt_airports.csv',
] as const;

/** Read one file of the format: its records, or a RoadefFormatError when it cannot be read or is not closed by `#`. */
export function readRecords(path: string): TextRecord[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new RoadefFormatError(path, null, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const { records, closed } = splitRecords(text);
  if (!closed) throw new RoadefFormatError(path, null, "has no closing '#' line (the file is cut short or not of this format)");
  return records;
}

/** Field parsers bound to one record: each returns the value or throws naming file, line and field. */
class Fields {
  constructor(readonly file: string, readonly record: TextRecord) {}

  fail(problem: string): never {
    throw new RoadefFormatError(this.file, this.record.line, problem);
  }

  get count(): number { return this.record.fields.length; }

  expectCount(count: number, layout: string): void {
    if (this.count !== count) this.fail(`expected ${count} fields (${layout}), found ${this.count}`);
  }

  text(i: number, name: string): string {
    return this.record.fields[i] ?? this.fail(`${name} is missing`);
  }

  integer(i: number, name: string, min = Number.MIN_SAFE_INTEGER): number {
    const raw = this.text(i, name);
    const value = parseInteger(raw);
    if (value === null) this.fail(`${name} '${raw}' is not an integer`);
    if (value < min) this.fail(`${name} ${value} is below ${min}`);
    return value;
  }

  decimal(i: number, name: string, min = Number.NEGATIVE_INFINITY): number {
    const raw = this.text(i, name);
    const value = parseDecimal(raw);
    if (value === null) this.fail(`${name} '${raw}' is not a number`);
    if (value < min) this.fail(`${name} ${value} is below ${min}`);
    return value;
  }

  date(i: number, name: string): number {
    const raw = this.text(i, name);
    return parseDate(raw) ?? this.fail(`${name} '${raw}' is not a DD/MM/YY date`);
  }

  clock(i: number, name: string): number {
    const raw = this.text(i, name);
    return parseClock(raw) ?? this.fail(`${name} '${raw}' is not an HH:MM or HH:MM+N time`);
  }

  timeOfDay(i: number, name: string): number {
    const raw = this.text(i, name);
    return parseTimeOfDay(raw) ?? this.fail(`${name} '${raw}' is not an HH:MM time of day`);
  }

  /** DATE then TIME fields: an absolute minute. */
  instant(i: number, name: string): number {
    return this.date(i, `${name} date`) * MINUTES_PER_DAY + this.clock(i + 1, `${name} time`);
  }

  oneOf<T extends string>(i: number, name: string, allowed: readonly T[]): T {
    const raw = this.text(i, name);
    if (!(allowed as readonly string[]).includes(raw)) this.fail(`${name} '${raw}' must be one of ${allowed.join(', ')}`);
    return raw as T;
  }
}

function eachRecord(dir: string, file: string): Fields[] {
  const path = join(dir, file);
  return readRecords(path).map((record) => new Fields(path, record));
}

function readCabinTable(f: Fields, what: string): ByCabinAndClass {
  if (f.count !== 27) f.fail(`${what}: expected 9 triples CABIN CLASS VALUE (27 fields), found ${f.count} fields`);
  const table: Partial<Record<Cabin, Partial<Record<HaulClass, number>>>> = {};
  for (let i = 0; i < 27; i += 3) {
    const cabin = f.oneOf(i, `${what} cabin`, CABINS);
    const haul = f.oneOf(i + 1, `${what} class`, HAUL_CLASSES);
    if (table[cabin]?.[haul] !== undefined) f.fail(`${what}: ${cabin} ${haul} is given twice`);
    (table[cabin] ??= {})[haul] = f.decimal(i + 2, `${what} ${cabin} ${haul}`, 0);
  }
  return table as ByCabinAndClass;
}

function readConfig(dir: string): RoadefConfig {
  const records = eachRecord(dir, 'config.csv');
  if (records.length !== 7) {
    throw new RoadefFormatError(join(dir, 'config.csv'), null, `expected 7 record lines before '#', found ${records.length}`);
  }
  const [window, delay, outbound, inbound, down, position, weights] = records as [Fields, Fields, Fields, Fields, Fields, Fields, Fields];
  window.expectCount(4, 'START_DATE START_TIME END_DATE END_TIME');
  const windowStartMinutes = window.instant(0, 'window start');
  const windowEndMinutes = window.instant(2, 'window end');
  if (windowEndMinutes <= windowStartMinutes) window.fail('the recovery window ends before it starts');
  if (down.count !== 36) down.fail(`downgrading costs: expected 9 quadruples FROM TO CLASS VALUE (36 fields), found ${down.count} fields`);
  const downgradingCost: Partial<Record<Downgrade, Partial<Record<HaulClass, number>>>> = {};
  for (let i = 0; i < 36; i += 4) {
    const from = down.oneOf(i, 'downgrading from-cabin', CABINS);
    const to = down.oneOf(i + 1, 'downgrading to-cabin', CABINS);
    const downgrade = `${from}${to}` as Downgrade;
    if (!DOWNGRADES.includes(downgrade)) down.fail(`downgrading ${from} to ${to} is not a downgrade (F B, F E or B E)`);
    const haul = down.oneOf(i + 2, 'downgrading class', HAUL_CLASSES);
    if (downgradingCost[downgrade]?.[haul] !== undefined) down.fail(`downgrading ${from} ${to} ${haul} is given twice`);
    (downgradingCost[downgrade] ??= {})[haul] = down.decimal(i + 3, `downgrading ${from} ${to} ${haul}`, 0);
  }
  for (const pair of DOWNGRADES) {
    for (const haul of HAUL_CLASSES) if (downgradingCost[pair]?.[haul] === undefined) down.fail(`downgrading ${pair[0]} ${pair[1]} ${haul} is missing`);
  }
  position.expectCount(3, 'P_family P_model P_config');
  weights.expectCount(3, 'ALPHA BETA GAMMA');
  return {
    windowStartMinutes,
    windowEndMinutes,
    delayCost: readCabinTable(delay, 'delay costs'),
    outboundCancellationCost: readCabinTable(outbound, 'outbound cancellation costs'),
    inboundCancellationCost: readCabinTable(inbound, 'inbound cancellation costs'),
    downgradingCost: downgradingCost as RoadefConfig['downgradingCost'],
    positionPenalty: { family: position.decimal(0, 'P_family', 0), model: position.decimal(1, 'P_model', 0), configuration: position.decimal(2, 'P_config', 0) },
    weights: { alpha: weights.decimal(0, 'ALPHA', 0), beta: weights.decimal(1, 'BETA', 0), gamma: weights.decimal(2, 'GAMMA', 0) },
  };
}

function readAirports(dir: string): Map<string, CapacityWindow[]> {
  const airports = new Map<string, CapacityWindow[]>();
  for (const f of eachRecord(dir, 'airports.csv')) {
    const code = f.text(0, 'CODE');
    if (f.count < 5 || (f.count - 1) % 4 !== 0) f.fail(`expected CODE then groups of DEP_CAP ARR_CAP FROM TO, found ${f.count} fields`);
    if (airports.has(code)) f.fail(`airport ${code} is listed twice`);
    const windows: CapacityWindow[] = [];
    for (let i = 1; i < f.count; i += 4) {
      const fromMinute = f.timeOfDay(i + 2, 'FROM');
      const to = f.timeOfDay(i + 3, 'TO');
      // TO = 00:00 is midnight at the end of the day; 00:00 00:00 is the whole day.
      const toMinute = to === 0 ? MINUTES_PER_DAY : to;
      if (toMinute <= fromMinute) f.fail(`window ${f.text(i + 2, 'FROM')}-${f.text(i + 3, 'TO')} ends before it starts`);
      windows.push({ departures: f.integer(i, 'DEP_CAP', 0), arrivals: f.integer(i + 1, 'ARR_CAP', 0), fromMinute, toMinute });
    }
    airports.set(code, windows);
  }
  return airports;
}

function readRoutes(dir: string): Map<string, RouteInfo> {
  const routes = new Map<string, RouteInfo>();
  for (const f of eachRecord(dir, 'dist.csv')) {
    f.expectCount(4, 'ORIG DEST DURATION CLASS');
    const key = routeKey(f.text(0, 'ORIG'), f.text(1, 'DEST'));
    if (routes.has(key)) f.fail(`pair ${key} is listed twice`);
    routes.set(key, { durationMinutes: f.integer(2, 'DURATION', 1), haulClass: f.oneOf(3, 'CLASS', HAUL_CLASSES) });
  }
  return routes;
}

function readFlights(dir: string, routes: ReadonlyMap<string, RouteInfo>): Map<number, RoadefFlight> {
  const flights = new Map<number, RoadefFlight>();
  const records = eachRecord(dir, 'flights.csv');
  for (const f of records) {
    f.expectCount(6, 'FLIGHT ORIG DEST DEP ARR PREV');
    const number = f.integer(0, 'FLIGHT', 1);
    if (flights.has(number)) f.fail(`flight ${number} is listed twice`);
    const origin = f.text(1, 'ORIG');
    const dest = f.text(2, 'DEST');
    if (origin === dest) f.fail(`flight ${number} departs from and arrives at ${origin}`);
    // The haul class of every leg comes from dist.csv (spec 2.4); a flight without one cannot be costed.
    if (!routes.has(routeKey(origin, dest))) f.fail(`flight ${number}: the pair ${routeKey(origin, dest)} is not in dist.csv`);
    const depOffsetMinutes = f.clock(3, 'DEP');
    const arrOffsetMinutes = f.clock(4, 'ARR');
    if (arrOffsetMinutes <= depOffsetMinutes) f.fail(`flight ${number} arrives (${f.text(4, 'ARR')}) before it departs (${f.text(3, 'DEP')}); write +1 for the next day`);
    flights.set(number, { number, origin, dest, depOffsetMinutes, arrOffsetMinutes, previous: f.integer(5, 'PREV', 0) });
  }
  for (const f of records) {
    const previous = f.integer(5, 'PREV', 0);
    if (previous !== 0 && !flights.has(previous)) f.fail(`PREV ${previous} is not a flight of flights.csv`);
  }
  return flights;
}

function readSeats(f: Fields, i: number): RoadefAircraft['seats'] {
  const raw = f.text(i, 'SEATS');
  const parts = raw.split('/');
  const counts = parts.map((p) => parseInteger(p));
  if (parts.length !== 3 || counts.some((c) => c === null || c < -1)) f.fail(`SEATS '${raw}' must be F/B/E seat counts (-1 = unlimited)`);
  return { F: counts[0]!, B: counts[1]!, E: counts[2]! };
}

function readMaintenance(f: Fields, i: number): Maintenance | null {
  const raw = f.text(i, 'MAINTENANCE');
  if (raw === 'NULL') return null;
  const parts = raw.split('-');
  const fail = (): never => f.fail(`MAINTENANCE '${raw}' must be NULL or AIRPORT-DATE1-TIME1-DATE2-TIME2-MAXFLY`);
  if (parts.length !== 6) fail();
  const [airport, d1, t1, d2, t2, maxFly] = parts as [string, string, string, string, string, string];
  const day1 = parseDate(d1); const time1 = parseClock(t1); const day2 = parseDate(d2); const time2 = parseClock(t2);
  const maxFlyingMinutes = parseInteger(maxFly);
  if (airport === '' || day1 === null || time1 === null || day2 === null || time2 === null || maxFlyingMinutes === null || maxFlyingMinutes < 0) fail();
  const startMinutes = day1! * MINUTES_PER_DAY + time1!;
  const endMinutes = day2! * MINUTES_PER_DAY + time2!;
  if (endMinutes <= startMinutes) f.fail(`MAINTENANCE '${raw}' ends before it starts`);
  return { airport, startMinutes, endMinutes, maxFlyingMinutes: maxFlyingMinutes! };
}

function readAircraft(dir: string): Map<string, RoadefAircraft> {
  const aircraft = new Map<string, RoadefAircraft>();
  for (const f of eachRecord(dir, 'aircraft.csv')) {
    f.expectCount(10, 'ID MODEL FAMILY SEATS RANGE COST TURNROUND TRANSIT ORIGIN MAINTENANCE');
    const id = f.text(0, 'ID');
    if (id === 'cancelled') f.fail("an aircraft may not be called 'cancelled' (the word marks cancelled legs in solutions)");
    if (aircraft.has(id)) f.fail(`aircraft ${id} is listed twice`);
    aircraft.set(id, {
      id,
      model: f.text(1, 'MODEL'),
      family: f.text(2, 'FAMILY'),
      seats: readSeats(f, 3),
      configuration: f.text(3, 'SEATS'),
      rangeMinutes: f.integer(4, 'RANGE', 0),
      costPerHour: f.decimal(5, 'COST', 0),
      turnRoundMinutes: f.integer(6, 'TURNROUND', 0),
      transitMinutes: f.integer(7, 'TRANSIT', 0),
      origin: f.text(8, 'ORIGIN'),
      maintenance: readMaintenance(f, 9),
    });
  }
  return aircraft;
}

function readLegs(dir: string, flights: ReadonlyMap<number, RoadefFlight>, aircraft: ReadonlyMap<string, RoadefAircraft>): PlannedLeg[] {
  const legs: PlannedLeg[] = [];
  const seen = new Set<string>();
  for (const f of eachRecord(dir, 'rotations.csv')) {
    f.expectCount(3, 'FLIGHT DATE AIRCRAFT');
    const number = f.integer(0, 'FLIGHT', 1);
    const flight = flights.get(number) ?? f.fail(`flight ${number} is not in flights.csv`);
    const day = f.date(1, 'DATE');
    const plane = f.text(2, 'AIRCRAFT');
    if (!aircraft.has(plane)) f.fail(`aircraft ${plane} is not in aircraft.csv`);
    const key = legKey(number, day);
    if (seen.has(key)) f.fail(`leg ${number} ${f.text(1, 'DATE')} is listed twice`);
    seen.add(key);
    const base = day * MINUTES_PER_DAY;
    legs.push({ key, flight: number, day, aircraft: plane, depMinutes: base + flight.depOffsetMinutes, arrMinutes: base + flight.arrOffsetMinutes, line: f.record.line });
  }
  return legs;
}

function readBookedLeg(f: Fields, i: number, legs: ReadonlyMap<string, PlannedLeg>): BookedLeg {
  const flight = f.integer(i, 'FLIGHT', 1);
  const day = f.date(i + 1, 'DATE');
  if (!legs.has(legKey(flight, day))) f.fail(`leg ${flight} ${f.text(i + 1, 'DATE')} is not a planned leg of rotations.csv`);
  return { flight, day, cabin: f.oneOf(i + 2, 'CABIN', CABINS) };
}

function readItineraries(dir: string, legs: ReadonlyMap<string, PlannedLeg>): Itinerary[] {
  const itineraries: Itinerary[] = [];
  const ids = new Set<number>();
  for (const f of eachRecord(dir, 'itineraries.csv')) {
    if (f.count < 7 || (f.count - 4) % 3 !== 0) f.fail(`expected ID DIRECTION PRICE PAX then FLIGHT DATE CABIN per leg, found ${f.count} fields`);
    const id = f.integer(0, 'ID');
    if (ids.has(id)) f.fail(`itinerary ${id} is listed twice`);
    ids.add(id);
    const booked: BookedLeg[] = [];
    for (let i = 4; i < f.count; i += 3) booked.push(readBookedLeg(f, i, legs));
    itineraries.push({
      id,
      direction: f.oneOf<Direction>(1, 'DIRECTION', ['A', 'R']),
      price: f.decimal(2, 'PRICE', 0),
      passengers: f.integer(3, 'PAX', 0),
      legs: booked,
    });
  }
  return itineraries;
}

function readPositions(dir: string, aircraft: ReadonlyMap<string, RoadefAircraft>): PositionRequirement[] {
  const models = new Set([...aircraft.values()].map((a) => a.model));
  const positions: PositionRequirement[] = [];
  for (const f of eachRecord(dir, 'position.csv')) {
    const airport = f.text(0, 'CODE');
    // The line ends with a `#` token (spec 2.9); accept it missing.
    const end = f.record.fields.at(-1) === '#' ? f.count - 1 : f.count;
    if ((end - 1) % 3 !== 0) f.fail(`expected CODE then groups of MODEL CONFIG COUNT, found ${end - 1} fields after the code`);
    for (let i = 1; i < end; i += 3) {
      const model = f.text(i, 'MODEL');
      // The family of a required model is that of the aircraft of this model (spec 2.9).
      if (!models.has(model)) f.fail(`model ${model} has no aircraft in aircraft.csv`);
      positions.push({ airport, model, configuration: f.text(i + 1, 'CONFIG'), count: f.integer(i + 2, 'COUNT', 0) });
    }
  }
  return positions;
}

function readFlightDisruptions(dir: string, legs: ReadonlyMap<string, PlannedLeg>): FlightDisruption[] {
  const out: FlightDisruption[] = [];
  const seen = new Set<string>();
  for (const f of eachRecord(dir, 'alt_flights.csv')) {
    f.expectCount(3, 'FLIGHT DATE DELAY');
    const flight = f.integer(0, 'FLIGHT', 1);
    const day = f.date(1, 'DATE');
    const key = legKey(flight, day);
    if (!legs.has(key)) f.fail(`leg ${flight} ${f.text(1, 'DATE')} is not a planned leg of rotations.csv`);
    if (seen.has(key)) f.fail(`leg ${flight} ${f.text(1, 'DATE')} is disrupted twice`);
    seen.add(key);
    out.push({ flight, day, delayMinutes: f.integer(2, 'DELAY', -1) });
  }
  return out;
}

function readUnavailability(dir: string, aircraft: ReadonlyMap<string, RoadefAircraft>): AircraftUnavailability[] {
  return eachRecord(dir, 'alt_aircraft.csv').map((f) => {
    f.expectCount(5, 'AIRCRAFT DATE1 TIME1 DATE2 TIME2');
    const id = f.text(0, 'AIRCRAFT');
    if (!aircraft.has(id)) f.fail(`aircraft ${id} is not in aircraft.csv`);
    const startMinutes = f.instant(1, 'start');
    const endMinutes = f.instant(3, 'end');
    if (endMinutes <= startMinutes) f.fail('the period ends before it starts');
    return { aircraft: id, startMinutes, endMinutes };
  });
}

function readCapacityReductions(dir: string): CapacityReduction[] {
  return eachRecord(dir, 'alt_airports.csv').map((f) => {
    f.expectCount(7, 'AIRPORT DATE1 TIME1 DATE2 TIME2 DEP_CAP ARR_CAP');
    const startMinutes = f.instant(1, 'start');
    const endMinutes = f.instant(3, 'end');
    if (endMinutes <= startMinutes) f.fail('the period ends before it starts');
    return { airport: f.text(0, 'AIRPORT'), startMinutes, endMinutes, departures: f.integer(5, 'DEP_CAP', 0), arrivals: f.integer(6, 'ARR_CAP', 0) };
  });
}

/**
 * Read the eleven files of the instance folder `dir`. Throws RoadefFormatError (file, line, problem)
 * on the first file that is missing, malformed or refers to something the others do not define.
 */
export function readInstance(dir: string): RoadefInstance {
  const config = readConfig(dir);
  const airportCapacity = readAirports(dir);
  const routes = readRoutes(dir);
  const flights = readFlights(dir, routes);
  const aircraft = readAircraft(dir);
  const legs = readLegs(dir, flights, aircraft);
  const legsByKey = new Map(legs.map((l) => [l.key, l]));
  return {
    name: basename(resolve(dir)),
    config,
    airportCapacity,
    routes,
    flights,
    aircraft,
    legs,
    legsByKey,
    itineraries: readItineraries(dir, legsByKey),
    positions: readPositions(dir, aircraft),
    flightDisruptions: readFlightDisruptions(dir, legsByKey),
    aircraftUnavailability: readUnavailability(dir, aircraft),
    capacityReductions: readCapacityReductions(dir),
  };
}
