// Where a simulation's schedule comes from: the catalog's schedule by name, or, for a simulation on
// an operational day, that schedule as the day's revision changed it. The request carries the
// revision (its window and delta over the day as opened, a few kilobytes: domain/day/revision.ts), so
// the simulation thread and every job worker rebuild it from the base schedule they already hold;
// nothing is read from the database here. Rebuilt schedules are kept for the last few revisions, so
// that a second simulation of the same revision (another controller's, or a job's progress reads) does
// not rebuild it.
import { keptRecently } from '../domain/collections.ts';
import { scheduleOfRevision } from '../domain/day/revision.ts';
import type { Schedule } from '../domain/schedule.ts';
import type { ScheduleCatalog } from '../formats/schedule-json/schedule-catalog.ts';
import type { SimulationRequest } from '../recovery/pipeline.ts';

/** Revision schedules kept (each about a megabyte for the default schedule's 664 flights). */
const KEPT_REVISIONS = 8;

export interface ScheduleSource {
  /** The schedule `request` is to be solved on; throws when its schedule is not loaded (a programmer error: the API checked it). */
  scheduleFor(request: Pick<SimulationRequest, 'scheduleName' | 'revision'>): Schedule;
}

export function createScheduleSource(schedules: ScheduleCatalog): ScheduleSource {
  const kept = new Map<string, Schedule>();
  return {
    scheduleFor({ scheduleName, revision }) {
      const entry = schedules.resolve(scheduleName);
      if (!entry) throw new Error(`Schedule '${scheduleName}' is not loaded`);
      if (!revision) return entry.schedule;
      const key = `${entry.name}/${revision.dayId}/${revision.number}/${revision.nowMinutes}`;
      return keptRecently(kept, key, KEPT_REVISIONS, () => scheduleOfRevision(entry.schedule, revision).schedule);
    },
  };
}
