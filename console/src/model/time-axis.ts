// Instants on the page are epoch milliseconds (UTC). The API writes local times with numeric offsets
// (`2026-11-21T05:30:00+01:00`); the page shows them in UTC or in the local time of one airport, whose
// offset it reads from the API's own timestamps at that airport (a day's view: one offset per airport).
// One zone is chosen for the whole page: the axis, the details, the tooltip, the lists and every editor,
// where times are typed in that zone and sent to the service in UTC.

export interface DisplayZone {
  /** 'UTC' or an airport code. */
  label: string;
  offsetMinutes: number;
}

export const UTC_ZONE: DisplayZone = { label: 'UTC', offsetMinutes: 0 };

const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export function parseInstant(timestamp: string): number {
  return Date.parse(timestamp);
}

/** Offset of a timestamp's own zone, minutes east of UTC (`Z` is 0). */
export function offsetOf(timestamp: string): number {
  const match = /([+-])(\d\d):(\d\d)$/.exec(timestamp);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** The instant as a UTC Date whose UTC fields are the zone's wall clock. */
const wall = (ms: number, zone: DisplayZone) => new Date(ms + zone.offsetMinutes * MINUTE_MS);

/** `HH:MM` of an instant in a zone. */
export function clock(ms: number, zone: DisplayZone): string {
  return wall(ms, zone).toISOString().slice(11, 16);
}

/** `YYYY-MM-DD HH:MM <zone>` of an instant. */
export function dateTime(ms: number, zone: DisplayZone): string {
  const text = wall(ms, zone).toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, 16)} ${zone.label}`;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Sat 21 Nov 2026`: the zone's calendar date of an instant (the axis's date label). */
export function calendarDate(ms: number, zone: DisplayZone): string {
  const d = wall(ms, zone);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Every local midnight of the zone in [startMs, endMs]. */
export function midnights(startMs: number, endMs: number, zone: DisplayZone): number[] {
  const offsetMs = zone.offsetMinutes * MINUTE_MS;
  const found: number[] = [];
  for (let local = Math.ceil((startMs + offsetMs) / DAY_MS) * DAY_MS; local - offsetMs <= endMs; local += DAY_MS) found.push(local - offsetMs);
  return found;
}

/** The value of an `<input type="datetime-local">` showing the instant in the zone (minute precision). */
export function localInputValue(ms: number, zone: DisplayZone): string {
  return wall(ms, zone).toISOString().slice(0, 16);
}

/**
 * The instant a `datetime-local` value (`YYYY-MM-DDTHH:MM`, optionally with seconds) names in the
 * zone; NaN when the text is no such value or names no real date (30 February).
 */
export function fromLocalInput(value: string, zone: DisplayZone): number {
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?$/.exec(value);
  if (!match) return Number.NaN;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(asUtc);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return Number.NaN;
  return asUtc - zone.offsetMinutes * MINUTE_MS;
}

/** ISO 8601 in UTC with Z, minute precision: what the page sends the service. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, ':00Z');
}

/** `2 h 05 min`, `45 min`, `0 min` for a duration in minutes (negative: `−…`). */
export function duration(minutes: number): string {
  const sign = minutes < 0 ? '−' : '';
  const total = Math.round(Math.abs(minutes));
  const hours = Math.floor(total / 60);
  const rest = total % 60;
  return hours ? `${sign}${hours} h ${String(rest).padStart(2, '0')} min` : `${sign}${rest} min`;
}
