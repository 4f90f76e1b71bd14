// How many re-accommodation journeys a cancelled flight's passengers have, by the journeys' most
// flights (constraints.max_reaccommodation_legs): what decided its default (docs/model.md 2.3).
// Every flight of the schedule's airline counts as cancelled; only journeys below the compensation
// count, as in the model.
//
//   npx tsx benchmarks/journey-counts.ts [--schedules default,large] [--legs 1,2,3]
import { parseArgs } from 'node:util';
import { passengerGroups } from '../src/recovery/passengers.ts';
import { DEFAULT_SOLVER_CONFIG } from '../src/recovery/solver-config.ts';
import { loadScheduleFile } from '../src/formats/schedule-json/read-schedule.ts';
import { schedulePath } from './lib/schedules.ts';
import { median, percentile } from './lib/stats.ts';

const { values } = parseArgs({ options: { schedules: { type: 'string', default: 'default,large' }, legs: { type: 'string', default: '1,2,3' } } });
console.log('schedule | most flights | flights | journeys per flight: median, 90th percentile, most | search ms');
for (const name of values.schedules.split(',')) {
  const schedule = loadScheduleFile(schedulePath(name));
  for (const legs of values.legs.split(',').map(Number)) {
    const config = { ...DEFAULT_SOLVER_CONFIG, constraints: { ...DEFAULT_SOLVER_CONFIG.constraints, max_reaccommodation_legs: legs } };
    const started = performance.now();
    const counts: number[] = [];
    for (const [airline, flights] of schedule.flightsByAirline) {
      for (const group of passengerGroups(schedule, { airline, flights }, config).cancellations) counts.push(group.targets.length);
    }
    const ms = performance.now() - started;
    console.log(`${name} | ${legs} | ${counts.length} | ${median(counts)}, ${percentile(counts, 90)}, ${Math.max(...counts)} | ${Math.round(ms)}`);
  }
}
