// Solution folders (spec section 3): sol_rotations.csv (every leg, flown or cancelled, and new
// flights) and sol_itineraries.csv (where the passengers go). The writer produces exactly what the
// official checkers read; the reader is lenient by design: a malformed record is not an exception but
// a finding (rule R1, `format`), so that a scorer can report it beside everything else it finds.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BookedLeg, Cabin } from './instance.ts';
import { MINUTES_PER_DAY, RoadefFormatError, formatClock, formatDate, parseClock, parseDate, parseInteger, splitRecords } from './text.ts';

export const SOLUTION_ROTATIONS_FILE = 'sol_rotations.csv';
export const SOLUTION_ITINERARIES_FILE = 'sol_itineraries.csv';
/** The AIRCRAFT field of a cancelled leg, and the word that ends the record of passengers who do not arrive. */
export const CANCELLED = 'cancelled';

/** A record of sol_rotations.csv. */
export interface SolutionLeg {
  flight: number;
  origin: string;
  dest: string;
  depMinutes: number;
  arrMinutes: number;
  /** Linked flight number, 0 if none. */
  previous: number;
  /** The leg's date (day number): a planned leg keeps its planned date even when delayed past midnight. */
  day: number;
  /** The operating aircraft, or null for a cancelled leg. */
  aircraft: string | null;
}

/** A record of sol_itineraries.csv: some passengers of one itinerary and the legs they travel on. */
export interface SolutionLine {
  itinerary: number;
  /** As written (A or R); the scorer compares it with the booking. */
  direction: string;
  /** As written; not used for cost (the booked price is). */
  price: string;
  passengers: number;
  legs: readonly BookedLeg[];
  /** The passengers do not reach their destination. */
  cancelled: boolean;
}

export interface RoadefSolution {
  rotations: readonly SolutionLeg[];
  itineraries: readonly SolutionLine[];
}

// ---- writing ---------------------------------------------------------------------------------------

function rotationText(r: SolutionLeg): string {
  return [r.flight, r.origin, r.dest, formatClock(r.depMinutes, r.day), formatClock(r.arrMinutes, r.day), r.previous, formatDate(r.day), r.aircraft ?? CANCELLED].join(' ');
}

function lineText(s: SolutionLine): string {
  const legs = s.legs.map((l) => `${l.flight} ${formatDate(l.day)} ${l.cabin}`);
  return [s.itinerary, s.direction, s.price, s.passengers, ...legs, ...(s.cancelled ? [CANCELLED] : [])].join(' ');
}

/**
 * The texts of the two files: single spaces, no trailing blanks, a closing `#` line. Lines without
 * legs come first: the official cost checker then prices them as the specification does (spec 5.7).
 */
export function formatSolution(solution: RoadefSolution): { rotations: string; itineraries: string } {
  const withoutLegs = solution.itineraries.filter((s) => s.legs.length === 0);
  const withLegs = solution.itineraries.filter((s) => s.legs.length > 0);
  return {
    rotations: `${[...solution.rotations.map(rotationText), '#'].join('\n')}\n`,
    itineraries: `${[...[...withoutLegs, ...withLegs].map(lineText), '#'].join('\n')}\n`,
  };
}

/** Write `solution` into folder `dir` (created if needed) as sol_rotations.csv and sol_itineraries.csv. */
export function writeSolution(dir: string, solution: RoadefSolution): void {
  mkdirSync(dir, { recursive: true });
  const texts = formatSolution(solution);
  writeFileSync(join(dir, SOLUTION_ROTATIONS_FILE), texts.rotations);
  writeFileSync(join(dir, SOLUTION_ITINERARIES_FILE), texts.itineraries);
}

// ---- reading ---------------------------------------------------------------------------------------

/** A malformed record or file of a solution (rule R1): where, and what is wrong. */
export interface FormatProblem { file: string; line: number | null; problem: string }

export interface ReadSolutionLeg extends SolutionLeg { line: number }
export interface ReadSolutionLine extends SolutionLine {
  line: number;
  /** Legs written after `cancelled` (rule R38); they are no part of the line otherwise. */
  legsAfterCancellation: readonly BookedLeg[];
}

export interface ReadSolution {
  rotations: ReadSolutionLeg[];
  itineraries: ReadSolutionLine[];
  /** Malformed records (skipped) and files without their closing `#`. */
  problems: FormatProblem[];
}

const CABIN_WORDS: readonly string[] = ['F', 'B', 'E'];

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new RoadefFormatError(path, null, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function parseRotation(fields: string[]): SolutionLeg | string {
  if (fields.length !== 8) return `expected 8 fields (FLIGHT ORIG DEST DEP ARR PREV DATE AIRCRAFT), found ${fields.length}`;
  const [flightText, origin, dest, depText, arrText, prevText, dateText, aircraft] = fields as [string, string, string, string, string, string, string, string];
  const flight = parseInteger(flightText);
  if (flight === null) return `FLIGHT '${flightText}' is not an integer`;
  const previous = parseInteger(prevText);
  if (previous === null) return `PREV '${prevText}' is not an integer`;
  const day = parseDate(dateText);
  if (day === null) return `DATE '${dateText}' is not a DD/MM/YY date`;
  const dep = parseClock(depText);
  if (dep === null) return `DEP '${depText}' is not an HH:MM or HH:MM+N time`;
  const arr = parseClock(arrText);
  if (arr === null) return `ARR '${arrText}' is not an HH:MM or HH:MM+N time`;
  const base = day * MINUTES_PER_DAY;
  return { flight, origin, dest, depMinutes: base + dep, arrMinutes: base + arr, previous, day, aircraft: aircraft === CANCELLED ? null : aircraft };
}

function parseLegs(fields: string[], from: number, to: number): BookedLeg[] | string {
  if ((to - from) % 3 !== 0) return `legs must be complete FLIGHT DATE CABIN triples (${to - from} fields after PAX${to < fields.length ? ' and before cancelled' : ''})`;
  const legs: BookedLeg[] = [];
  for (let i = from; i < to; i += 3) {
    const flight = parseInteger(fields[i]!);
    if (flight === null) return `leg FLIGHT '${fields[i]}' is not an integer`;
    const day = parseDate(fields[i + 1]!);
    if (day === null) return `leg DATE '${fields[i + 1]}' is not a DD/MM/YY date`;
    const cabin = fields[i + 2]!;
    if (!CABIN_WORDS.includes(cabin)) return `leg CABIN '${cabin}' must be F, B or E`;
    legs.push({ flight, day, cabin: cabin as Cabin });
  }
  return legs;
}

function parseLine(fields: string[]): Omit<ReadSolutionLine, 'line'> | string {
  if (fields.length < 4) return `expected at least 4 fields (ID DIRECTION PRICE PAX), found ${fields.length}`;
  const itinerary = parseInteger(fields[0]!);
  if (itinerary === null) return `ID '${fields[0]}' is not an integer`;
  const passengers = parseInteger(fields[3]!);
  if (passengers === null || passengers < 0) return `PAX '${fields[3]}' is not a non-negative integer`;
  const marks = fields.reduce((n, f) => n + (f === CANCELLED ? 1 : 0), 0);
  if (marks > 1) return `'${CANCELLED}' appears ${marks} times`;
  const at = fields.indexOf(CANCELLED);
  const end = at === -1 ? fields.length : at;
  const legs = parseLegs(fields, 4, end);
  if (typeof legs === 'string') return legs;
  const after = at === -1 ? [] : parseLegs(fields, at + 1, fields.length);
  if (typeof after === 'string') return `after '${CANCELLED}': ${after}`;
  return { itinerary, direction: fields[1]!, price: fields[2]!, passengers, legs, cancelled: at !== -1, legsAfterCancellation: after };
}

/**
 * Parse the texts of the two solution files. Malformed records are skipped and listed in `problems`
 * (rule R1) with file and line; nothing throws.
 */
export function parseSolution(texts: { rotations: string; itineraries: string }): ReadSolution {
  const problems: FormatProblem[] = [];
  const split = (name: string, text: string) => {
    const file = splitRecords(text);
    if (!file.closed) problems.push({ file: name, line: null, problem: "has no closing '#' line (cut short?)" });
    return file.records;
  };
  const rotations: ReadSolutionLeg[] = [];
  for (const record of split(SOLUTION_ROTATIONS_FILE, texts.rotations)) {
    const parsed = parseRotation(record.fields);
    if (typeof parsed === 'string') problems.push({ file: SOLUTION_ROTATIONS_FILE, line: record.line, problem: parsed });
    else rotations.push({ ...parsed, line: record.line });
  }
  const itineraries: ReadSolutionLine[] = [];
  for (const record of split(SOLUTION_ITINERARIES_FILE, texts.itineraries)) {
    const parsed = parseLine(record.fields);
    if (typeof parsed === 'string') problems.push({ file: SOLUTION_ITINERARIES_FILE, line: record.line, problem: parsed });
    else itineraries.push({ ...parsed, line: record.line });
  }
  return { rotations, itineraries, problems };
}

/** Read the solution folder `dir`; throws RoadefFormatError only when one of its two files cannot be read. */
export function readSolution(dir: string): ReadSolution {
  return parseSolution({
    rotations: readText(join(dir, SOLUTION_ROTATIONS_FILE)),
    itineraries: readText(join(dir, SOLUTION_ITINERARIES_FILE)),
  });
}
