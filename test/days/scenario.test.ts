// Scenario: a day of operations over real HTTP on the embedded service (in-process runner on a real
// solver pool), once on PGlite and once on a PostgreSQL server (scenario.ts says what is checked);
// then the rules a second environment and bad input meet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createDayStore } from '../../src/store/day-store.ts';
import { openedDayStore, type DayStoreHandle } from '../../src/store/day-store-handle.ts';
import { migrate } from '../../src/store/migrations.ts';
import { freshPgliteDir, freshPostgresDatabase } from '../support/databases.ts';
import { PRODUCTION_KEY, startTestServer, type TestServer } from '../support/server.ts';
import { httpClient, runDayScenario } from './scenario.ts';

let pool: SolverPool;
beforeAll(async () => {
  pool = createSolverPool({ threads: 2, hardStopGraceMs: 300 });
  await pool.ready();
});
afterAll(async () => { await pool.close(); });

async function storeOn(backend: 'pglite' | 'postgres'): Promise<{ days: DayStoreHandle; cleanup: () => Promise<void> }> {
  const fresh = backend === 'pglite' ? await freshPgliteDir() : await freshPostgresDatabase();
  const db = await openDatabase('dir' in fresh ? { databaseUrl: null, pgliteDir: fresh.dir } : { databaseUrl: fresh.url, pgliteDir: '' });
  await migrate(db);
  const days = openedDayStore(createDayStore(db));
  return { days, cleanup: async () => { await days.close(); await ('dir' in fresh ? fresh.remove() : fresh.drop()); } };
}

for (const backend of ['pglite', 'postgres'] as const) {
  describe(`a day of operations over HTTP (${backend})`, () => {
    let server: TestServer;
    let cleanup: () => Promise<void>;
    let days: DayStoreHandle;
    beforeAll(async () => {
      ({ days, cleanup } = await storeOn(backend));
      server = await startTestServer({ solver: pool, days, env: { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_SIMULATE_PER_MINUTE: '0' } });
    }, 120_000);
    afterAll(async () => {
      await server.close();
      await cleanup();
    });

    it('scenario: open, delay, apply, movements, delay again, two controllers at once, revert: the oracle finds every step sound', async () => {
      await runDayScenario(httpClient(server.baseUrl));
    }, 240_000);

    it('scenario: another environment\'s key sees none of the days, even on the same database', async () => {
      const opened = await httpClient(server.baseUrl).send('POST', '/days', {});
      expect(opened.status).toBe(201);
      const production = await startTestServer({ days, env: { APP_ENV: 'production', API_KEYS: PRODUCTION_KEY } });
      try {
        const other = httpClient(production.baseUrl, PRODUCTION_KEY);
        for (const path of [`/days/${opened.body.id}`, `/days/${opened.body.id}/revisions`, `/days/${opened.body.id}/revisions/1`, `/days/${opened.body.id}/alerts`]) {
          const answer = await other.send('GET', path);
          expect(answer.status, path).toBe(404);
          expect(answer.body.detail).toMatch(/another environment/);
        }
        expect((await other.send('GET', '/days')).body.days).toEqual([]);
        expect((await other.send('POST', `/days/${opened.body.id}/movements`, { movements: [{ flight: 'NV146_2026-11-21T07:50:00Z', tail: 'OE-NVA', off_block: '2026-11-21T07:50:00Z' }] })).status).toBe(404);
      } finally {
        await production.close();
      }
    });

    it('scenario: bad input gets a 4xx with a sentence: unknown flight, wrong tail, out-of-order times, future times, unknown revision, an option from another day', async () => {
      const client = httpClient(server.baseUrl);
      const id = (await client.send('POST', '/days', { schedule_file: 'small' })).body.id as string;
      const other = (await client.send('POST', '/days', { schedule_file: 'small' })).body.id as string;
      const day = (await client.send('GET', `/days/${id}`)).body as { flights: { id: string; tail: string; scheduled: { dep: string } }[] };
      const first = day.flights[0]!;
      const move = (m: Record<string, unknown>, now = '2026-11-21T23:00:00Z') => client.send('POST', `/days/${id}/movements`, { now, movements: [{ flight: first.id, tail: first.tail, ...m }] });
      const cases: [Promise<{ status: number; body: { detail: string } }>, number, RegExp][] = [
        [client.send('POST', `/days/${id}/movements`, { movements: [{ flight: 'NV999_2026-11-21T05:00:00Z', tail: first.tail, off_block: '2026-11-21T05:00:00Z' }], now: '2026-11-21T23:00:00Z' }), 400, /is not a flight of this day/],
        [move({ tail: 'XX-XXX', off_block: first.scheduled.dep }), 400, /does not fly this flight/],
        [move({ off_block: '2026-11-21T06:00:00Z', airborne: '2026-11-21T05:50:00Z' }), 400, /airborne is before off_block/],
        [move({ off_block: '2026-11-21T06:00:00Z' }, '2026-11-21T05:00:00Z'), 400, /after now/],
        [move({}), 400, /at least one of/],
        [client.send('GET', `/days/${id}/revisions/7`), 404, /Revision 7 .* not found/],
        [client.send('GET', `/days/${id}/revisions/0`), 400, /revision number/],
        [client.send('POST', `/days/${id}/revert`, { revision: 9 }, { 'If-Match': '"1"' }), 404, /Revision 9/],
        [client.send('GET', '/days/not-a-day'), 400, /day id/],
        [client.send('GET', `/days/${crypto.randomUUID()}`), 404, /Day not found/],
        [client.send('POST', `/days/${id}/apply`, { simulation_id: crypto.randomUUID(), option_id: 'opt_integrated' }, { 'If-Match': '"1"' }), 404, /Simulation .* not found/],
        [client.send('POST', `/days/${id}/apply`, { simulation_id: 'x', option_id: 'opt_integrated' }, { 'If-Match': 'yesterday' }), 400, /If-Match/],
        [client.send('POST', '/days', { schedule_file: 'small', from: '2026-11-21T10:00:00Z', to: '2026-11-21T09:00:00Z' }), 400, /after 'from'/],
        [client.send('POST', '/days', { schedule_file: 'nope' }), 404, /Schedule 'nope' not found/],
      ];
      for (const [answer, status, detail] of cases) {
        const { status: got, body } = await answer;
        expect({ got, detail: body.detail }).toEqual({ got: status, detail: expect.stringMatching(detail) });
      }
      // An option from another day: a simulation of `other` cannot be applied to `id`.
      const small = (await client.send('GET', `/days/${other}`)).body as { flights: { id: string; airline: string; tail: string; scheduled: { dep: string } }[] };
      // The airline's first departure of the day is the first flight of its aircraft.
      const firstNv = small.flights.find((f) => f.airline === 'NV')!;
      const sim = await client.simulate(other, { scenario_id: 'other', disrupted_flight: firstNv.id, min_delay_minutes: 60, now: '2026-11-21T00:00:00Z', config: { solver: { time_limit_ms: 5000 } } });
      expect(sim.best_option_id).not.toBeNull();
      const foreign = await client.send('POST', `/days/${id}/apply`, { simulation_id: sim.simulation_id, option_id: sim.best_option_id }, { 'If-Match': '"1"' });
      expect(foreign.status).toBe(409);
      expect(foreign.body.detail).toMatch(/was run on day .*, not on this day/);
      const unknownOption = await client.send('POST', `/days/${other}/apply`, { simulation_id: sim.simulation_id, option_id: 'opt_nothing' }, { 'If-Match': '"1"' });
      expect(unknownOption.status).toBe(400);
      // The delayed flight leaves (on time after all): the option computed before moves it, so it no longer applies.
      const departed = await client.send('POST', `/days/${other}/movements`, { now: '2026-11-21T23:59:00Z', movements: [{ flight: firstNv.id, tail: firstNv.tail, off_block: firstNv.scheduled.dep }] });
      expect(departed.status, JSON.stringify(departed.body)).toBe(201);
      const late = await client.send('POST', `/days/${other}/apply`, { simulation_id: sim.simulation_id, option_id: sim.best_option_id }, { 'If-Match': '"2"' });
      expect(late.status).toBe(409);
      expect(late.body.detail).toContain(`Flight ${firstNv.id} has departed`);
      const delayDeparted = await client.send('POST', `/days/${other}/simulate`, { scenario_id: 'x', disrupted_flight: firstNv.id, min_delay_minutes: 30 });
      expect(delayDeparted.status).toBe(409);
    }, 120_000);
  });
}
