// Instants on the page are epoch milliseconds (UTC). The API writes local times with numeric offsets
// (`2026-11-21T05:30:00+01:00`); the page shows them in UTC or in the local time of one airport, whose
// offset it reads from the API's own timestamps at that airport (a day's view: one offset per airport).

export interface DisplayZone {
  /** 'UTC' or an airport code. */
  label: string;
  offsetMinutes: number;
}

export const UTC_ZONE: DisplayZone = { label: 'UTC', offsetMinutes: 0 };

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

/** `HH:MM` of an instant in a zone. */
export function clock(ms: number, zone: DisplayZone): string {
  return new Date(ms + zone.offsetMinutes * 60_000).toISOString().slice(11, 16);
}

/** `YYYY-MM-DD HH:MM <zone>` of an instant. */
export function dateTime(ms: number, zone: DisplayZone): string {
  const text = new Date(ms + zone.offsetMinutes * 60_000).toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, 16)} ${zone.label}`;
}

/** ISO 8601 in UTC with Z, minute precision: what the editor pre-fills and the API accepts. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, ':00Z');
}
