// Scenario: the day of operations of test/days/scenario.ts through the jobs API in the scale-out mode:
// a real redis-server of the test's own, an API instance (src/main.ts with REDIS_URL, its days in a
// PGlite directory of the test's own) and two workers (src/worker.ts). Each simulation is a job
// submitted with `day`; the worker that runs it rebuilds the day's revision from the request (it has
// no database), and the API applies the job's option from the job's domain result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgliteDir } from '../support/databases.ts';
import { httpClient, runDayScenario, type DayClient } from '../days/scenario.ts';
import { KEY_A, startApi, startRedis, startWorker, submitted, waitForJob, type ApiInstance, type Child, type RedisServer } from './support.ts';

let redis: RedisServer;
let api: ApiInstance;
const workers: Child[] = [];
let removeDir: () => void;

beforeAll(async () => {
  redis = await startRedis();
  const fresh = await freshPgliteDir();
  removeDir = fresh.remove;
  const env = { REDIS_URL: redis.url };
  api = await startApi({ ...env, PGLITE_DIR: fresh.dir });
  workers.push(...await Promise.all([startWorker(env), startWorker(env)]));
}, 180_000);

afterAll(async () => {
  await Promise.all([api?.stop(), ...workers.map((w) => w.stop())]);
  await redis?.stop();
  removeDir?.();
}, 60_000);

describe('a day of operations through the jobs API (Redis, two workers)', () => {
  it('scenario: every simulation a job with `day`; the oracle finds every step sound; the workers ran both jobs', async () => {
    const http = httpClient(api.baseUrl, KEY_A);
    const client: DayClient = {
      send: http.send,
      async simulate(dayId, body) {
        // One solver thread per worker runs the four strategies one after another: a job's own, longer budget.
        const id = await submitted(api.baseUrl, { ...body, day: dayId, time_limit_ms: 20_000 });
        const job = await waitForJob(api.baseUrl, id, (j) => ['succeeded', 'failed', 'cancelled'].includes(j.status));
        expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
        return { ...(job.result as never as Awaited<ReturnType<DayClient['simulate']>>), simulation_id: id };
      },
    };
    await runDayScenario(client);
    const ran = workers.map((w) => (w.output().match(/"msg":"job started"/g) ?? []).length);
    expect(ran.reduce((a, b) => a + b, 0)).toBe(2);
  }, 300_000);

  it('scenario: a day job refuses schedule_file and a `now` without a day', async () => {
    const body = { scenario_id: 'x', disrupted_flight: 'NV146_2026-11-21T07:50:00Z', min_delay_minutes: 30 };
    const withSchedule = await fetch(`${api.baseUrl}/simulations`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': KEY_A }, body: JSON.stringify({ ...body, day: crypto.randomUUID(), schedule_file: 'default' }) });
    expect(withSchedule.status).toBe(400);
    const nowAlone = await fetch(`${api.baseUrl}/simulations`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': KEY_A }, body: JSON.stringify({ ...body, now: '2026-11-21T06:00:00Z' }) });
    expect(nowAlone.status).toBe(400);
    const unknownDay = await fetch(`${api.baseUrl}/simulations`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': KEY_A }, body: JSON.stringify({ ...body, day: crypto.randomUUID() }) });
    expect(unknownDay.status).toBe(404);
  });
});
