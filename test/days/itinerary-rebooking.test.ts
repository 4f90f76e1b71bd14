// A cancelled leg of a booking of several flights, on the live day (docs/model.md 1.6): the default
// day, NV138 delayed by 90 minutes. Its aircraft's next flight NV139 (BCN→VIE) carries booking
// NV-IT00595, which continues on NV256 (VIE→IST). Before the fix the integrated option cancelled
// NV139 and rebooked its passengers to VIE only (NV465 then NV219, landing 17:55, after NV256 had
// left): applied, the day's alerts named 5 broken connections. Now a cancelled leg breaks the
// itinerary and its passengers go from where they are to where the booking ends; whatever the
// integrated option does, applying it breaks no connection the opened day did not have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import type { DayResponse } from '../../src/http/day-schemas.ts';
import { checkOption } from '../oracle/checker.ts';
import { oracleConfig } from '../oracle/config.ts';
import { brokenConnections, checkDay, scheduleFileOfDay } from '../oracle/day.ts';
import type { DayStoreHandle } from '../../src/store/day-store-handle.ts';
import { freshPgliteDayStore } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { DEFAULT_SCHEDULE_FILE, httpClient } from './scenario.ts';

const DELAYED = 'NV138_2026-11-21T09:05:00Z';
const NV139 = 'NV139_2026-11-21T11:55:00Z';
const BOOKING = 'NV-IT00595';
const NOW = '2026-11-21T04:00:00Z';

let pool: SolverPool;
let server: TestServer;
let days: DayStoreHandle;
let remove: () => void;
beforeAll(async () => {
  pool = createSolverPool({ threads: 2, hardStopGraceMs: 300 });
  await pool.ready();
  ({ days, remove } = await freshPgliteDayStore());
  server = await startTestServer({ solver: pool, days, env: { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_SIMULATE_PER_MINUTE: '0' } });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await days?.close();
  remove?.();
  await pool?.close();
});

describe('a booking of several flights whose leg the applied option cancels (default day, NV138 +90)', () => {
  it('the integrated option takes its passengers to the end of their booking, and applied it leaves no new broken connection', async () => {
    const client = httpClient(server.baseUrl);
    const opened = await client.send('POST', '/days', { schedule_file: 'default' });
    expect(opened.status).toBe(201);
    const id = opened.body.id as string;
    const read = async () => (await client.send('GET', `/days/${id}`)).body as DayResponse;
    const connectionAlerts = async () => {
      const answer = await client.send('GET', `/days/${id}/alerts`);
      expect(answer.status).toBe(200);
      return (answer.body.alerts as { type: string; booking_id: string; arriving_flight: string; departing_flight: string }[])
        .filter((a) => a.type === 'connection').map((a) => `${a.booking_id}|${a.arriving_flight}|${a.departing_flight}`).sort();
    };
    const day1 = await read();
    const before = await connectionAlerts();
    expect(before).toEqual(brokenConnections(DEFAULT_SCHEDULE_FILE, day1));

    const simulation = await client.simulate(id, { scenario_id: 'nv138-90', disrupted_flight: DELAYED, min_delay_minutes: 90, now: NOW, config: { solver: { time_limit_ms: 10_000 } } });
    const option = simulation.options.find((o) => o.strategy === 'integrated');
    expect(option, JSON.stringify(simulation.unsolved_strategies)).toBeDefined();
    // The oracle's checker (its own passenger model: test/oracle/model.ts) finds the option sound.
    const schedule = scheduleFileOfDay(DEFAULT_SCHEDULE_FILE, day1, NOW);
    expect(checkOption({ schedule, disruptions: simulation.disruptions, airline: 'NV', config: oracleConfig(), option: option! })).toEqual([]);
    const booking = day1.passengers.find((b) => b.booking_id === BOOKING)!;
    expect(booking.flights).toContain(NV139);
    if (option!.action_set.cancellations.some((c) => c.flight === NV139)) {
      // The booking's passengers are the itinerary's group, re-accommodated to IST (or compensated), never to VIE only.
      const moves = option!.action_set.reaccommodations.filter((r) => r.itinerary_id === BOOKING);
      expect(moves.map((r) => [r.from_flight, r.reason])).toEqual(moves.map(() => [NV139, 'cancellation']));
      expect(moves.reduce((sum, r) => sum + r.passengers, 0)).toBe(booking.passengers);
      for (const r of moves.filter((m) => m.to_flights.length > 0)) {
        expect(day1.flights.find((f) => f.id === r.to_flights.at(-1))!.dest).toBe(booking.dest);
      }
    }

    const applied = await client.send('POST', `/days/${id}/apply`, { simulation_id: simulation.simulation_id, option_id: option!.option_id }, { 'If-Match': '"1"' });
    expect(applied.status, JSON.stringify(applied.body)).toBe(201);
    const day2 = await read();
    expect(checkDay(DEFAULT_SCHEDULE_FILE, day2, day1)).toEqual([]);
    const after = await connectionAlerts();
    expect(after).toEqual(brokenConnections(DEFAULT_SCHEDULE_FILE, day2));
    // No connection the option's plan breaks is left to the controller: each was re-accommodated.
    expect(after.filter((a) => !before.includes(a))).toEqual([]);
    const moved = day2.passengers.filter((b) => b.booking_id.split('@')[0] === BOOKING);
    expect(moved.reduce((sum, b) => sum + b.passengers, 0)).toBe(booking.passengers);
    for (const b of moved) {
      expect(b.dest).toBe(booking.dest);
      if (b.status !== 'stranded') expect(day2.flights.find((f) => f.id === b.flights.at(-1))!.dest).toBe(booking.dest);
    }
  }, 240_000);
});
