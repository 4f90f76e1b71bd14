// Shared by the ROADEF tests: where the bundled data are, small readable edits of a calibration
// solution (set a field of one leg's record, add or drop a record, replace a passenger line), and A01
// imported as a schedule of the service.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RoadefInstance } from '../../src/formats/roadef-2009/instance.ts';
import { readInstance } from '../../src/formats/roadef-2009/read-instance.ts';
import { parseSolution, SOLUTION_ITINERARIES_FILE, SOLUTION_ROTATIONS_FILE } from '../../src/formats/roadef-2009/solution.ts';
import { scoreSolution, type ScoreReport } from '../../src/formats/roadef-2009/score/score.ts';
import { MINUTES_PER_DAY, parseClock, parseDate } from '../../src/formats/roadef-2009/text.ts';
import { roadefReferencePlan } from '../../src/recovery/roadef-adapter.ts';
import { roadefInstanceBounds, type InstanceBounds } from '../../src/recovery/roadef-bounds.ts';
import { formatSolution } from '../../src/formats/roadef-2009/solution.ts';
import { writeSyntheticInstance, type SyntheticSize } from '../../benchmarks/lib/roadef-synthetic.ts';
import { main as roadefCli } from '../../src/cli/roadef.ts';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';

export const REPO_DIR = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The published data, vendored byte for byte (benchmarks/roadef2009/PROVENANCE.md). */
export const DATA_DIR = resolve(REPO_DIR, 'benchmarks', 'roadef2009');
export const INSTANCE_NAMES = ['A01', 'A02', 'A03', 'A04'] as const;
export type InstanceName = (typeof INSTANCE_NAMES)[number];

export const instanceDir = (name: InstanceName) => join(DATA_DIR, name);
export const calibrationDir = (name: InstanceName) => join(DATA_DIR, 'calibration', name);

const instances = new Map<string, RoadefInstance>();
/** Each instance is read once per test file. */
export function instance(name: InstanceName): RoadefInstance {
  let read = instances.get(name);
  if (!read) instances.set(name, (read = readInstance(instanceDir(name))));
  return read;
}

const bounds = new Map<InstanceName, InstanceBounds>();
/** Each instance's lower bounds are computed once per test file (about 10 s of CPU each for A01-A04). */
export function instanceBounds(name: InstanceName): InstanceBounds {
  let computed = bounds.get(name);
  if (!computed) bounds.set(name, (computed = roadefInstanceBounds(instance(name))));
  return computed;
}

const ROTATION_FIELDS = ['flight', 'orig', 'dest', 'dep', 'arr', 'prev', 'date', 'aircraft'] as const;
type RotationField = (typeof ROTATION_FIELDS)[number];
const fieldsOf = (line: string) => line.split(/\s+/);

/**
 * A solution as editable text lines; every edit names what it changes, then `score()` judges it with
 * our scorer. Legs are named `FLIGHT DD/MM/YY`, passenger legs `FLIGHT DD/MM/YY CABIN`.
 */
export class SolutionEdit {
  private rotations: string[];
  private itineraries: string[];

  constructor(readonly instance: RoadefInstance, texts: { rotations: string; itineraries: string }) {
    this.rotations = recordLinesOf(texts.rotations);
    this.itineraries = recordLinesOf(texts.itineraries);
  }

  private rotationIndex(leg: string): number {
    const [flight, date] = leg.split(' ');
    const i = this.rotations.findIndex((l) => { const f = fieldsOf(l); return f[0] === flight && f[6] === date; });
    if (i === -1) throw new Error(`no record of leg ${leg} in the solution`);
    return i;
  }

  /** The record of a leg, as text. */
  rotation(leg: string): string {
    return this.rotations[this.rotationIndex(leg)]!;
  }

  /** Change fields of the record of a leg. */
  set(leg: string, fields: Partial<Record<RotationField, string>>): this {
    const i = this.rotationIndex(leg);
    const values = fieldsOf(this.rotations[i]!);
    for (const [name, value] of Object.entries(fields)) values[ROTATION_FIELDS.indexOf(name as RotationField)] = value!;
    this.rotations[i] = values.join(' ');
    return this;
  }

  addRotation(record: string): this {
    this.rotations.push(record);
    return this;
  }

  removeRotation(leg: string): this {
    this.rotations.splice(this.rotationIndex(leg), 1);
    return this;
  }

  /** Every leg `from` flies on or after `since` (a leg of `from`) is flown by `to` instead. */
  reassign(from: string, to: string, since: string): this {
    const departure = (f: string[]) => parseDate(f[6]!)! * MINUTES_PER_DAY + parseClock(f[3]!)!;
    const start = departure(fieldsOf(this.rotation(since)));
    this.rotations = this.rotations.map((l) => {
      const f = fieldsOf(l);
      if (f[7] !== from || departure(f) < start) return l;
      f[7] = to;
      return f.join(' ');
    });
    return this;
  }

  /** Cancel legs; their passengers stop where they are (each line keeps the legs before the first cancelled one). */
  cancelFlights(...legs: string[]): this {
    for (const leg of legs) this.set(leg, { aircraft: 'cancelled' });
    const cancelled = new Set(legs);
    this.itineraries = this.itineraries.map((line) => {
      const f = fieldsOf(line);
      const head = f.slice(0, 4);
      const triples: string[][] = [];
      for (let i = 4; i + 2 < f.length && f[i] !== 'cancelled'; i += 3) triples.push(f.slice(i, i + 3));
      const stop = triples.findIndex((t) => cancelled.has(`${t[0]} ${t[1]}`));
      if (stop === -1) return line;
      return [...head, ...triples.slice(0, stop).flat(), 'cancelled'].join(' ');
    });
    return this;
  }

  /** Passengers whose trip starts with `leg` are not carried at all (their lines become `cancelled` without legs). */
  dropPassengersBoarding(leg: string): this {
    this.itineraries = this.itineraries.map((line) => {
      const f = fieldsOf(line);
      return `${f[4]} ${f[5]}` === leg ? [...f.slice(0, 4), 'cancelled'].join(' ') : line;
    });
    return this;
  }

  /** The lines of itinerary `id`, as text. */
  lines(id: number): string[] {
    return this.itineraries.filter((l) => fieldsOf(l)[0] === String(id));
  }

  /** Replace every line of itinerary `id` by `lines`. */
  replaceLines(id: number, ...lines: string[]): this {
    const at = this.itineraries.findIndex((l) => fieldsOf(l)[0] === String(id));
    if (at === -1) throw new Error(`no line of itinerary ${id} in the solution`);
    this.itineraries = this.itineraries.filter((l) => fieldsOf(l)[0] !== String(id));
    this.itineraries.splice(at, 0, ...lines);
    return this;
  }

  /** The single line of itinerary `id` now travels on `legs` (each `FLIGHT DD/MM/YY CABIN`), its other fields unchanged. */
  retrip(id: number, ...legs: string[]): this {
    const [line, ...more] = this.lines(id);
    if (!line || more.length > 0) throw new Error(`itinerary ${id} must have exactly one line to retrip`);
    const f = fieldsOf(line);
    return this.replaceLines(id, [...f.slice(0, 4), ...legs, ...(f.includes('cancelled') ? ['cancelled'] : [])].join(' '));
  }

  addLine(line: string): this {
    this.itineraries.push(line);
    return this;
  }

  texts(): { rotations: string; itineraries: string } {
    return { rotations: [...this.rotations, '#'].join('\n'), itineraries: [...this.itineraries, '#'].join('\n') };
  }

  score(): ScoreReport {
    return scoreSolution(this.instance, parseSolution(this.texts()));
  }
}

function recordLinesOf(text: string): string[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const end = lines.findIndex((l) => l.startsWith('#'));
  return lines.slice(0, end === -1 ? lines.length : end).filter((l) => l !== '');
}

/** The calibration solution of an instance, ready to edit. */
export function calibration(name: InstanceName): SolutionEdit {
  const dir = calibrationDir(name);
  return new SolutionEdit(instance(name), {
    rotations: readFileSync(join(dir, SOLUTION_ROTATIONS_FILE), 'utf8'),
    itineraries: readFileSync(join(dir, SOLUTION_ITINERARIES_FILE), 'utf8'),
  });
}

/**
 * A small synthetic instance (three days, spare aircraft, ground shuttles, night maintenance, class I
 * bookings) for the rules the A instances cannot raise alone; generated once per test file. Its
 * spares wait at ZAA: A320#41, A321#42, B737#43, E190#44, CRJ700#45, B777#46 and TranspCom#3.
 */
export const RULE_TEST_SIZE: SyntheticSize = { aircraft: 49, flightNumbers: 168, days: 3, itineraries: 1500, seed: 1 };
let synthetic: RoadefInstance | undefined;
export function syntheticInstance(): RoadefInstance {
  synthetic ??= readInstance(writeSyntheticInstance(join(mkdtempSync(join(tmpdir(), 'roadef-synthetic-')), 'SYN'), RULE_TEST_SIZE));
  return synthetic;
}

/** The reference plan of the small synthetic instance, ready to edit. */
export function syntheticBaseline(): SolutionEdit {
  const read = syntheticInstance();
  return new SolutionEdit(read, formatSolution(roadefReferencePlan(read)));
}

/**
 * A01 imported by `npm run roadef -- import --name a01` into a fresh temporary folder, as a user does:
 * the CLI's own entry (main) in this process, which spares each file a child process that compiles the
 * CLI again (test/roadef/cli.test.ts runs the import as a child process, exit codes and all).
 * `dir` is the schedules folder to serve; `file` the JSON written there.
 */
export async function importedA01(): Promise<{ dir: string; file: ScheduleFile }> {
  const dir = mkdtempSync(join(tmpdir(), 'roadef-import-a01-'));
  const status = await roadefCli(['import', '--instance', instanceDir('A01'), '--name', 'a01', '--schedules-dir', dir]);
  if (status !== 0) throw new Error(`npm run roadef -- import of A01 exited ${status}`);
  return { dir, file: JSON.parse(readFileSync(join(dir, 'a01.json'), 'utf8')) as ScheduleFile };
}
