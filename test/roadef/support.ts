// Shared by the ROADEF tests: where the bundled data are, and small readable edits of a calibration
// solution (set a field of one leg's record, add or drop a record, replace a passenger line).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RoadefInstance } from '../../src/formats/roadef-2009/instance.ts';
import { readInstance } from '../../src/formats/roadef-2009/read-instance.ts';
import { parseSolution, SOLUTION_ITINERARIES_FILE, SOLUTION_ROTATIONS_FILE } from '../../src/formats/roadef-2009/solution.ts';
import { scoreSolution, type ScoreReport } from '../../src/formats/roadef-2009/score/score.ts';

export const REPO_DIR = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The published data: `shared/` beside the repository (CI clones it there). */
export const DATA_DIR = resolve(REPO_DIR, '..', 'shared', 'data', 'roadef2009');
export const INSTANCE_NAMES = ['A01', 'A02', 'A03', 'A04'] as const;
export type InstanceName = (typeof INSTANCE_NAMES)[number];

if (!existsSync(DATA_DIR)) throw new Error(`The ROADEF 2009 data are expected at ${DATA_DIR} (the shared folder beside the repository).`);

export const instanceDir = (name: InstanceName) => join(DATA_DIR, name);
export const calibrationDir = (name: InstanceName) => join(DATA_DIR, 'calibration', name);

const instances = new Map<string, RoadefInstance>();
/** Each instance is read once per test file. */
export function instance(name: InstanceName): RoadefInstance {
  let read = instances.get(name);
  if (!read) instances.set(name, (read = readInstance(instanceDir(name))));
  return read;
}

function recordLines(path: string): string[] {
  const lines = readFileSync(path, 'utf8').split(/\r?\n/).map((l) => l.trim());
  return lines.slice(0, lines.findIndex((l) => l.startsWith('#')));
}

const ROTATION_FIELDS = ['flight', 'orig', 'dest', 'dep', 'arr', 'prev', 'date', 'aircraft'] as const;
type RotationField = (typeof ROTATION_FIELDS)[number];

/** A calibration solution as editable text lines; every edit names what it changes, then `score()`. */
export class SolutionEdit {
  private rotations: string[];
  private itineraries: string[];

  constructor(readonly name: InstanceName, texts?: { rotations: string[]; itineraries: string[] }) {
    this.rotations = texts?.rotations ?? recordLines(join(calibrationDir(name), SOLUTION_ROTATIONS_FILE));
    this.itineraries = texts?.itineraries ?? recordLines(join(calibrationDir(name), SOLUTION_ITINERARIES_FILE));
  }

  private rotationIndex(leg: string): number {
    const [flight, date] = leg.split(' ');
    const i = this.rotations.findIndex((l) => { const f = l.split(/\s+/); return f[0] === flight && f[6] === date; });
    if (i === -1) throw new Error(`no record of leg ${leg} in the ${this.name} solution`);
    return i;
  }

  /** The record of leg `FLIGHT DD/MM/YY`, as text. */
  rotation(leg: string): string {
    return this.rotations[this.rotationIndex(leg)]!;
  }

  /** Change fields of the record of leg `FLIGHT DD/MM/YY`. */
  set(leg: string, fields: Partial<Record<RotationField, string>>): this {
    const i = this.rotationIndex(leg);
    const values = this.rotations[i]!.split(/\s+/);
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

  /** The lines of itinerary `id`, as text. */
  lines(id: number): string[] {
    return this.itineraries.filter((l) => l.split(/\s+/)[0] === String(id));
  }

  /** Replace every line of itinerary `id` by `lines`. */
  replaceLines(id: number, ...lines: string[]): this {
    const at = this.itineraries.findIndex((l) => l.split(/\s+/)[0] === String(id));
    if (at === -1) throw new Error(`no line of itinerary ${id} in the ${this.name} solution`);
    this.itineraries = this.itineraries.filter((l) => l.split(/\s+/)[0] !== String(id));
    this.itineraries.splice(at, 0, ...lines);
    return this;
  }

  addLine(line: string): this {
    this.itineraries.push(line);
    return this;
  }

  texts(): { rotations: string; itineraries: string } {
    return { rotations: [...this.rotations, '#'].join('\n'), itineraries: [...this.itineraries, '#'].join('\n') };
  }

  score(): ScoreReport {
    return scoreSolution(instance(this.name), parseSolution(this.texts()));
  }
}

export const calibration = (name: InstanceName) => new SolutionEdit(name);
