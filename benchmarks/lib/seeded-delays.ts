// Single delays drawn with a fixed seed from a schedule: the "unseen" cases of the speed goals
// (issue 24), beside the committed scenarios. The same schedule and seed give the same delays on any
// machine (mulberry32, no clock): a flight of the airline uniformly at random, never one of the
// committed scenarios, with a delay from DELAYS.
import type { Schedule } from '../../src/domain/schedule.ts';
import { mulberry32 } from '../../schedules/generate.ts';
import type { Scenario } from './scenarios.ts';

/** The delays drawn from, minutes: the committed scenarios' range. */
const DELAYS = [30, 45, 60, 90, 120, 180, 240] as const;
export const DEFAULT_SEED = 24;

/** `count` single delays of `airline`'s flights in `schedule` (named `scheduleName`), none of `exclude`'s flights. */
export function seededSingleDelays(
  schedule: Schedule, scheduleName: Scenario['schedule'], template: Scenario, count: number, seed = DEFAULT_SEED, exclude: readonly Scenario[] = [],
): Scenario[] {
  const random = mulberry32(seed);
  const taken = new Set(exclude.map((s) => s.disrupted_flight));
  const flights = [...(schedule.flightsByAirline.get(template.airline) ?? [])].sort((p, q) => (p.id < q.id ? -1 : p.id > q.id ? 1 : 0));
  const drawn: Scenario[] = [];
  for (let tries = 0; drawn.length < count && tries < 100 * count; tries++) {
    const flight = flights[Math.floor(random() * flights.length)]!;
    const delay = DELAYS[Math.floor(random() * DELAYS.length)]!;
    if (taken.has(flight.id)) continue;
    taken.add(flight.id);
    const id = `seeded-${seed}-${drawn.length + 1}`;
    drawn.push({
      ...template, id, key: `${scheduleName}/${id}`, schedule: scheduleName, disrupted_flight: flight.id, min_delay_minutes: delay,
      description: `Seeded single delay ${drawn.length + 1} (seed ${seed}).`, tags: [], fast: false,
    });
  }
  return drawn;
}
