// The common layout of every ROADEF 2009 file (spec 2.1): space-separated records, no header, ended by
// a line starting with `#`; dates `DD/MM/YY` (20YY) and clock times `HH:MM` or `HH:MM+N`.
// Times become absolute minutes (spec 1.1): days since 1970-01-01 × 1440 + minutes of the day.

export const MINUTES_PER_DAY = 1440;

/** A file, a line and what is wrong there: the one error every reader of this format throws. */
export class RoadefFormatError extends Error {
  constructor(readonly file: string, readonly line: number | null, readonly problem: string) {
    super(line === null ? `${file}: ${problem}` : `${file} line ${line}: ${problem}`);
  }
}

/** One record: its whitespace-separated fields and its 1-based line number in the file. */
export interface TextRecord { line: number; fields: string[] }

export interface SplitFile {
  records: TextRecord[];
  /** False when no line starting with `#` closes the file: it was cut short or is not of this format. */
  closed: boolean;
}

/**
 * Split a file's text into records. Accepts LF or CR LF line ends, blanks at line ends, blank lines
 * and `%` comment lines (skipped); stops at the first line starting with `#` (anything after it is
 * ignored, as the official programs do). A `#` inside a line (aircraft `A319#4`) is an ordinary
 * character.
 */
export function splitRecords(text: string): SplitFile {
  const records: TextRecord[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const trimmed = lines[i]!.trim();
    if (trimmed.startsWith('#')) return { records, closed: true };
    if (trimmed === '' || trimmed.startsWith('%')) continue;
    records.push({ line: i + 1, fields: trimmed.split(/\s+/) });
  }
  return { records, closed: false };
}

const DATE = /^(\d{2})\/(\d{2})\/(\d{2})$/;
const CLOCK = /^(\d{2}):(\d{2})(?:\+(\d+))?$/;
const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** Days since 1970-01-01 of `DD/MM/YY` (year 20YY), or null when it is no real calendar date. */
export function parseDate(text: string): number | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), 2000 + Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return null;
  const ms = Date.UTC(year, month - 1, day);
  if (new Date(ms).getUTCDate() !== day) return null;
  return ms / 86_400_000;
}

/** Minutes after midnight of the day it is relative to, `+N` adding N days; null when malformed. */
export function parseClock(text: string): number | null {
  const m = CLOCK.exec(text);
  if (!m) return null;
  const [hh, mm, days] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 0 : Number(m[3])];
  if (hh > 23 || mm > 59) return null;
  return days * MINUTES_PER_DAY + hh * 60 + mm;
}

/** A time of day without `+N` (airport capacity windows): minutes 0..1439, or null. */
export function parseTimeOfDay(text: string): number | null {
  return text.includes('+') ? null : parseClock(text);
}

export function parseInteger(text: string): number | null {
  return INTEGER.test(text) ? Number(text) : null;
}

export function parseDecimal(text: string): number | null {
  return DECIMAL.test(text) ? Number(text) : null;
}

/** `DD/MM/YY` of a day number. */
export function formatDate(day: number): string {
  const d = new Date(day * 86_400_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${two(d.getUTCFullYear() % 100)}`;
}

/**
 * The clock time of absolute minute `at` written relative to `day`: `HH:MM`, or `HH:MM+N` when it
 * falls N days later. `at` must not be before the day starts (times never go back in this format).
 */
export function formatClock(at: number, day: number): string {
  const offset = at - day * MINUTES_PER_DAY;
  if (offset < 0) throw new RangeError(`minute ${at} is before day ${day}: it has no HH:MM+N form`);
  const days = Math.floor(offset / MINUTES_PER_DAY);
  const minute = offset % MINUTES_PER_DAY;
  const text = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
  return days === 0 ? text : `${text}+${days}`;
}

/** `DD/MM/YY HH:MM` of an absolute minute, for messages and reports. */
export function formatInstant(at: number): string {
  const day = Math.floor(at / MINUTES_PER_DAY);
  return `${formatDate(day)} ${formatClock(at, day)}`;
}

/** The key of a leg, (flight number, date): flight numbers repeat on every date they are flown. */
export function legKey(flight: number, day: number): string {
  return `${flight}@${day}`;
}
