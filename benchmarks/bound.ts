// Bounds at network scale (docs/model.md 3.9): for the committed hub storms, the storm of issue 23
// (three inbounds to VIE 75 minutes late, a VIE aircraft out of service for six hours, VIE capped at 4
// departures and 4 arrivals an hour from 05:00 to 08:00 UTC; default schedule; the flights and the
// aircraft of test/http/storm.test.ts), its capacity cut alone and its aircraft out of service alone, simulate as the
// service does (the worker pool, default configuration) at the default 2 s and at 10 s, and print the
// best plan, the lower bound, the gap, when the first bound above 0 was known and the time.
//   npx tsx benchmarks/bound.ts            (nice -n 10 on a shared machine)
import { availableParallelism } from 'node:os';
import type { Disruption } from '../src/domain/disruption.ts';
import type { Schedule } from '../src/domain/schedule.ts';
import { simulate, type SimulationRequest } from '../src/recovery/pipeline.ts';
import { resolveSolverConfig } from '../src/recovery/model/solver-config.ts';
import { createSolverPool } from '../solver-wasm/pool.ts';
import { loadScenarios, simulationRequest } from './lib/scenarios.ts';
import { loadSchedulesFor } from './lib/schedules.ts';

const LIMITS_MS = [2000, 10_000];

const minutes = (iso: string) => Date.parse(iso) / 60_000;

/** VIE capped at 4 departures and 4 arrivals an hour from 05:00 to 08:00 UTC: the issue storm's capacity cut, alone. */
const VIE_CAPACITY: Disruption = { type: 'airport_capacity', airport: 'VIE', fromMinutes: minutes('2026-11-21T05:00:00Z'), toMinutes: minutes('2026-11-21T08:00:00Z'), maxDeparturesPerHour: 4, maxArrivalsPerHour: 4 };

/** OE-NWU (based at VIE) out of service from 05:00 to 11:00 UTC: the issue storm's aircraft, alone. */
const OE_NWU_OUT: Disruption = { type: 'aircraft_unavailable', tail: 'OE-NWU', fromMinutes: minutes('2026-11-21T05:00:00Z'), toMinutes: minutes('2026-11-21T11:00:00Z') };

/** The storm of issue 23 on the default schedule, as test/http/storm.test.ts posts it. */
function issueStorm(): Disruption[] {
  return [
    VIE_CAPACITY,
    OE_NWU_OUT,
    { type: 'flight_delay', flightId: 'NV644_2026-11-21T04:30:00Z', minDelayMinutes: 75 },
    { type: 'flight_delay', flightId: 'NV369_2026-11-21T06:10:00Z', minDelayMinutes: 75 },
    { type: 'flight_delay', flightId: 'NV415_2026-11-21T06:20:00Z', minDelayMinutes: 75 },
  ];
}

const storms = loadScenarios().filter((s) => s.id === 'hub-storm');
const schedules = loadSchedulesFor([...storms, { ...storms[0]!, schedule: 'default' }]);
const pool = createSolverPool({ threads: availableParallelism() });
try {
  const cases: { name: string; schedule: Schedule; request: (limitMs: number) => SimulationRequest }[] = [
    ...storms.map((s) => ({
      name: `${s.schedule}/${s.id}`, schedule: schedules.get(s.schedule)!,
      request: (limitMs: number) => simulationRequest(s, { ...s.solverConfig, solver: { ...s.solverConfig.solver, time_limit_ms: limitMs } }),
    })),
    ...([['issue-23-storm', issueStorm()], ['vie-capacity-cut', [VIE_CAPACITY]], ['oe-nwu-out-of-service', [OE_NWU_OUT]]] as const).map(([name, disruptions]) => ({
      name: `default/${name}`, schedule: schedules.get('default')!,
      request: (limitMs: number): SimulationRequest => {
        const resolved = resolveSolverConfig({ solver: { time_limit_ms: limitMs } });
        if (!resolved.valid) throw new Error('configuration');
        return { scenarioId: name, airline: 'NV', scheduleName: 'default', config: resolved.config, disruptions: [...disruptions], disruptedFlightId: null };
      },
    })),
  ];
  console.log('| storm | limit | best plan | lower bound | gap | first bound > 0 | answered in |');
  console.log('|---|---|---|---|---|---|---|');
  for (const c of cases) {
    for (const limitMs of LIMITS_MS) {
      let firstBoundMs: number | null = null;
      const started = performance.now();
      const result = await simulate(c.schedule, c.request(limitMs), pool, undefined, (p) => { if (firstBoundMs === null && (p.lowerBound ?? 0) > 0) firstBoundMs = p.elapsedMs; });
      const ms = Math.round(performance.now() - started);
      const option = result.options.find((o) => o.strategy === 'integrated') ?? result.options[0];
      const cost = option?.kpis.cost ?? null;
      const bound = option?.solver.lowerBound ?? null;
      const gap = option?.solver.mipGap ?? null;
      console.log(`| ${c.name} | ${limitMs / 1000} s | ${cost ?? '-'} | ${bound === null ? '-' : Math.round(bound)} | ${gap === null ? '-' : `${(100 * gap).toFixed(1)} %`} | ${firstBoundMs === null ? '-' : `${firstBoundMs} ms`} | ${ms} ms |`);
    }
  }
} finally {
  await pool.close();
}
