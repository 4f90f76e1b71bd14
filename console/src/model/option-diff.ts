// What an option changes, aircraft by aircraft: the rows of optionRows() compared lane against lane,
// each changed tail with a one-line summary a controller reads before looking at any bar
// ("OE-NVG: NV138, NV139 cancelled"). Nothing is re-planned here: every fact is a bar of the
// option's rows (from its rotations and cancellations) or a flag the response lists.
import type { FlightBar, GanttRow } from './gantt-model.ts';

export interface TailChange {
  tail: string;
  /** `NV138, NV139 cancelled; NV218 +90 min` (without the tail). */
  summary: string;
  /** The flights the summary names, in the order of the row (for focusing them). */
  flights: string[];
}

const numberOf = (flight: string) => flight.split('_')[0] ?? flight;

/** The changed rows of an option, in the rows' order; a row is changed when its after lane is not its before lane. */
export function changedTails(rows: readonly GanttRow[]): TailChange[] {
  const changes: TailChange[] = [];
  for (const row of rows) {
    const change = tailChange(row);
    if (change) changes.push(change);
  }
  return changes;
}

function tailChange(row: GanttRow): TailChange | null {
  // A bar both lanes share is no change of the option's (on a live day it may be delayed, swapped or
  // cancelled by an earlier revision).
  const unchanged = new Set(row.before);
  const afterLane = row.after ?? [];
  const afterIds = new Set(afterLane.map((b) => b.flight));
  const after = afterLane.filter((b) => !unchanged.has(b));
  const cancelled = after.filter((b) => b.kind === 'cancelled');
  const delayed = after.filter((b) => b.kind === 'delayed');
  const swappedIn = after.filter((b) => b.kind === 'swapped');
  const ferries = after.filter((b) => b.kind === 'new');
  // A planned flight missing from the after lane is flown by another aircraft (its bar is in that row).
  const givenAway = row.before.filter((b) => !afterIds.has(b.flight));
  const checksMoved = !sameChecks(row);
  const parts: string[] = [];
  const list = (bars: FlightBar[], text: (b: FlightBar) => string) => bars.map(text).join(', ');
  if (cancelled.length) parts.push(`${list(cancelled, (b) => numberOf(b.flight))} cancelled`);
  if (delayed.length) parts.push(list(delayed, (b) => `${numberOf(b.flight)} +${b.delayMinutes} min`));
  if (swappedIn.length) parts.push(list(swappedIn, (b) => `flies ${numberOf(b.flight)} (from ${b.plannedTail})${b.delayMinutes > 0 ? ` +${b.delayMinutes} min` : ''}`));
  if (givenAway.length) parts.push(`${list(givenAway, (b) => numberOf(b.flight))} flown by another aircraft`);
  if (ferries.length) parts.push(list(ferries, (b) => `ferry ${b.origin}→${b.dest}`));
  if (checksMoved) parts.push('maintenance re-planned');
  if (row.flags.length) parts.push(`⚠ ${row.flags.length} ${row.flags.length === 1 ? 'flag' : 'flags'}`);
  if (!parts.length) return null;
  const flights = [...cancelled, ...delayed, ...swappedIn, ...givenAway].sort((a, b) => a.depMs - b.depMs).map((b) => b.flight);
  return { tail: row.tail, summary: parts.join('; '), flights };
}

function sameChecks(row: GanttRow): boolean {
  if (row.maintenanceAfter === null) return true;
  const key = (blocks: GanttRow['maintenance']) => blocks.map((m) => `${m.type}@${m.station}:${m.startMs}-${m.endMs}`).sort().join('|');
  return key(row.maintenance) === key(row.maintenanceAfter);
}
