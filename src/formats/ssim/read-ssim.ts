// An SSIM Chapter 7 file as a schedule the service serves: the records read (records.ts), each leg's
// period of operation expanded into dated flights, instants computed in UTC from the file's own times
// and UTC variations, and aircraft assigned by the rule below (docs/spec/ssim.md). Any malformed
// record is refused with the file, the line and the field (SsimFormatError).
//
// Aircraft (SSIM names aircraft types, not registrations):
//   1. A leg that names its onward flight (columns 138-145) hands its aircraft on to that flight, on the
//      date the layover days say (counted from this leg's arrival date, at the station where it lands
//      and the onward flight leaves): the flights so linked form one rotation, one aircraft.
//   2. Such a rotation, or a flight in no link, goes (in order of first departure) to the aircraft of
//      its type that arrived at its first origin at least TURNAROUND_MINUTES before and has waited
//      longest; when there is none, to a new aircraft based at that origin.
//   Aircraft are named <fleet>#<n> in the order they are made, so that nobody mistakes them for real
//   registrations; their seats are the leg's configuration (Y180), else the fleet's in SEATS_BY_FLEET.
import { formatUtc, utcOffsetMinutes } from '../../domain/time.ts';
import type { ScheduleFile } from '../schedule-json/schedule-file.ts';
import {
  HEADER_TITLE, readCarrier, readHeader, readLeg, readSegment, readTrailer, RECORD_LENGTH, serialOf, SsimFormatError, type CarrierRecord, type LegRecord,
} from './records.ts';

/** Minutes an aircraft of rule 2 stays on the ground between two flights. */
export const TURNAROUND_MINUTES = 30;
/** Minimum connection time of every imported airport (the file has none). */
export const IMPORT_MIN_CONNECTION_MINUTES = 45;
/** Seats when a leg gives no configuration and its fleet is not listed. */
export const DEFAULT_SEATS = 150;

/** IATA aircraft type codes and the fleet codes of this service's schedules. */
export const FLEET_BY_TYPE: Readonly<Record<string, string>> = { '319': 'A319', '320': 'A320', '321': 'A321', E90: 'E190', E95: 'E195', '73H': 'B738', '738': 'B738', DH4: 'DH8D', AT7: 'AT76' };
export const TYPE_BY_FLEET: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(FLEET_BY_TYPE).reverse().map(([type, fleet]) => [fleet, type]));
const FAMILY_BY_FLEET: Readonly<Record<string, string>> = { A319: 'A320', A320: 'A320', A321: 'A320', E190: 'E-JET', E195: 'E-JET', B738: 'B737', DH8D: 'DH8', AT76: 'ATR' };
export const SEATS_BY_FLEET: Readonly<Record<string, number>> = { A319: 144, A320: 180, A321: 220, E190: 112, E195: 124, B738: 189, DH8D: 78, AT76: 70 };

export interface SsimCarrier { carrier: CarrierRecord; legs: { leg: LegRecord; line: number }[] }

/** The records of a file, checked for form and order (header, then per carrier: carrier, legs, trailer). */
export function readSsimRecords(text: string, file: string): SsimCarrier[] {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const carriers: SsimCarrier[] = [];
  let current: SsimCarrier | null = null;
  let sawHeader = false;
  let previousSerial = 0;
  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    const at = (reason: string) => new SsimFormatError(file, lineNumber, reason);
    if (raw.length > RECORD_LENGTH) throw at(`a record has ${RECORD_LENGTH} characters, this line ${raw.length}`);
    // Many files drop the trailing spaces of a record.
    const line = raw.padEnd(RECORD_LENGTH);
    const type = line[0];
    if (type === '0') return; // padding of a block
    const serial = serialOf(line);
    if (serial === null) throw at(`record serial number (columns 195-200) must be six digits, not '${line.slice(194)}'`);
    switch (type) {
      case '1':
        if (sawHeader) throw at('a second header record (type 1)');
        readHeader(line, at);
        sawHeader = true;
        break;
      case '2':
        if (!sawHeader) throw at(`the file must start with a header record (type 1, '${HEADER_TITLE}')`);
        if (current) throw at(`a carrier record (type 2) before the trailer (type 5) of carrier ${current.carrier.airline}`);
        current = { carrier: readCarrier(line, at), legs: [] };
        break;
      case '3': {
        if (!current) throw at('a flight leg record (type 3) outside a carrier (after its type 2, before its type 5)');
        const leg = readLeg(line, at);
        if (leg.airline !== current.carrier.airline) throw at(`flight leg of airline ${leg.airline} in the section of carrier ${current.carrier.airline}`);
        current.legs.push({ leg, line: lineNumber });
        break;
      }
      case '4':
        if (!current || current.legs.length === 0) throw at('a segment data record (type 4) must follow a flight leg record (type 3)');
        readSegment(line, at);
        break;
      case '5': {
        if (!current) throw at('a trailer record (type 5) without a carrier record (type 2) before it');
        const { airline } = readTrailer(line, previousSerial, at);
        if (airline !== current.carrier.airline) throw at(`the trailer names airline ${airline}, the carrier record ${current.carrier.airline}`);
        carriers.push(current);
        current = null;
        break;
      }
      default:
        throw at(`record type (column 1) must be 0-5, not '${type}'`);
    }
    previousSerial = serial;
  });
  const end = (reason: string) => new SsimFormatError(file, lines.length, reason);
  if (!sawHeader) throw end('no header record (type 1): this is not an SSIM Chapter 7 file');
  if (current) throw end(`the section of carrier ${(current as SsimCarrier).carrier.airline} has no trailer record (type 5)`);
  if (carriers.length === 0 || carriers.every((c) => c.legs.length === 0)) throw end('no flight leg record (type 3)');
  return carriers;
}

/** One flight on one date, in UTC minutes. */
export interface DatedFlight {
  airline: string;
  flightNumber: number;
  origin: string;
  dest: string;
  depMinutes: number;
  arrMinutes: number;
  /** The departure date in the carrier's time mode (epoch days). */
  dateDay: number;
  /** The arrival date in the carrier's time mode: the date an onward flight's layover days count from. */
  arrDay: number;
  aircraftType: string;
  seats: number | null;
  onward: LegRecord['onward'];
  /** The UTC variations of its stations, minutes. */
  depVariation: number;
  arrVariation: number;
  line: number;
}

/** ISO weekday (1 Monday ... 7 Sunday) of an epoch day. */
const weekday = (epochDay: number) => ((new Date(epochDay * 86_400_000).getUTCDay() + 6) % 7) + 1;

/** Every dated flight of the file, by departure then airline and number. */
export function expandPeriods(carriers: readonly SsimCarrier[], file: string): DatedFlight[] {
  const flights: DatedFlight[] = [];
  const ids = new Map<string, number>();
  for (const { carrier, legs } of carriers) {
    const local = carrier.timeMode === 'L';
    for (const { leg, line } of legs) {
      for (let day = leg.periodFromDay; day <= leg.periodToDay; day++) {
        if (!leg.days.includes(weekday(day))) continue;
        const depMinutes = day * 1440 + leg.depClock - (local ? leg.depVariation : 0);
        const arrMinutes = (day + leg.arrDateVariation) * 1440 + leg.arrClock - (local ? leg.arrVariation : 0);
        if (arrMinutes <= depMinutes) throw new SsimFormatError(file, line, `the flight arrives before it departs (${formatUtc(arrMinutes)} before ${formatUtc(depMinutes)} UTC); check the times, the UTC variations and the arrival date variation (column 194)`);
        if (arrMinutes - depMinutes > 24 * 60) throw new SsimFormatError(file, line, 'the flight lasts more than 24 hours; check the arrival date variation (column 194)');
        const id = `${leg.airline}${leg.flightNumber}_${depMinutes}`;
        const earlier = ids.get(id);
        if (earlier !== undefined) throw new SsimFormatError(file, line, `flight ${leg.airline}${leg.flightNumber} departing ${formatUtc(depMinutes)} is also given on line ${earlier}`);
        ids.set(id, line);
        flights.push({
          airline: leg.airline, flightNumber: leg.flightNumber, origin: leg.origin, dest: leg.dest, depMinutes, arrMinutes, dateDay: day, arrDay: day + leg.arrDateVariation,
          aircraftType: leg.aircraftType, seats: leg.seats, onward: leg.onward, depVariation: leg.depVariation, arrVariation: leg.arrVariation, line,
        });
      }
    }
  }
  return flights.sort((a, b) => a.depMinutes - b.depMinutes || a.airline.localeCompare(b.airline) || a.flightNumber - b.flightNumber);
}

const fleetOf = (type: string) => FLEET_BY_TYPE[type] ?? type;

/** Aircraft for every flight by the rule at the top of this file: the rotation (flight indices) of each aircraft. */
export function assignAircraft(flights: readonly DatedFlight[], file: string): { fleet: string; flights: number[] }[] {
  const next = new Map<number, number>();
  const previous = new Map<number, number>();
  const byNumberAndDate = new Map<string, number[]>();
  flights.forEach((f, i) => {
    const key = `${f.airline}${f.flightNumber}@${f.dateDay}`;
    byNumberAndDate.set(key, [...(byNumberAndDate.get(key) ?? []), i]);
  });
  flights.forEach((f, i) => {
    if (!f.onward) return;
    const candidates = byNumberAndDate.get(`${f.onward.airline}${f.onward.flightNumber}@${f.arrDay + f.onward.layoverDays}`) ?? [];
    // The onward flight leaves from where this one lands, after it lands; a flight outside the file's
    // periods is no link (a real file names the first flight of the next season too).
    const target = candidates.find((j) => flights[j]!.origin === f.dest && flights[j]!.depMinutes >= f.arrMinutes);
    if (target === undefined) return;
    const other = previous.get(target);
    if (other !== undefined) throw new SsimFormatError(file, f.line, `flights of lines ${flights[other]!.line} and ${f.line} both hand their aircraft on to ${f.onward.airline}${f.onward.flightNumber} of ${formatUtc(flights[target]!.depMinutes).slice(0, 10)}`);
    if (flights[target]!.aircraftType !== f.aircraftType) throw new SsimFormatError(file, f.line, `the onward flight ${f.onward.airline}${f.onward.flightNumber} is flown by aircraft type ${flights[target]!.aircraftType}, this leg by ${f.aircraftType}`);
    next.set(i, target);
    previous.set(target, i);
  });
  // Chains: flights linked by rule 1, each from its first flight; a flight in no link is a chain of one.
  const chains: number[][] = [];
  flights.forEach((_, i) => {
    if (previous.has(i)) return;
    const chain = [i];
    for (let j = next.get(i); j !== undefined; j = next.get(j)) chain.push(j);
    chains.push(chain);
  });
  // Rule 2: chains in order of first departure, each to the aircraft of its type that waited longest
  // at its first origin (at least the turnaround), else to a new aircraft.
  const rotations: { fleet: string; flights: number[] }[] = [];
  const waiting: { rotation: number; station: string; readyAt: number; type: string }[] = [];
  for (const chain of chains) {
    const first = flights[chain[0]!]!;
    const last = flights[chain[chain.length - 1]!]!;
    let best = -1;
    for (let k = 0; k < waiting.length; k++) {
      const a = waiting[k]!;
      if (a.type === first.aircraftType && a.station === first.origin && a.readyAt + TURNAROUND_MINUTES <= first.depMinutes && (best < 0 || a.readyAt < waiting[best]!.readyAt)) best = k;
    }
    if (best < 0) {
      rotations.push({ fleet: fleetOf(first.aircraftType), flights: [...chain] });
      waiting.push({ rotation: rotations.length - 1, station: last.dest, readyAt: last.arrMinutes, type: first.aircraftType });
    } else {
      const a = waiting[best]!;
      rotations[a.rotation]!.flights.push(...chain);
      a.station = last.dest;
      a.readyAt = last.arrMinutes;
    }
  }
  // Numbered in the order of each aircraft's first departure, whichever rule made it.
  return rotations.sort((a, b) => flights[a.flights[0]!]!.depMinutes - flights[b.flights[0]!]!.depMinutes || a.flights[0]! - b.flights[0]!);
}

/**
 * The IANA zone of a station: `knownZones` (e.g. the airports the generator knows) when it agrees with
 * the file's UTC variation at every flight, else Etc/GMT±h when the file's variation is one whole hour
 * throughout, else UTC (local times are then shown in UTC; the instants are right either way).
 */
function zoneOf(code: string, variations: { minutes: number; at: number }[], knownZones: ReadonlyMap<string, string>): string {
  const known = knownZones.get(code);
  if (known && variations.every((v) => utcOffsetMinutes(known, v.at) === v.minutes)) return known;
  const first = variations[0]!.minutes;
  if (variations.every((v) => v.minutes === first) && first % 60 === 0) {
    const hours = first / 60;
    // POSIX sign: Etc/GMT-1 is one hour ahead of UTC.
    return hours === 0 ? 'UTC' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
  }
  return 'UTC';
}

export interface SsimImportOptions {
  /** The schedule's name (schedules/<name>.json). */
  name: string;
  /** IANA zones of airports the caller knows, by code. */
  knownZones?: ReadonlyMap<string, string>;
}

/** An SSIM file as a schedule file: flights, aircraft, airports; no crew, checks or bookings (0 passengers). */
export function ssimToScheduleFile(text: string, file: string, options: SsimImportOptions): ScheduleFile {
  const carriers = readSsimRecords(text, file);
  const flights = expandPeriods(carriers, file);
  if (flights.length === 0) throw new SsimFormatError(file, 1, 'no leg operates on any day of its period');
  const rotations = assignAircraft(flights, file);
  const tails = new Array<string>(flights.length);
  const counters = new Map<string, number>();
  const aircraft = rotations.map((rotation) => {
    const n = (counters.get(rotation.fleet) ?? 0) + 1;
    counters.set(rotation.fleet, n);
    const tail = `${rotation.fleet}#${n}`;
    for (const i of rotation.flights) tails[i] = tail;
    const first = flights[rotation.flights[0]!]!;
    return { tail, airline: first.airline, fleet: rotation.fleet, seats: first.seats ?? SEATS_BY_FLEET[rotation.fleet] ?? DEFAULT_SEATS, base: first.origin };
  });
  const fleets = [...new Set(aircraft.map((a) => a.fleet))].sort().map((code) => ({
    code, family: FAMILY_BY_FLEET[code] ?? code, seats: Math.max(...aircraft.filter((a) => a.fleet === code).map((a) => a.seats)),
  }));
  const variations = new Map<string, { minutes: number; at: number }[]>();
  for (const f of flights) {
    variations.set(f.origin, [...(variations.get(f.origin) ?? []), { minutes: f.depVariation, at: f.depMinutes }]);
    variations.set(f.dest, [...(variations.get(f.dest) ?? []), { minutes: f.arrVariation, at: f.arrMinutes }]);
  }
  const airports = [...variations.keys()].sort().map((code) => ({
    code, name: code, time_zone: zoneOf(code, variations.get(code)!, options.knownZones ?? new Map()),
    hub: false, maintenance_station: false, min_connection_minutes: IMPORT_MIN_CONNECTION_MINUTES,
  }));
  const airlines = carriers.map(({ carrier }) => ({ code: carrier.airline, name: carrier.title || carrier.airline }));
  return {
    format_version: 1,
    name: options.name,
    description: `Imported from the SSIM file ${file.split('/').pop()}: ${flights.length} flights of ${airlines.map((a) => a.code).join(', ')}; aircraft assigned by the rule of docs/spec/ssim.md; no crew, checks or bookings.`,
    operating_date: formatUtc(flights[0]!.depMinutes).slice(0, 10),
    airlines,
    airports,
    fleets,
    aircraft,
    flights: flights.map((f, i) => ({
      flight_number: `${f.airline}${f.flightNumber}`, airline: f.airline, tail: tails[i]!, origin: f.origin, dest: f.dest,
      dep: formatUtc(f.depMinutes), arr: formatUtc(f.arrMinutes), booked_passengers: 0,
    })),
    maintenance: [],
    crew: [],
    itineraries: [],
  };
}
