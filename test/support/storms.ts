// The storm of issue 23 as a request writes it (and the independent checker reads it), on flights of
// the default schedule (schedules/default.json): VIE capped at 4 departures and 4 arrivals an hour
// from 05:00 to 08:00 UTC, a VIE aircraft out of service for six hours, three inbounds 75 minutes
// late. benchmarks/storm.ts states the same storm in the domain's form (ISSUE_23_STORM).
import { loadScenarios, simulationRequest } from '../../benchmarks/lib/scenarios.ts';
import { loadSchedulesFor } from '../../benchmarks/lib/schedules.ts';
import { prepareSimulation } from '../../src/recovery/pipeline.ts';
import type { OracleDisruption } from '../oracle/model.ts';

export const ISSUE_23_STORM_REQUEST: OracleDisruption[] = [
  { type: 'airport_capacity', airport: 'VIE', from: '2026-11-21T05:00:00Z', to: '2026-11-21T08:00:00Z', max_departures_per_hour: 4, max_arrivals_per_hour: 4 },
  { type: 'aircraft_unavailable', tail: 'OE-NWU', from: '2026-11-21T05:00:00Z', to: '2026-11-21T11:00:00Z' },
  { type: 'flight_delay', flight: 'NV644_2026-11-21T04:30:00Z', min_delay_minutes: 75 },
  { type: 'flight_delay', flight: 'NV369_2026-11-21T06:10:00Z', min_delay_minutes: 75 },
  { type: 'flight_delay', flight: 'NV415_2026-11-21T06:20:00Z', min_delay_minutes: 75 },
];

/** The committed hub storm of a schedule (benchmarks/scenarios.json), prepared as the pipeline prepares it. */
export function committedHubStorm(scheduleName: string) {
  const scenario = loadScenarios().find((s) => s.schedule === scheduleName && s.id === 'hub-storm')!;
  const schedule = loadSchedulesFor([scenario]).get(scheduleName)!;
  const request = simulationRequest(scenario);
  return { schedule, request, prepared: prepareSimulation(schedule, request) };
}
