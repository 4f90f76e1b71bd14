// SSIM Chapter 7: each record type read and written on its own (fields at their columns, malformed
// fields refused with the line), the import of the sample file (periods, days of operation, local
// times with UTC variations, date variations, onward flights, the aircraft rule), the command line,
// and the round trip as a property: random schedules -> SSIM -> import -> the same flights.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScheduleFileSchema, type ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import { buildSchedule } from '../../src/formats/schedule-json/read-schedule.ts';
import { ssimToScheduleFile } from '../../src/formats/ssim/read-ssim.ts';
import {
  formatSsimDate, parseSsimDate, readCarrier, readHeader, readLeg, readSegment, readTrailer, SsimFormatError, writeCarrier, writeHeader, writeLeg, writeTrailer,
  type LegRecord,
} from '../../src/formats/ssim/records.ts';
import { scheduleToSsim } from '../../src/formats/ssim/write-ssim.ts';

const ROOT = join(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'schedules/sample.ssim');
const at = (reason: string) => new SsimFormatError('test.ssim', 7, reason);
/** Column `from` (1-based) of a record replaced by `text`. */
const patch = (line: string, from: number, text: string) => line.slice(0, from - 1) + text + line.slice(from - 1 + text.length);
const refusal = (read: () => unknown) => {
  try { read(); } catch (error) { if (error instanceof SsimFormatError) return error.message; throw error; }
  throw new Error('not refused');
};

const LEG: LegRecord = {
  airline: 'NV', flightNumber: 301, itineraryVariation: 1, legSequence: 1, serviceType: 'J', periodFromDay: parseSsimDate('23NOV26')!, periodToDay: parseSsimDate('06DEC26')!,
  days: [5, 7], origin: 'VIE', depClock: 22 * 60 + 30, depVariation: 60, dest: 'ATH', arrClock: 110, arrVariation: 120, arrDateVariation: 1,
  aircraftType: '321', seats: 220, onward: { airline: 'NV', flightNumber: 302, layoverDays: 1 },
};

describe('SSIM records', () => {
  it('unit: dates are DDMMMYY and refuse days that do not exist', () => {
    expect(parseSsimDate('21NOV26')).toBe(Date.UTC(2026, 10, 21) / 86_400_000);
    expect(formatSsimDate(parseSsimDate('29FEB28')!)).toBe('29FEB28');
    for (const bad of ['29FEB27', '32JAN26', '21NOX26', '2NOV26', '21nov26']) expect(parseSsimDate(bad), bad).toBeNull();
  });

  it('unit: type 1, the header, names the data set in columns 2-35', () => {
    const line = writeHeader(1);
    expect(line).toHaveLength(200);
    expect(line.slice(0, 35)).toBe('1AIRLINE STANDARD SCHEDULE DATA SET');
    expect(line.slice(194)).toBe('000001');
    expect(() => readHeader(line, at)).not.toThrow();
    expect(refusal(() => readHeader(patch(line, 2, 'AIRLINE SCHEDULE'), at))).toMatch(/^test\.ssim:7: a header record \(type 1\) must say/);
  });

  it('unit: type 2, the carrier: time mode, airline, period of validity, title', () => {
    const carrier = { timeMode: 'L' as const, airline: 'NV', validFromDay: parseSsimDate('25OCT26')!, validToDay: parseSsimDate('27MAR27')!, title: 'NORTHVALE AIRWAYS' };
    const line = writeCarrier(carrier, 2, parseSsimDate('02NOV26')!);
    expect(line).toHaveLength(200);
    expect(line.slice(0, 35)).toBe('2LNV          25OCT2627MAR2702NOV26');
    expect(readCarrier(line, at)).toEqual(carrier);
    expect(refusal(() => readCarrier(patch(line, 2, 'X'), at))).toContain('time mode (column 2) must be U (UTC) or L (local)');
    expect(refusal(() => readCarrier(patch(line, 3, 'NVX'), at))).toContain('airline designator (columns 3-5)');
    expect(refusal(() => readCarrier(patch(line, 15, '31APR26'), at))).toContain('period of schedule validity (columns 15-28)');
    expect(refusal(() => readCarrier(patch(line, 22, '01JAN26'), at))).toContain('ends before it starts');
  });

  it('unit: type 3, the flight leg: every field at its columns, read back as written', () => {
    const line = writeLeg(LEG, 3);
    expect(line).toHaveLength(200);
    expect(line.slice(0, 75)).toBe('3 NV 03010101J23NOV2606DEC26    5 7 VIE22302230+0100  ATH01500150+0200  321');
    expect(line.slice(137, 145)).toBe('NV 03021');
    expect(line.slice(172, 176)).toBe('Y220');
    expect(line.slice(192, 194)).toBe('01');
    expect(readLeg(line, at)).toEqual(LEG);
    expect(readLeg(writeLeg({ ...LEG, onward: null, seats: null, arrDateVariation: -1 }, 3), at)).toEqual({ ...LEG, onward: null, seats: null, arrDateVariation: -1 });
  });

  it('unit: type 3 refuses each malformed field by name and columns', () => {
    const line = writeLeg(LEG, 3);
    const cases: [number, string, RegExp][] = [
      [2, 'A', /operational suffix \(column 2\)/],
      [6, '00A1', /flight number \(columns 6-9\)/],
      [15, '31NOV26', /period of operation \(columns 15-28\)/],
      [29, '1 3X5 7', /days of operation \(columns 29-35\)/],
      [29, '       ', /name no day/],
      [37, 'V1E', /departure station \(columns 37-39\)/],
      [44, '2460', /aircraft departure time \(columns 44-47\)/],
      [48, '+01X0', /departure UTC variation \(columns 48-52\)/],
      [58, '9999', /aircraft arrival time \(columns 58-61\)/],
      [66, '0200 ', /arrival UTC variation \(columns 66-70\)/],
      [73, '3 1', /aircraft type \(columns 73-75\)/],
      [138, 'NV 0X021', /onward flight \(columns 138-145\)/],
      [173, 'Y2#0', /aircraft configuration \(columns 173-192\)/],
      [194, 'Z', /date variations \(columns 193-194\)/],
    ];
    for (const [column, text, reason] of cases) expect(refusal(() => readLeg(patch(line, column, text), at)), `${column} ${text}`).toMatch(reason);
  });

  it('unit: type 4, segment data: a data element of a leg, its board and off points', () => {
    const line = patch(patch(patch(' '.repeat(200), 1, '4 NV 01020101J'), 31, '010LHRVIEBZ 7102'), 195, '000005');
    expect(readSegment(line, at)).toEqual({ dataElement: 10 });
    expect(refusal(() => readSegment(patch(line, 31, '1A0'), at))).toContain('data element identifier (columns 31-33)');
    expect(refusal(() => readSegment(patch(line, 34, 'L1R'), at))).toContain('board point');
  });

  it('unit: type 5, the trailer: airline, the serial number of the record before, end code', () => {
    const line = writeTrailer('NV', 12);
    expect(line.slice(0, 5)).toBe('5 NV ');
    expect(line.slice(187, 200)).toBe('000011E000012');
    expect(readTrailer(line, 11, at)).toEqual({ airline: 'NV' });
    expect(refusal(() => readTrailer(line, 10, at))).toContain('serial number check reference (columns 188-193) must be 000010');
    expect(refusal(() => readTrailer(patch(line, 194, 'X'), 11, at))).toContain('continuation/end code (column 194)');
  });
});

describe('SSIM import', () => {
  const sample = readFileSync(SAMPLE, 'latin1');
  const imported = ssimToScheduleFile(sample, 'sample.ssim', { name: 'sample' });

  it('scenario: the sample file expands every period into dated flights, in UTC from local times and UTC variations', () => {
    expect(ScheduleFileSchema.safeParse(imported).success).toBe(true);
    const schedule = buildSchedule(ScheduleFileSchema.parse(imported));
    // NV101 daily for 14 days; NV201 on weekdays (10); NV211 on weekends (4); BZ460 Mon/Wed/Fri (6).
    const count = (number: string) => imported.flights.filter((f) => f.flight_number === number).length;
    expect([count('NV101'), count('NV201'), count('NV211'), count('BZ460')]).toEqual([14, 10, 4, 6]);
    // 06:30 in Vienna (+01:00) is 05:30 UTC; 08:15 in London (+00:00) is 08:15 UTC.
    expect(imported.flights.find((f) => f.flight_number === 'NV101')).toMatchObject({ origin: 'VIE', dest: 'LHR', dep: '2026-11-23T05:30:00Z', arr: '2026-11-23T08:15:00Z' });
    // NV301 leaves Vienna on Friday 27 Nov at 22:30 local and lands in Athens at 01:50 local the next day (+1).
    expect(imported.flights.find((f) => f.flight_number === 'NV301')).toMatchObject({ dep: '2026-11-27T21:30:00Z', arr: '2026-11-27T23:50:00Z' });
    expect(schedule.flights.length).toBe(imported.flights.length);
    expect(imported.flights.every((f) => f.booked_passengers === 0)).toBe(true);
  });

  it('scenario: aircraft follow the onward flights, then wait for the next rotation of their type at the same station', () => {
    const tails = (number: string, dep: string) => imported.flights.find((f) => f.flight_number === number && f.dep.startsWith(dep))!.tail;
    // Rule 1: NV101 -> NV102 -> NV105 -> NV106 on one aircraft; NV301 on Friday night -> NV302 on Saturday
    // (it lands on Saturday: layover 0 days after its arrival).
    expect(new Set(['NV101', 'NV102', 'NV105', 'NV106'].map((n) => tails(n, '2026-11-24'))).size).toBe(1);
    expect(tails('NV302', '2026-11-28')).toBe(tails('NV301', '2026-11-27'));
    // Rule 2: the aircraft that ends the day in Vienna flies NV101 the next morning.
    expect(tails('NV101', '2026-11-25')).toBe(tails('NV106', '2026-11-24'));
    expect(imported.aircraft.map((a) => a.tail)).toEqual(expect.arrayContaining(['A320#1', 'E195#1', 'E190#1']));
    expect(imported.aircraft.find((a) => a.tail === 'A321#1')!.seats).toBe(220);
    // Every aircraft's flights chain in space and time, with at least the turnaround between them.
    for (const a of imported.aircraft) {
      const own = imported.flights.filter((f) => f.tail === a.tail).sort((x, y) => x.dep.localeCompare(y.dep));
      for (let i = 1; i < own.length; i++) {
        expect(own[i]!.origin, a.tail).toBe(own[i - 1]!.dest);
        expect(Date.parse(own[i]!.dep) - Date.parse(own[i - 1]!.arr)).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('scenario: a malformed record is refused with the file and its line', () => {
    const lines = sample.split('\n');
    const broken = [...lines];
    broken[3] = patch(broken[3]!, 44, '2561');
    expect(refusal(() => ssimToScheduleFile(broken.join('\n'), 'broken.ssim', { name: 'x' }))).toMatch(/^broken\.ssim:4: aircraft departure time \(columns 44-47\) must be a time HHMM, not '2561'$/);
    expect(refusal(() => ssimToScheduleFile(lines.slice(1).join('\n'), 'noheader.ssim', { name: 'x' }))).toMatch(/^noheader\.ssim:1: the file must start with a header record/);
    const noTrailer = lines.filter((l) => !l.startsWith('5 BZ')).join('\n');
    expect(refusal(() => ssimToScheduleFile(noTrailer, 'short.ssim', { name: 'x' }))).toContain('the section of carrier BZ has no trailer record (type 5)');
    expect(refusal(() => ssimToScheduleFile('hello\n', 'text.txt', { name: 'x' }))).toMatch(/^text\.txt:1: /);
  });
});

describe('SSIM round trip (property)', () => {
  const ZONES: Record<string, string> = { VIE: 'Europe/Vienna', LHR: 'Europe/London', JFK: 'America/New_York', DEL: 'Asia/Kolkata', NRT: 'Asia/Tokyo', LIS: 'Europe/Lisbon' };
  const codes = Object.keys(ZONES);
  const FLEETS = [{ code: 'A320', family: 'A320', seats: 180 }, { code: 'E195', family: 'E-JET', seats: 124 }];

  /** A random schedule: tails flying chained flights from a random instant in 2026-2027 (both DST changes in range). */
  const scheduleArbitrary = fc.array(fc.record({
    fleet: fc.constantFrom(0, 1),
    startMinutes: fc.integer({ min: 29_400_000, max: 29_950_000 }),
    legs: fc.array(fc.record({ dest: fc.constantFrom(...codes), block: fc.integer({ min: 35, max: 900 }), ground: fc.integer({ min: 30, max: 2000 }) }), { minLength: 1, maxLength: 6 }),
    origin: fc.constantFrom(...codes),
  }), { minLength: 1, maxLength: 8 }).map((tails): ScheduleFile => {
    let number = 1;
    const flights: ScheduleFile['flights'] = [];
    const aircraft = tails.map((t, i) => {
      const tail = `OE-T${String(i).padStart(2, '0')}A`;
      let at = t.startMinutes;
      let origin = t.origin;
      for (const leg of t.legs) {
        const dest = leg.dest === origin ? codes[(codes.indexOf(origin) + 1) % codes.length]! : leg.dest;
        const iso = (m: number) => new Date(m * 60_000).toISOString().replace(/\.000Z$/, 'Z');
        flights.push({ flight_number: `NV${number++}`, airline: 'NV', tail, origin, dest, dep: iso(at), arr: iso(at + leg.block), booked_passengers: 0 });
        at += leg.block + leg.ground;
        origin = dest;
      }
      return { tail, airline: 'NV', fleet: FLEETS[t.fleet]!.code, seats: FLEETS[t.fleet]!.seats, base: t.origin };
    });
    return {
      format_version: 1, name: 'random', description: 'random', operating_date: flights[0]!.dep.slice(0, 10),
      airlines: [{ code: 'NV', name: 'NORTHVALE' }],
      airports: codes.map((code) => ({ code, name: code, time_zone: ZONES[code]!, hub: false, maintenance_station: false, min_connection_minutes: 45 })),
      fleets: FLEETS, aircraft, flights, maintenance: [], crew: [], itineraries: [],
    };
  });

  it('property: random schedules -> SSIM -> import give the same flights, fleets and aircraft rotations', () => {
    fc.assert(fc.property(scheduleArbitrary, (original) => {
      const text = scheduleToSsim(original, { createdDay: 20_000 });
      expect(text.split('\n').filter((l) => l !== '').every((l) => l.length === 200)).toBe(true);
      const back = ssimToScheduleFile(text, 'random.ssim', { name: 'random', knownZones: new Map(Object.entries(ZONES)) });
      const fleetOf = (file: ScheduleFile) => new Map(file.aircraft.map((a) => [a.tail, a.fleet]));
      const key = (file: ScheduleFile) => {
        const fleets = fleetOf(file);
        return file.flights.map((f) => `${f.flight_number} ${f.origin}-${f.dest} ${f.dep} ${f.arr} ${fleets.get(f.tail)}`).sort();
      };
      expect(key(back)).toEqual(key(original));
      // Each pair of consecutive flights of one aircraft is consecutive on one aircraft after the import.
      const nextOf = (file: ScheduleFile) => {
        const next = new Map<string, string>();
        const byTail = new Map<string, ScheduleFile['flights']>();
        for (const f of file.flights) byTail.set(f.tail, [...(byTail.get(f.tail) ?? []), f]);
        for (const own of byTail.values()) {
          own.sort((a, b) => a.dep.localeCompare(b.dep));
          own.forEach((f, i) => { if (i + 1 < own.length) next.set(`${f.flight_number}@${f.dep}`, `${own[i + 1]!.flight_number}@${own[i + 1]!.dep}`); });
        }
        return next;
      };
      const imported = nextOf(back);
      for (const [flight, following] of nextOf(original)) expect(imported.get(flight), flight).toBe(following);
      // Local times survive: each airport keeps its zone.
      expect(back.airports.map((a) => a.time_zone)).toEqual(back.airports.map((a) => ZONES[a.code]));
    }), { numRuns: 150 });
  });
});

describe('npm run schedules -- import-ssim / export-ssim', () => {
  const tsx = join(ROOT, 'node_modules/.bin/tsx');
  const run = (...args: string[]) => spawnSync(tsx, [join(ROOT, 'schedules/generate.ts'), ...args], { encoding: 'utf8', cwd: ROOT });

  it('scenario: imports the sample into a schedules folder, refuses to overwrite without --force, and the service\'s checks accept it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssim-'));
    try {
      const first = run('import-ssim', SAMPLE, '--schedules-dir', dir);
      expect(first.status, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/wrote .*sample\.json: 153 flights, \d+ aircraft, 9 airports of NV, BZ/);
      const written = JSON.parse(readFileSync(join(dir, 'sample.json'), 'utf8')) as ScheduleFile;
      expect(written.flights).toHaveLength(153);
      const again = run('import-ssim', SAMPLE, '--schedules-dir', dir);
      expect(again.status).toBe(2);
      expect(again.stderr).toMatch(/exists; pass --force to replace it/);
      const broken = join(dir, 'broken.ssim');
      writeFileSync(broken, readFileSync(SAMPLE, 'latin1').replace('VIE06300630+0100', 'VIE06300630+01X0'));
      const refused = run('import-ssim', broken, '--schedules-dir', dir);
      expect(refused.status).toBe(2);
      expect(refused.stderr.trim()).toMatch(/broken\.ssim:3: departure UTC variation \(columns 48-52\)/);
      expect(existsSync(join(dir, 'broken.json'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scenario: export-ssim writes the bundled small schedule as SSIM that imports to the same flights', () => {
    const text = execFileSync(tsx, [join(ROOT, 'schedules/generate.ts'), 'export-ssim', '--schedule', 'small'], { encoding: 'utf8', cwd: ROOT });
    const small = JSON.parse(readFileSync(join(ROOT, 'schedules/small.json'), 'utf8')) as ScheduleFile;
    const back = ssimToScheduleFile(text, 'small.ssim', { name: 'small' });
    expect(back.flights.map((f) => `${f.flight_number} ${f.dep} ${f.arr}`).sort()).toEqual(small.flights.map((f) => `${f.flight_number} ${f.dep} ${f.arr}`).sort());
    expect(back.aircraft).toHaveLength(small.aircraft.length);
  });
});
