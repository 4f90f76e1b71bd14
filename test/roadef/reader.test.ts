// Unit: the instance reader against the published figures of spec 7.2, its tolerance of the layouts
// spec 2.1 allows, and an error naming file, line and problem for every kind of malformed input; the
// solution writer and reader round trip.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInstance } from '../../src/formats/roadef-2009/read-instance.ts';
import { formatSolution, parseSolution, readSolution, writeSolution } from '../../src/formats/roadef-2009/solution.ts';
import { RoadefFormatError, formatInstant, legKey, parseDate } from '../../src/formats/roadef-2009/text.ts';
import { roadefReferencePlan } from '../../src/recovery/roadef-adapter.ts';
import { instance, instanceDir } from './support.ts';

const DAY = parseDate('07/01/06')!;

/** A copy of A01 in a temporary folder, with `edit(fileName, text) => text` applied to every file. */
function editedA01(edit: (file: string, text: string) => string | null): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'roadef-read-')), 'A01');
  cpSync(instanceDir('A01'), dir, { recursive: true });
  for (const file of readdirSync(dir)) {
    const path = join(dir, file);
    const text = edit(file, readFileSync(path, 'utf8'));
    if (text === null) rmSync(path); else writeFileSync(path, text);
  }
  return dir;
}

function readError(dir: string): RoadefFormatError {
  try {
    readInstance(dir);
  } catch (error) {
    if (error instanceof RoadefFormatError) return error;
    throw error;
  }
  throw new Error('the instance was read without an error');
}

/** Replace line `n` (1-based) of one file. */
const replaceLine = (file: string, n: number, line: string) => (name: string, text: string) => {
  if (name !== file) return text;
  const lines = text.split('\n');
  lines[n - 1] = line;
  return lines.join('\n');
};

describe('reading A01-A04: the figures of spec 7.2', () => {
  it('A01: fleet, plan, bookings, positions, window and disruptions', () => {
    const a01 = instance('A01');
    expect(a01.aircraft.size).toBe(85);
    expect([...a01.aircraft.values()].filter((a) => a.family === 'TranspCom')).toHaveLength(4);
    expect(new Set([...a01.aircraft.values()].filter((a) => a.family !== 'TranspCom').map((a) => a.family)).size).toBe(5);
    expect([...a01.aircraft.values()].filter((a) => a.maintenance).map((a) => a.id).sort()).toEqual(['A319#15', 'A319#16', 'A320#23']);
    expect(a01.legs).toHaveLength(608);
    expect(a01.legs.filter((l) => l.depMinutes < a01.config.windowStartMinutes)).toHaveLength(299);
    expect([...a01.flights.values()].filter((f) => f.previous !== 0)).toHaveLength(4);
    expect(a01.airportCapacity.size).toBe(35);
    expect(a01.routes.size).toBe(1190);
    expect(a01.itineraries).toHaveLength(1943);
    expect(a01.itineraries.filter((i) => i.direction === 'A')).toHaveLength(1116);
    expect([1, 2, 4].map((n) => a01.itineraries.filter((i) => i.legs.length === n).length)).toEqual([971, 917, 55]);
    expect(a01.itineraries.reduce((sum, i) => sum + i.passengers, 0)).toBe(36_010);
    expect(a01.positions.reduce((sum, p) => sum + p.count, 0)).toBe(81);
    expect(new Set(a01.positions.map((p) => p.airport)).size).toBe(30);
    expect(formatInstant(a01.config.windowStartMinutes)).toBe('07/01/06 12:00');
    expect(formatInstant(a01.config.windowEndMinutes)).toBe('08/01/06 04:00');
    const delays = a01.flightDisruptions.map((d) => d.delayMinutes);
    expect([delays.length, Math.min(...delays), Math.max(...delays)]).toEqual([63, 4, 120]);
    expect(a01.aircraftUnavailability).toEqual([]);
    expect(a01.capacityReductions).toEqual([]);
    expect(a01.config.positionPenalty).toEqual({ family: 20000, model: 5000, configuration: 1000 });
  });

  it('A02-A04: their windows and disruptions', () => {
    const window = (name: 'A02' | 'A03' | 'A04') => formatInstant(instance(name).config.windowStartMinutes);
    expect([window('A02'), window('A03'), window('A04')]).toEqual(['07/01/06 16:00', '07/01/06 14:00', '07/01/06 10:00']);
    const summary = (name: 'A02' | 'A03' | 'A04') => {
      const d = instance(name).flightDisruptions;
      const delays = d.filter((x) => x.delayMinutes >= 0).map((x) => x.delayMinutes);
      return [delays.length, Math.min(...delays), Math.max(...delays), d.length - delays.length];
    };
    expect(summary('A02')).toEqual([106, 1, 180, 1]);
    expect(summary('A03')).toEqual([79, 1, 189, 4]);
    expect(summary('A04')).toEqual([41, 7, 165, 0]);
    expect(instance('A03').aircraftUnavailability.map((u) => [u.aircraft, formatInstant(u.startMinutes), formatInstant(u.endMinutes)])).toEqual([['A321#2', '07/01/06 13:00', '08/01/06 04:00']]);
    expect(instance('A04').capacityReductions).toHaveLength(4);
  });

  it('times: HH:MM+N is N days after the leg\'s date; airport windows end at midnight for 00:00; maintenance is parsed', () => {
    const a01 = instance('A01');
    const leg72 = a01.legsByKey.get(legKey(72, DAY))!;
    expect([formatInstant(leg72.depMinutes), formatInstant(leg72.arrMinutes)]).toEqual(['07/01/06 23:40', '08/01/06 00:10']);
    expect(a01.airportCapacity.get('BIQ')!.at(-1)).toEqual({ departures: 1, arrivals: 1, fromMinute: 22 * 60, toMinute: 1440 });
    expect(a01.airportCapacity.get('BIA')).toEqual([{ departures: 1, arrivals: 1, fromMinute: 0, toMinute: 1440 }]);
    const m = a01.aircraft.get('A319#15')!.maintenance!;
    expect([m.airport, formatInstant(m.startMinutes), formatInstant(m.endMinutes), m.maxFlyingMinutes]).toEqual(['CDG', '07/01/06 10:00', '07/01/06 15:00', 120]);
    expect(a01.aircraft.get('TranspCom#1')!.seats).toEqual({ F: -1, B: -1, E: -1 });
  });
});

describe('layouts the reader accepts (spec 2.1)', () => {
  it('CR LF line ends, blank lines, % comment lines, extra blanks and lines after the closing # read as the published files', () => {
    const dir = editedA01((_, text) => {
      const lines = text.split('\n').map((l) => l.replace(/ /g, '  '));
      return ['% a comment line', '', ...lines.slice(0, 1), '', ...lines.slice(1)].join('\r\n') + '\r\nanything after the end\r\n';
    });
    const edited = readInstance(dir);
    const published = instance('A01');
    const withoutLine = (legs: typeof published.legs) => legs.map(({ line: _, ...leg }) => leg);
    expect(withoutLine(edited.legs)).toEqual(withoutLine(published.legs));
    expect(edited.itineraries).toEqual(published.itineraries);
    expect(edited.config).toEqual(published.config);
    expect([...edited.aircraft.values()]).toEqual([...published.aircraft.values()]);
    expect([...edited.airportCapacity.entries()]).toEqual([...published.airportCapacity.entries()]);
    expect(edited.positions).toEqual(published.positions);
  });
});

describe('malformed instances: one error naming the file, the line and the problem', () => {
  const cases: [string, (file: string, text: string) => string | null, RegExp][] = [
    ['a missing file', (file, text) => (file === 'alt_airports.csv' ? null : text), /alt_airports\.csv: cannot be read \(ENOENT\)$/],
    ['a file cut short (no closing #)', (file, text) => (file === 'flights.csv' ? text.slice(0, text.lastIndexOf('#')) : text), /flights\.csv: has no closing '#' line/],
    ['an impossible clock time', replaceLine('flights.csv', 3, '3 CDG ORY 25:40 01:10 0'), /flights\.csv line 3: DEP '25:40' is not an HH:MM or HH:MM\+N time$/],
    ['an impossible date', replaceLine('rotations.csv', 2, '4343 31/02/06 CRJ100#1'), /rotations\.csv line 2: DATE '31\/02\/06' is not a DD\/MM\/YY date$/],
    ['a rotation naming an unknown flight', replaceLine('rotations.csv', 5, '9999 07/01/06 CRJ100#1'), /rotations\.csv line 5: flight 9999 is not in flights\.csv$/],
    ['a rotation naming an unknown aircraft', replaceLine('rotations.csv', 5, '4352 07/01/06 CRJ999#1'), /rotations\.csv line 5: aircraft CRJ999#1 is not in aircraft\.csv$/],
    ['a booking on a leg that is not planned', replaceLine('itineraries.csv', 1, '1 A 200.0 10 4344 08/01/06 E'), /itineraries\.csv line 1: leg 4344 08\/01\/06 is not a planned leg of rotations\.csv$/],
    ['a booking with an unknown cabin', replaceLine('itineraries.csv', 1, '1 A 200.0 10 4344 07/01/06 P'), /itineraries\.csv line 1: CABIN 'P' must be one of F, B, E$/],
    ['seats that are not F/B/E', replaceLine('aircraft.csv', 1, 'A318#1 A318 Airbus 0/123 450 1800.0 30 30 CFE NULL'), /aircraft\.csv line 1: SEATS '0\/123' must be F\/B\/E seat counts/],
    ['a malformed maintenance', replaceLine('aircraft.csv', 1, 'A318#1 A318 Airbus 0/0/123 450 1800.0 30 30 CFE CDG-07/01/06-10:00'), /aircraft\.csv line 1: MAINTENANCE 'CDG-07\/01\/06-10:00' must be NULL or AIRPORT-DATE1-TIME1-DATE2-TIME2-MAXFLY$/],
    ['a config with a missing line', (file, text) => (file === 'config.csv' ? text.split('\n').slice(1).join('\n') : text), /config\.csv: expected 7 record lines before '#', found 6$/],
    ['a disruption of an unplanned leg', replaceLine('alt_flights.csv', 1, '145 08/01/06 9'), /alt_flights\.csv line 1: leg 145 08\/01\/06 is not a planned leg of rotations\.csv$/],
    ['a duplicate flight number', replaceLine('flights.csv', 2, '1 CDG ORY 00:20 00:50 0'), /flights\.csv line 2: flight 1 is listed twice$/],
    ['a flight whose route dist.csv does not know', replaceLine('flights.csv', 1, '1 CDG XXX 00:00 00:30 0'), /flights\.csv line 1: flight 1: the pair CDG-XXX is not in dist\.csv$/],
  ];
  for (const [what, edit, message] of cases) {
    it(what, () => {
      const error = readError(editedA01(edit));
      expect(error.message).toMatch(message);
      expect(error.file.startsWith(join(tmpdir()))).toBe(true);
    });
  }
});

describe('solution files', () => {
  it('the reference plan of A03 written and read back gives the same records, times past midnight as +N', () => {
    const a03 = instance('A03');
    const solution = roadefReferencePlan(a03);
    const dir = mkdtempSync(join(tmpdir(), 'roadef-sol-'));
    writeSolution(dir, solution);
    const back = readSolution(dir);
    expect(back.problems).toEqual([]);
    expect(back.rotations.map(({ line: _, ...r }) => r)).toEqual(solution.rotations);
    const byId = (lines: { itinerary: number }[]) => [...lines].sort((x, y) => x.itinerary - y.itinerary);
    expect(byId(back.itineraries.map(({ line: _, legsAfterCancellation: __, ...s }) => s))).toEqual(byId([...solution.itineraries]));
    const text = readFileSync(join(dir, 'sol_rotations.csv'), 'utf8');
    expect(text).toContain('72 CDG ORY 23:40 00:10+1 0 07/01/06 TranspCom#4\n');
    expect(text.endsWith('\n#\n')).toBe(true);
    expect(text.split('\n').some((l) => l !== l.trimEnd())).toBe(false);
  });

  it('lines without legs are written first (the official cost checker then prices them as the spec does)', () => {
    const { itineraries } = formatSolution(roadefReferencePlan(instance('A01')));
    const lines = itineraries.trimEnd().split('\n').slice(0, -1);
    const firstWithLegs = lines.findIndex((l) => l.split(' ').length > 5);
    expect(firstWithLegs).toBeGreaterThan(0);
    expect(lines.slice(firstWithLegs).every((l) => l.split(' ').length > 5)).toBe(true);
  });

  it('malformed records are findings with file and line, the others are read', () => {
    const read = parseSolution({
      rotations: ['4344 BIQ ORY 06:08 07:28 0 07/01/06 CRJ100#1', '4343 ORY BIQ 07:55', '4502 BIQ CDG 11:35 13:05 x 07/01/06 CRJ100#1', '#'].join('\n'),
      itineraries: ['1 A 200.0 10 4344 07/01/06 E', '2 A 287.5 3 4344 07/01/06', '3 R 200.0 16 cancelled cancelled'].join('\n'),
    });
    expect(read.rotations.map((r) => r.flight)).toEqual([4344]);
    expect(read.itineraries.map((s) => s.itinerary)).toEqual([1]);
    expect(read.problems).toEqual([
      { file: 'sol_rotations.csv', line: 2, problem: 'expected 8 fields (FLIGHT ORIG DEST DEP ARR PREV DATE AIRCRAFT), found 4' },
      { file: 'sol_rotations.csv', line: 3, problem: "PREV 'x' is not an integer" },
      { file: 'sol_itineraries.csv', line: null, problem: "has no closing '#' line (cut short?)" },
      { file: 'sol_itineraries.csv', line: 2, problem: 'legs must be complete FLIGHT DATE CABIN triples (2 fields after PAX)' },
      { file: 'sol_itineraries.csv', line: 3, problem: "'cancelled' appears 2 times" },
    ]);
  });
});
