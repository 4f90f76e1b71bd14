// The least journey at zero prices (journeys.ts, leastJourneyCost: one pass by departure, kept per
// network and search), which the network bound asks for every disrupted group (docs/model.md 3.9,
// "Iteration cost"), must answer what the journey finder's search over the journeys themselves
// answers (JourneyFinder.least, a depth-first search that never visits an airport twice): checked on
// every search of the storm of issue 23, moved earlier and later, under dearer delays, and with a leg
// limit (where it asks the finder), each on a network of its own (nothing kept from another search) and then kept.
import { describe, expect, it } from 'vitest';
import { loadScheduleFile } from '../../src/formats/schedule-json/read-schedule.ts';
import type { SolverConfig } from '../../src/recovery/model/solver-config.ts';
import { JourneyFinder, leastJourneyCost, type JourneyNetwork, type JourneySearch } from '../../src/recovery/passengers/journeys.ts';
import { journeyNetwork } from '../../src/recovery/passengers/passengers.ts';
import { prepareSimulation } from '../../src/recovery/pipeline.ts';
import { ISSUE_23_STORM_REQUEST } from '../support/storms.ts';
import { config, fullRequest, type DisruptionBody } from './fixtures.ts';

const schedule = loadScheduleFile(new URL('../../schedules/default.json', import.meta.url).pathname);
const cfg = config({ solver: { time_limit_ms: 10_000 } });
const prepared = prepareSimulation(schedule, fullRequest({ disruptions: ISSUE_23_STORM_REQUEST as DisruptionBody[], config: cfg }));
const { groups } = prepared;
const searches: JourneySearch[] = [
  ...groups.cancellations.map((g) => g.search),
  ...groups.misconnections.flatMap((g) => [...g.connections.map((c) => c.search), ...(g.start ? [g.start.search] : [])]),
];

function byFinder(network: JourneyNetwork, c: SolverConfig, search: JourneySearch, maxLegs: number | null): number {
  return new JourneyFinder(network, c, search, () => true, maxLegs).least(new Float64Array(network.flights.length), search.compensationPerPassenger, () => false);
}

describe('the least journey at zero prices', () => {
  it('answers as the journey finder on every search of the issue storm, moved, dearer and with a leg limit', () => {
    const dearer = config({ ...cfg, cost_weights: { ...cfg.cost_weights, reaccommodation_delay_per_passenger_minute: 3 * cfg.cost_weights.reaccommodation_delay_per_passenger_minute } });
    let finite = 0;
    let none = 0;
    let compared = 0;
    for (const search of searches) {
      for (const shift of [0, -90, 120]) {
        const moved = { ...search, earliestMinutes: search.earliestMinutes + shift };
        for (const [c, legs] of [[cfg, null], [dearer, null], [cfg, 2]] as const) {
          const network = journeyNetwork(schedule, groups.network.flights);
          const expected = byFinder(network, c, moved, legs);
          expect(leastJourneyCost(network, c, moved, legs)).toBe(expected);
          // Kept: asked again on the same network, the same answer.
          expect(leastJourneyCost(network, c, moved, legs)).toBe(expected);
          compared++;
          if (Number.isFinite(expected)) finite++; else none++;
        }
      }
    }
    expect(searches.length).toBeGreaterThan(500);
    expect(compared).toBe(searches.length * 9);
    // Both kinds of answer are common: a journey cheaper than the compensation, and none.
    expect(finite).toBeGreaterThan(500);
    expect(none).toBeGreaterThan(500);
  });
});
