// A strategy stopped by its time limit re-accommodates its passengers exactly for its own routes
// (column-generation.ts, exactPassengers; docs/model.md 3.4): before, its plan kept the journeys
// priced so far, and the independent checker (test/oracle/checker.ts, which shares no code with the
// engine) found a cheaper re-accommodation for the same aircraft decisions.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import { buildSchedule } from '../../src/formats/schedule-json/read-schedule.ts';
import { presentSimulation } from '../../src/http/recovery-presenter.ts';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import { simulate } from '../../src/recovery/pipeline.ts';
import { checkOption } from '../oracle/checker.ts';
import { oracleConfig } from '../oracle/config.ts';
import { config, inProcessSolver, request } from './fixtures.ts';

const file = JSON.parse(readFileSync(fileURLToPath(new URL('../../schedules/default.json', import.meta.url)), 'utf8')) as ScheduleFile;
const schedule = buildSchedule(file);
/** benchmarks/scenarios.json, default/breaks-crew-duty. */
const DELAYED = 'NV654_2026-11-21T04:30:00Z';
const DELAY_MINUTES = 120;
const LIMIT_MS = 10_000;

describe('a strategy stopped by its time limit', () => {
  it('unit: re-accommodates its passengers at the cheapest for its own routes, as the independent checker computes it', async () => {
    const solverConfig = config({ strategies: { evaluate: ['integrated'] }, solver: { time_limit_ms: LIMIT_MS } });
    // A stuck master: every LP relaxation answers only once 70 % of the limit has passed, after the
    // generation's share (60 %): the generation stops in its first round, before it priced any
    // journey of several flights. The 30 % left (less the read reserve, 400 ms) is at least ten times
    // what the integer plan and the exact re-accommodation take here.
    const started = performance.now();
    const stuck: Solver = {
      async solve(task, options) {
        const wait = started + 0.7 * LIMIT_MS - performance.now();
        if (task.relaxation && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        return inProcessSolver.solve(task, options);
      },
    };
    const result = presentSimulation(schedule, await simulate(schedule, request(DELAYED, DELAY_MINUTES, solverConfig), stuck));
    const option = result.options.find((o) => o.strategy === 'integrated')!;
    expect(option.solver.status).toBe('time_limit');
    const disruptions = [{ type: 'flight_delay' as const, flight: DELAYED, min_delay_minutes: DELAY_MINUTES }];
    // Without the exact re-accommodation: "The re-accommodation costs 14517.5 but the cheapest one for
    // these aircraft decisions costs 11992.5."
    expect(checkOption({ schedule: file, disruptions, airline: 'NV', config: oracleConfig(solverConfig), option })).toEqual([]);
  }, 60_000);
});
