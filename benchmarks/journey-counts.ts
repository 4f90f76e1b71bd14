// How many re-accommodation journeys a cancelled flight's passengers have, by the journeys' most
// flights (constraints.max_reaccommodation_legs, 'any' for no limit), how long listing them all takes,
// and how long the search the column generation runs instead takes (the least journey at zero prices:
// JourneyFinder.least, docs/model.md 3.3). Every flight of the schedule's airline counts as
// cancelled; only journeys below the compensation count, as in the model; every flight may take
// passengers (no model decides seats here).
//
//   npx tsx benchmarks/journey-counts.ts [--schedules default,large] [--legs 1,2,3,any]
import { parseArgs } from 'node:util';
import { JourneyFinder } from '../src/recovery/passengers/journeys.ts';
import { passengerGroups } from '../src/recovery/passengers/passengers.ts';
import { DEFAULT_SOLVER_CONFIG } from '../src/recovery/model/solver-config.ts';
import { loadScheduleFile } from '../src/formats/schedule-json/read-schedule.ts';
import { schedulePath } from './lib/schedules.ts';
import { median, percentile } from './lib/stats.ts';

const { values } = parseArgs({ options: { schedules: { type: 'string', default: 'default,large' }, legs: { type: 'string', default: '1,2,3,any' } } });
console.log('schedule | most flights | flights | journeys per flight: median, 90th percentile, most | listing them, ms | least search, ms');
for (const name of values.schedules.split(',')) {
  const schedule = loadScheduleFile(schedulePath(name));
  for (const legs of values.legs.split(',').map((text) => (text === 'any' ? null : Number(text)))) {
    const config = { ...DEFAULT_SOLVER_CONFIG, constraints: { ...DEFAULT_SOLVER_CONFIG.constraints, max_reaccommodation_legs: legs } };
    const counts: number[] = [];
    let listingMs = 0;
    let searchMs = 0;
    for (const [airline, flights] of schedule.flightsByAirline) {
      const groups = passengerGroups(schedule, { airline, flights }, config);
      const zero = new Float64Array(groups.network.flights.length);
      for (const group of groups.cancellations) {
        const finder = new JourneyFinder(groups.network, config, group.search, () => true, legs);
        let started = performance.now();
        counts.push(finder.within(zero, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY).journeys.length);
        listingMs += performance.now() - started;
        started = performance.now();
        finder.least(zero, Number.POSITIVE_INFINITY, () => false);
        searchMs += performance.now() - started;
      }
    }
    console.log(`${name} | ${legs ?? 'any'} | ${counts.length} | ${median(counts)}, ${percentile(counts, 90)}, ${Math.max(...counts)} | ${Math.round(listingMs)} | ${Math.round(searchMs)}`);
  }
}
