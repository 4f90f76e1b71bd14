// Reliability: nothing lost. The service (src/main.ts as a child process, the way an operator runs
// it) is killed with SIGKILL in the middle of an apply, inside the revision's transaction (held there
// by the test-only FAULT_DAY_WRITE_PAUSE_MS, which logs when it holds): after a restart the day is at
// the revision before, with no trace of the half-written one. An apply that was answered is there
// whole after another SIGKILL and restart. Once on the embedded PGlite (its directory reopened, the
// dead process's lock taken over) and once on a PostgreSQL server (a database of the test's own).
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshPgliteDir, freshPostgresDatabase } from '../support/databases.ts';
import { KEY_A, startApi, type ApiInstance } from '../jobs/support.ts';

const json = { 'Content-Type': 'application/json', 'X-API-Key': KEY_A };
const call = async (api: ApiInstance, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${api.baseUrl}${path}`, { method, headers: { ...json, ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: await response.json() as any };
};

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

for (const backend of ['pglite', 'postgres'] as const) {
  describe(`SIGKILL during an apply (${backend})`, () => {
    it('scenario: killed inside the transaction: no revision; killed after the answer: the revision is whole; every day and revision survives restarts', async () => {
      const fresh = backend === 'pglite' ? await freshPgliteDir() : await freshPostgresDatabase();
      cleanups.push('dir' in fresh ? fresh.remove : fresh.drop);
      const database: Record<string, string> = 'dir' in fresh ? { PGLITE_DIR: fresh.dir } : { DATABASE_URL: fresh.url };
      // The small schedule; the pause is far longer than any test step.
      let api = await startApi({ ...database, DEFAULT_SCHEDULE: 'small', FAULT_DAY_WRITE_PAUSE_MS: '120000' });
      cleanups.push(() => api.stop('SIGKILL'));

      const opened = await call(api, 'POST', '/days', { schedule_file: 'small' });
      expect(opened.status).toBe(201);
      const id = opened.body.id as string;
      const day = (await call(api, 'GET', `/days/${id}`)).body as { flights: { id: string; airline: string }[] };
      const flight = day.flights.find((f) => f.airline === 'NV')!.id;
      const sim = await call(api, 'POST', `/days/${id}/simulate`, { scenario_id: 'kill', disrupted_flight: flight, min_delay_minutes: 90, now: '2026-11-21T00:00:00Z', config: { solver: { time_limit_ms: 5000 } } });
      expect(sim.status, JSON.stringify(sim.body)).toBe(200);
      expect(sim.body.best_option_id).not.toBeNull();
      const apply = { simulation_id: sim.body.simulation_id, option_id: sim.body.best_option_id };

      // 1. Killed while the apply holds inside its transaction.
      const pending = call(api, 'POST', `/days/${id}/apply`, apply, { 'If-Match': '"1"' }).catch((error: Error) => error);
      await expect.poll(() => api.output(), { timeout: 30_000 }).toMatch(/revision write paused/);
      await api.stop('SIGKILL');
      expect(await pending).toBeInstanceOf(Error);

      api = await startApi({ ...database, DEFAULT_SCHEDULE: 'small' });
      const afterKill = await call(api, 'GET', `/days/${id}/revisions`);
      expect(afterKill.status).toBe(200);
      expect(afterKill.body.revisions.map((r: { number: number }) => r.number)).toEqual([1]);
      expect((await call(api, 'GET', `/days/${id}`)).body.revision).toBe(1);
      if (!('dir' in fresh)) {
        const client = new pg.Client({ connectionString: fresh.url });
        await client.connect();
        const { rows } = await client.query('select (select revision from days where id = $1) as day, (select count(*)::int from day_revisions where day_id = $1) as revisions', [id]);
        await client.end();
        expect(rows[0]).toEqual({ day: 1, revisions: 1 });
      }

      // 2. The same apply, answered; then SIGKILL at once: it is all there after the restart.
      const applied = await call(api, 'POST', `/days/${id}/apply`, apply, { 'If-Match': '"1"' });
      expect(applied.status, JSON.stringify(applied.body)).toBe(201);
      const before = (await call(api, 'GET', `/days/${id}`)).body;
      await api.stop('SIGKILL');
      api = await startApi({ ...database, DEFAULT_SCHEDULE: 'small' });
      const after = await call(api, 'GET', `/days/${id}`);
      expect(after.body).toEqual(before);
      expect((await call(api, 'GET', `/days/${id}/revisions`)).body.revisions.map((r: { number: number; kind: string }) => [r.number, r.kind])).toEqual([[1, 'open'], [2, 'apply']]);
      expect((await call(api, 'GET', '/days')).body.days.map((d: { id: string }) => d.id)).toContain(id);
      await api.stop();
    }, 300_000);
  });
}
