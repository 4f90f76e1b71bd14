// A revision of an operational day as a simulation names it: which day, which revision, and enough to
// rebuild the schedule the engine reads (the window and the revision's delta over the day as opened)
// from the base schedule any process already has. It is what a simulation request carries across
// the thread boundary or through Redis to a job worker.
import type { Schedule } from '../schedule.ts';
import { openDay, scheduleOfDay, type DayFacts, type DayState, type DayWindow } from './day.ts';
import { applyDelta, type DayDelta } from './delta.ts';

export interface ScheduleRevision {
  dayId: string;
  number: number;
  window: DayWindow;
  delta: DayDelta;
  /** The simulation's now: flights that have not left are estimated no earlier (epoch minutes). */
  nowMinutes: number;
}

/** The day's state of a revision, rebuilt on its base schedule. */
export function stateOfRevision(base: Schedule, revision: Pick<ScheduleRevision, 'window' | 'delta'>): DayState {
  return applyDelta(openDay(base, revision.window), revision.delta);
}

/** The schedule the engine reads for `revision` (scheduleOfDay at the revision's now). */
export function scheduleOfRevision(base: Schedule, revision: ScheduleRevision): { schedule: Schedule; facts: DayFacts } {
  return scheduleOfDay(base, stateOfRevision(base, revision), revision.nowMinutes);
}
