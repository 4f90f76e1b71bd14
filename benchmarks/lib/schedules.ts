// Loading the bundled schedules a benchmark run needs, once each.
import { join } from 'node:path';
import { type Schedule } from '../../src/domain/schedule.ts';
import { loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import { SCHEDULES_DIR, type Scenario } from './scenarios.ts';

export function schedulePath(name: string): string {
  return join(SCHEDULES_DIR, `${name}.json`);
}

export function loadSchedulesFor(scenarios: readonly Scenario[]): Map<string, Schedule> {
  const schedules = new Map<string, Schedule>();
  for (const name of new Set(scenarios.map((s) => s.schedule))) schedules.set(name, loadScheduleFile(schedulePath(name)));
  return schedules;
}
