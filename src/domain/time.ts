// Time helpers. Inside the domain every instant is an integer number of minutes since the Unix
// epoch (UTC): schedules are planned to the minute, and integer minutes keep delay arithmetic exact.

const MS_PER_MINUTE = 60_000;

/** Minutes since the Unix epoch for an ISO 8601 instant; NaN when the text is not a valid instant. */
export function parseInstantMinutes(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? Number.NaN : Math.floor(ms / MS_PER_MINUTE);
}

/** ISO 8601 UTC with seconds precision and a trailing Z, e.g. 2026-11-21T08:30:00Z. */
export function formatUtc(minutes: number): string {
  return new Date(minutes * MS_PER_MINUTE).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Offsets already computed, per zone and quarter of an hour: every zone's offset is a multiple of 15
 * minutes and changes on a quarter hour, so one Intl call answers a whole quarter. A day's view
 * formats thousands of local times; Intl takes microseconds each. Bounded: cleared when large.
 */
const offsetsByQuarter = new Map<string, number>();
const MAX_CACHED_OFFSETS = 100_000;

/** UTC offset of an IANA time zone at an instant, in minutes east of Greenwich (e.g. +60 for CET). */
export function utcOffsetMinutes(timeZone: string, minutes: number): number {
  const key = `${timeZone} ${Math.floor(minutes / 15)}`;
  let offset = offsetsByQuarter.get(key);
  if (offset === undefined) {
    if (offsetsByQuarter.size >= MAX_CACHED_OFFSETS) offsetsByQuarter.clear();
    offset = intlOffsetMinutes(timeZone, minutes);
    offsetsByQuarter.set(key, offset);
  }
  return offset;
}

function intlOffsetMinutes(timeZone: string, minutes: number): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  const name = formatter.formatToParts(new Date(minutes * MS_PER_MINUTE))
    .find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0; // "GMT" alone means offset zero
  const sign = match[1] === '-' ? -1 : 1;
  return sign * (Number(match[2]) * 60 + Number(match[3]));
}

/** Local time of the airport with its numeric offset, e.g. 2026-11-21T09:30:00+01:00 (never Z). */
export function formatLocal(minutes: number, timeZone: string): string {
  const offset = utcOffsetMinutes(timeZone, minutes);
  const local = new Date((minutes + offset) * MS_PER_MINUTE).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}

/** Local wall-clock minute of the day (0..1439) at an airport, used by rule tables keyed on local time. */
export function localMinuteOfDay(minutes: number, timeZone: string): number {
  const local = minutes + utcOffsetMinutes(timeZone, minutes);
  return ((local % 1440) + 1440) % 1440;
}

// An ISO 8601 instant that carries its zone: date, time (seconds and fraction optional), Z or ±hh:mm.
const INSTANT_WITH_ZONE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/;

/**
 * Strict parse of a caller's timestamp: it must carry a zone and name a real calendar date and time
 * (Date.parse accepts 2026-02-30 and rolls it over; this does not). Returns minutes since the epoch
 * (seconds are floored), or null when the text is not such a timestamp.
 */
export function parseZonedInstant(text: string): number | null {
  const m = INSTANT_WITH_ZONE.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(m[i]));
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month! < 1 || month! > 12 || hour! > 23 || minute! > 59 || second > 59) return null;
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (day! < 1 || day! > daysInMonth) return null;
  if (m[7] !== 'Z' && (Number(m[8]) > 18 || Number(m[9]) > 59)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : Math.floor(ms / MS_PER_MINUTE);
}
