// IATA SSIM Chapter 7 records: fixed-width lines of 200 characters, one record each, the type in
// column 1 (1 header, 2 carrier, 3 flight leg, 4 segment data, 5 trailer, 0 padding). Columns below
// are 1-based and inclusive, as the manual numbers them (docs/spec/ssim.md lists every field read or
// written). Each record type has one reader (line -> fields, or an SsimFormatError naming the line
// and the field) and one writer (fields -> line), so that each can be tested on its own.

export const RECORD_LENGTH = 200;

/** A malformed record: the file, the line and what is wrong with which field. */
export class SsimFormatError extends Error {
  constructor(readonly file: string, readonly line: number, readonly reason: string) {
    super(`${file}:${line}: ${reason}`);
  }
}

/** Columns [from, to] of a field, 1-based inclusive. */
type Columns = readonly [number, number];

const field = (line: string, [from, to]: Columns) => line.slice(from - 1, to);

/** `text` left-aligned in a field of the columns' width (cut when longer). */
function put(record: string[], [from, to]: Columns, text: string): void {
  const width = to - from + 1;
  const value = text.padEnd(width).slice(0, width);
  for (let i = 0; i < width; i++) record[from - 1 + i] = value[i]!;
}

function blankRecord(type: string, serial: number): string[] {
  const record = Array.from({ length: RECORD_LENGTH }, () => ' ');
  record[0] = type;
  put(record, SERIAL, String(serial).padStart(6, '0'));
  return record;
}

const SERIAL: Columns = [195, 200];

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** A calendar date as SSIM writes it: DDMMMYY (21NOV26), years 2000-2099. Days since 1970-01-01. */
export function parseSsimDate(text: string): number | null {
  const match = /^(\d{2})([A-Z]{3})(\d{2})$/.exec(text);
  if (!match) return null;
  const month = MONTHS.indexOf(match[2]!);
  const day = Number(match[1]);
  const year = 2000 + Number(match[3]);
  if (month < 0) return null;
  const ms = Date.UTC(year, month, day);
  const date = new Date(ms);
  if (date.getUTCDate() !== day || date.getUTCMonth() !== month) return null;
  return ms / 86_400_000;
}

export function formatSsimDate(epochDay: number): string {
  const date = new Date(epochDay * 86_400_000);
  return `${String(date.getUTCDate()).padStart(2, '0')}${MONTHS[date.getUTCMonth()]}${String(date.getUTCFullYear() % 100).padStart(2, '0')}`;
}

/** HHMM (0000-2359; 2400 is accepted as the end of a day) as minutes. */
function parseClock(text: string): number | null {
  const match = /^(\d{2})(\d{2})$/.exec(text);
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0)) return null;
  return hours * 60 + minutes;
}

const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}${String(minutes % 60).padStart(2, '0')}`;

/** ±HHMM, the station's local time minus UTC, as minutes. */
function parseVariation(text: string): number | null {
  const match = /^([+-])(\d{2})(\d{2})$/.exec(text);
  if (!match || Number(match[3]) > 59 || Number(match[2]) > 14) return null;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

const variation = (minutes: number) => `${minutes < 0 ? '-' : '+'}${clock(Math.abs(minutes))}`;

/** Date variation (column 193 or 194): blank or 0 the same day, 1-9 days later, A the day before. */
function parseDateVariation(text: string): number | null {
  if (text === ' ' || text === '0') return 0;
  if (text === 'A') return -1;
  return /^[1-9]$/.test(text) ? Number(text) : null;
}

const dateVariation = (days: number) => (days === -1 ? 'A' : String(days));

// ---- record type 1: header ------------------------------------------------------------------------

export const HEADER_TITLE = 'AIRLINE STANDARD SCHEDULE DATA SET';
const TITLE: Columns = [2, 35];

export function readHeader(line: string, at: (reason: string) => SsimFormatError): void {
  if (field(line, TITLE) !== HEADER_TITLE) throw at(`a header record (type 1) must say '${HEADER_TITLE}' in columns 2-35`);
}

export function writeHeader(serial: number): string {
  const record = blankRecord('1', serial);
  put(record, TITLE, HEADER_TITLE);
  return record.join('');
}

// ---- record type 2: carrier -----------------------------------------------------------------------

export interface CarrierRecord {
  /** U: times are UTC; L: local times (the leg's UTC variations say how they relate). */
  timeMode: 'U' | 'L';
  airline: string;
  validFromDay: number;
  validToDay: number;
  title: string;
}

const C = { timeMode: [2, 2], airline: [3, 5], season: [11, 13], validFrom: [15, 21], validTo: [22, 28], created: [29, 35], title: [36, 64], status: [72, 72] } as const;

export function readCarrier(line: string, at: (reason: string) => SsimFormatError): CarrierRecord {
  const timeMode = field(line, C.timeMode);
  if (timeMode !== 'U' && timeMode !== 'L') throw at(`time mode (column 2) must be U (UTC) or L (local), not '${timeMode}'`);
  const airline = field(line, C.airline).trim();
  if (!/^[A-Z0-9]{2}$/.test(airline)) throw at(`airline designator (columns 3-5) must be a two-character code such as NV, not '${field(line, C.airline)}'`);
  const validFromDay = parseSsimDate(field(line, C.validFrom));
  const validToDay = parseSsimDate(field(line, C.validTo));
  if (validFromDay === null || validToDay === null) throw at(`period of schedule validity (columns 15-28) must be two dates DDMMMYY, not '${field(line, [15, 28])}'`);
  if (validToDay < validFromDay) throw at('period of schedule validity ends before it starts');
  return { timeMode, airline, validFromDay, validToDay, title: field(line, C.title).trim() };
}

export function writeCarrier(carrier: CarrierRecord, serial: number, createdDay: number): string {
  const record = blankRecord('2', serial);
  put(record, C.timeMode, carrier.timeMode);
  put(record, C.airline, carrier.airline);
  put(record, C.validFrom, formatSsimDate(carrier.validFromDay));
  put(record, C.validTo, formatSsimDate(carrier.validToDay));
  put(record, C.created, formatSsimDate(createdDay));
  put(record, C.title, carrier.title);
  put(record, C.status, 'C');
  return record.join('');
}

// ---- record type 3: flight leg --------------------------------------------------------------------

export interface LegRecord {
  airline: string;
  /** 1-9999, without leading zeros. */
  flightNumber: number;
  itineraryVariation: number;
  legSequence: number;
  serviceType: string;
  periodFromDay: number;
  periodToDay: number;
  /** ISO weekdays operated, 1 = Monday ... 7 = Sunday. */
  days: readonly number[];
  origin: string;
  /** Aircraft departure, minutes after midnight in the carrier's time mode. */
  depClock: number;
  depVariation: number;
  dest: string;
  arrClock: number;
  arrVariation: number;
  /** Days from the departure's date to the arrival's (column 194), -1 to 9. */
  arrDateVariation: number;
  aircraftType: string;
  /** Seats of the aircraft configuration (columns 173-192, e.g. Y180 or C20Y150), null when blank. */
  seats: number | null;
  /**
   * The flight this aircraft flies next (columns 138-144) and the days from this leg's arrival date to
   * that flight's departure date, at the station where both happen (column 145), or null.
   */
  onward: { airline: string; flightNumber: number; layoverDays: number } | null;
}

const L = {
  suffix: [2, 2], airline: [3, 5], flightNumber: [6, 9], itineraryVariation: [10, 11], legSequence: [12, 13], serviceType: [14, 14],
  periodFrom: [15, 21], periodTo: [22, 28], days: [29, 35], frequency: [36, 36],
  origin: [37, 39], paxDep: [40, 43], acDep: [44, 47], depVariation: [48, 52],
  dest: [55, 57], acArr: [58, 61], paxArr: [62, 65], arrVariation: [66, 70],
  aircraftType: [73, 75], onwardAirline: [138, 140], onwardNumber: [141, 144], layover: [145, 145], onwardSuffix: [146, 146],
  configuration: [173, 192], depDateVariation: [193, 193], arrDateVariation: [194, 194],
} as const;

function readStation(line: string, columns: Columns, name: string, at: (reason: string) => SsimFormatError): string {
  const code = field(line, columns);
  if (!/^[A-Z]{3}$/.test(code)) throw at(`${name} (columns ${columns[0]}-${columns[1]}) must be a three-letter IATA code, not '${code}'`);
  return code;
}

function readClockField(line: string, columns: Columns, name: string, at: (reason: string) => SsimFormatError): number {
  const minutes = parseClock(field(line, columns));
  if (minutes === null) throw at(`${name} (columns ${columns[0]}-${columns[1]}) must be a time HHMM, not '${field(line, columns)}'`);
  return minutes;
}

function readVariationField(line: string, columns: Columns, name: string, at: (reason: string) => SsimFormatError): number {
  const minutes = parseVariation(field(line, columns));
  if (minutes === null) throw at(`${name} (columns ${columns[0]}-${columns[1]}) must be a UTC variation ±HHMM, not '${field(line, columns)}'`);
  return minutes;
}

function readSeats(text: string, at: (reason: string) => SsimFormatError): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^([A-Z]\d{1,3})+$/.test(trimmed)) throw at(`aircraft configuration (columns 173-192) must be classes with seat counts such as Y180 or C20Y150, not '${trimmed}'`);
  return [...trimmed.matchAll(/[A-Z](\d{1,3})/g)].reduce((sum, m) => sum + Number(m[1]), 0);
}

export function readLeg(line: string, at: (reason: string) => SsimFormatError): LegRecord {
  if (field(line, L.suffix) !== ' ') throw at(`operational suffix (column 2) '${field(line, L.suffix)}' is not supported: flight numbers here have none`);
  const airline = field(line, L.airline).trim();
  if (!/^[A-Z0-9]{2}$/.test(airline)) throw at(`airline designator (columns 3-5) must be a two-character code, not '${field(line, L.airline)}'`);
  const numberText = field(line, L.flightNumber).trim();
  if (!/^\d{1,4}$/.test(numberText) || Number(numberText) === 0) throw at(`flight number (columns 6-9) must be 1-9999, not '${field(line, L.flightNumber)}'`);
  const ivi = field(line, L.itineraryVariation);
  const legSequence = field(line, L.legSequence);
  if (!/^\d{2}$/.test(ivi) || !/^\d{2}$/.test(legSequence)) throw at(`itinerary variation and leg sequence (columns 10-13) must be digits, not '${field(line, [10, 13])}'`);
  const periodFromDay = parseSsimDate(field(line, L.periodFrom));
  const periodToDay = parseSsimDate(field(line, L.periodTo));
  if (periodFromDay === null || periodToDay === null) throw at(`period of operation (columns 15-28) must be two dates DDMMMYY, not '${field(line, [15, 28])}'`);
  if (periodToDay < periodFromDay) throw at('period of operation ends before it starts');
  const daysText = field(line, L.days);
  const days: number[] = [];
  for (let i = 0; i < 7; i++) {
    const c = daysText[i]!;
    if (c === String(i + 1)) days.push(i + 1);
    else if (c !== ' ') throw at(`days of operation (columns 29-35) must hold each weekday's digit in its place or a space, not '${daysText}'`);
  }
  if (days.length === 0) throw at('days of operation (columns 29-35) name no day');
  if (field(line, L.frequency).trim() !== '') throw at(`frequency rate (column 36) '${field(line, L.frequency)}' is not supported: only weekly schedules`);
  const depDateVariation = parseDateVariation(field(line, L.depDateVariation));
  const arrDateVariation = parseDateVariation(field(line, L.arrDateVariation));
  if (depDateVariation === null || arrDateVariation === null) throw at(`date variations (columns 193-194) must be blank, 0-9 or A, not '${field(line, [193, 194])}'`);
  if (depDateVariation !== 0) throw at('a departure date variation (column 193) is not supported: give the period in departure dates');
  const onwardAirline = field(line, L.onwardAirline).trim();
  const onwardNumber = field(line, L.onwardNumber).trim();
  let onward: LegRecord['onward'] = null;
  if (onwardAirline !== '' || onwardNumber !== '') {
    const layover = field(line, L.layover);
    if (!/^[A-Z0-9]{2}$/.test(onwardAirline) || !/^\d{1,4}$/.test(onwardNumber) || !/^[0-9 ]$/.test(layover)) {
      throw at(`onward flight (columns 138-145) must be an airline, a flight number and the layover days, not '${field(line, [138, 145])}'`);
    }
    onward = { airline: onwardAirline, flightNumber: Number(onwardNumber), layoverDays: layover === ' ' ? 0 : Number(layover) };
  }
  const aircraftType = field(line, L.aircraftType).trim();
  if (!/^[A-Z0-9]{3}$/.test(aircraftType)) throw at(`aircraft type (columns 73-75) must be a three-character IATA code such as 320, not '${field(line, L.aircraftType)}'`);
  return {
    airline,
    flightNumber: Number(numberText),
    itineraryVariation: Number(ivi),
    legSequence: Number(legSequence),
    serviceType: field(line, L.serviceType),
    periodFromDay,
    periodToDay,
    days,
    origin: readStation(line, L.origin, 'departure station', at),
    depClock: readClockField(line, L.acDep, 'aircraft departure time', at),
    depVariation: readVariationField(line, L.depVariation, 'departure UTC variation', at),
    dest: readStation(line, L.dest, 'arrival station', at),
    arrClock: readClockField(line, L.acArr, 'aircraft arrival time', at),
    arrVariation: readVariationField(line, L.arrVariation, 'arrival UTC variation', at),
    arrDateVariation,
    aircraftType,
    seats: readSeats(field(line, L.configuration), at),
    onward,
  };
}

export function writeLeg(leg: LegRecord, serial: number): string {
  const record = blankRecord('3', serial);
  put(record, L.airline, leg.airline);
  put(record, L.flightNumber, String(leg.flightNumber).padStart(4, '0'));
  put(record, L.itineraryVariation, String(leg.itineraryVariation).padStart(2, '0'));
  put(record, L.legSequence, String(leg.legSequence).padStart(2, '0'));
  put(record, L.serviceType, leg.serviceType);
  put(record, L.periodFrom, formatSsimDate(leg.periodFromDay));
  put(record, L.periodTo, formatSsimDate(leg.periodToDay));
  put(record, L.days, [1, 2, 3, 4, 5, 6, 7].map((d) => (leg.days.includes(d) ? String(d) : ' ')).join(''));
  put(record, L.origin, leg.origin);
  put(record, L.paxDep, clock(leg.depClock));
  put(record, L.acDep, clock(leg.depClock));
  put(record, L.depVariation, variation(leg.depVariation));
  put(record, L.dest, leg.dest);
  put(record, L.acArr, clock(leg.arrClock));
  put(record, L.paxArr, clock(leg.arrClock));
  put(record, L.arrVariation, variation(leg.arrVariation));
  put(record, L.aircraftType, leg.aircraftType);
  if (leg.onward) {
    put(record, L.onwardAirline, leg.onward.airline);
    put(record, L.onwardNumber, String(leg.onward.flightNumber).padStart(4, '0'));
    put(record, L.layover, String(leg.onward.layoverDays));
  }
  if (leg.seats !== null) put(record, L.configuration, `Y${leg.seats}`);
  put(record, L.depDateVariation, '0');
  put(record, L.arrDateVariation, dateVariation(leg.arrDateVariation));
  return record.join('');
}

// ---- record type 4: segment data ------------------------------------------------------------------

/** Segment data qualify the leg before them (traffic restrictions, codeshares...): read for their form, not used. */
export function readSegment(line: string, at: (reason: string) => SsimFormatError): { dataElement: number } {
  const dei = field(line, [31, 33]);
  if (!/^\d{3}$/.test(dei)) throw at(`data element identifier (columns 31-33) must be three digits, not '${dei}'`);
  readStation(line, [34, 36], 'board point', at);
  readStation(line, [37, 39], 'off point', at);
  return { dataElement: Number(dei) };
}

// ---- record type 5: trailer -----------------------------------------------------------------------

export function readTrailer(line: string, previousSerial: number, at: (reason: string) => SsimFormatError): { airline: string } {
  const airline = field(line, [3, 5]).trim();
  if (!/^[A-Z0-9]{2}$/.test(airline)) throw at(`airline designator (columns 3-5) must be a two-character code, not '${field(line, [3, 5])}'`);
  const check = field(line, [188, 193]);
  if (!/^\d{6}$/.test(check) || Number(check) !== previousSerial) throw at(`serial number check reference (columns 188-193) must be ${String(previousSerial).padStart(6, '0')}, the serial number of the record before, not '${check}'`);
  const end = field(line, [194, 194]);
  if (end !== 'E' && end !== 'C') throw at(`continuation/end code (column 194) must be E or C, not '${end}'`);
  return { airline };
}

export function writeTrailer(airline: string, serial: number): string {
  const record = blankRecord('5', serial);
  put(record, [3, 5], airline);
  put(record, [188, 193], String(serial - 1).padStart(6, '0'));
  put(record, [194, 194], 'E');
  return record.join('');
}

/** The serial number a record gives itself (columns 195-200), or null when it is not six digits. */
export function serialOf(line: string): number | null {
  const text = field(line, SERIAL);
  return /^\d{6}$/.test(text) ? Number(text) : null;
}
