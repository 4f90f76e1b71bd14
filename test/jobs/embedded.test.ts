// Scenario: recovery jobs in the embedded mode (no REDIS_URL), on the real service started as an
// operator starts it (src/main.ts as a child process), over HTTP: submit -> progress events -> the
// result, equal to POST /simulate's; cancellation keeps the best plan; idempotent resubmission; a
// finished job expires after JOB_RESULT_TTL_S; another key sees nothing; the queue is bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getJob, hubStorm, longDelays, isFinal, json, KEY_A, KEY_B, QUICK, readEvents, startApi, submit, submitted, waitForJob, withoutTimeAndWork, type ApiInstance,
} from './support.ts';

const TTL_S = 8;
let api: ApiInstance;

beforeAll(async () => {
  api = await startApi({ JOB_RESULT_TTL_S: String(TTL_S), JOB_QUEUE_MAX: '2', JOB_MAX_TIME_LIMIT_MS: '60000' });
}, 90_000);

afterAll(async () => {
  await api?.stop();
});

describe('embedded jobs', () => {
  it('scenario: a submitted job answers 202 with Location, streams its progress and ends with the /simulate result', async () => {
    const response = await submit(api.baseUrl, QUICK);
    expect(response.status).toBe(202);
    const accepted = await response.json() as { job_id: string; status: string; created_at: string };
    expect(accepted.status).toBe('queued');
    expect(response.headers.get('location')).toBe(`/simulations/${accepted.job_id}`);
    expect(Date.parse(accepted.created_at)).toBeGreaterThan(Date.now() - 60_000);

    const events = await readEvents(api.baseUrl, accepted.job_id);
    const last = events.at(-1)!;
    expect(last.event).toBe('final');
    expect(events.filter((e) => e.event === 'final')).toHaveLength(1);
    expect(events.map((e) => e.data.status)).toContain('running');
    expect(events.some((e) => e.data.progress !== null && e.data.progress.iterations > 0)).toBe(true);
    // Event ids increase, so that Last-Event-ID names a place in the stream.
    expect(events.map((e) => Number(e.id))).toEqual(events.map((e) => Number(e.id)).sort((a, b) => a - b));
    expect(last.data.status).toBe('succeeded');
    expect(last.data.progress).toMatchObject({ phase: 'done' });

    const job = await getJob(api.baseUrl, accepted.job_id);
    expect(job.status).toBe('succeeded');
    expect(job.started_at).not.toBeNull();
    expect(Date.parse(job.finished_at!)).toBeGreaterThanOrEqual(Date.parse(job.started_at!));
    expect(job.error).toBeNull();
    expect(job.progress!.best_cost).toBe(job.result!.options[0]!.summary.cost);

    // A client that reconnects with Last-Event-ID gets exactly the events after it. (Asked before the
    // direct solve below: under load that takes up to its 10 s limit, past the job's TTL_S.)
    const middle = events[Math.floor(events.length / 2)]!;
    const resumed = await readEvents(api.baseUrl, accepted.job_id, { lastEventId: middle.id });
    expect(resumed.map((e) => e.id)).toEqual(events.slice(events.indexOf(middle) + 1).map((e) => e.id));

    const direct = await fetch(`${api.baseUrl}/simulate`, { method: 'POST', headers: { ...json, 'X-API-Key': KEY_A }, body: JSON.stringify(QUICK) });
    expect(direct.status).toBe(200);
    expect(withoutTimeAndWork(job.result)).toEqual(withoutTimeAndWork(await direct.json()));
    expect(job.result!.options.every((o) => (o as unknown as { solver: { status: string } }).solver.status === 'optimal')).toBe(true);
  }, 120_000);

  it('scenario: DELETE on a running job answers within a second, cancelled, with the best plan it had', async () => {
    const id = await submitted(api.baseUrl, longDelays(30_000, 'cancel-me'));
    const running = await waitForJob(api.baseUrl, id, (job) => isFinal(job) || (job.status === 'running' && job.result !== null), 90_000);
    expect(running.status, 'the job must still run when its first plan appears').toBe('running');
    const asked = Date.now();
    const response = await fetch(`${api.baseUrl}/simulations/${id}`, { method: 'DELETE', headers: { 'X-API-Key': KEY_A } });
    const answeredMs = Date.now() - asked;
    expect(response.status).toBe(200);
    const cancelled = await response.json() as typeof running;
    expect(cancelled.status).toBe('cancelled');
    // The bound is one second; the margin is for a loaded shared machine.
    expect(answeredMs).toBeLessThan(1500);
    expect(cancelled.result!.options.length).toBeGreaterThan(0);
    // The plan it had when cancelled: the last best plan it reported, no dearer than the one seen
    // running (the network engine's search may find a better one between the two requests).
    expect(cancelled.result!.options.map((o) => o.summary.cost)).toContain(cancelled.progress!.best_cost);
    expect(cancelled.progress!.best_cost).toBeLessThanOrEqual(running.progress!.best_cost!);
    // It stays cancelled, and the solver is free again: the next job runs to the end.
    expect((await getJob(api.baseUrl, id)).status).toBe('cancelled');
    const next = await submitted(api.baseUrl, QUICK);
    expect((await waitForJob(api.baseUrl, next, isFinal, 60_000)).status).toBe('succeeded');
  }, 150_000);

  it('unit: the same Idempotency-Key returns the same job; another key or none creates a new one', async () => {
    const first = await submitted(api.baseUrl, QUICK, KEY_A, { 'Idempotency-Key': 'retry-1' });
    const again = await submitted(api.baseUrl, QUICK, KEY_A, { 'Idempotency-Key': 'retry-1' });
    expect(again).toBe(first);
    const other = await submitted(api.baseUrl, QUICK, KEY_A, { 'Idempotency-Key': 'retry-2' });
    expect(other).not.toBe(first);
    // The idempotency key is the owner's: key B's submission with it is B's own job.
    const ofB = await submitted(api.baseUrl, QUICK, KEY_B, { 'Idempotency-Key': 'retry-1' });
    expect(ofB).not.toBe(first);
    const bad = await submit(api.baseUrl, QUICK, KEY_A, { 'Idempotency-Key': 'x'.repeat(200) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ detail: expect.stringMatching(/Idempotency-Key/) });
    for (const id of [first, other]) await waitForJob(api.baseUrl, id, isFinal, 60_000);
  }, 120_000);

  it('unit: key B gets 404 for key A\'s job in every route and an empty list', async () => {
    const fresh = await startApi({ JOB_RESULT_TTL_S: String(TTL_S) });
    try {
      const id = await submitted(fresh.baseUrl, QUICK, KEY_A);
      const asB = { 'X-API-Key': KEY_B };
      for (const [method, path] of [['GET', `/simulations/${id}`], ['GET', `/simulations/${id}/events`], ['DELETE', `/simulations/${id}`]] as const) {
        const response = await fetch(`${fresh.baseUrl}${path}`, { method, headers: asB });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(await response.json()).toEqual({ detail: expect.stringMatching(/^Job not found/) });
      }
      const listB = await fetch(`${fresh.baseUrl}/simulations`, { headers: asB });
      expect(await listB.json()).toEqual({ jobs: [], next_page_token: null });
      const listA = await (await fetch(`${fresh.baseUrl}/simulations?limit=5`, { headers: { 'X-API-Key': KEY_A } })).json() as { jobs: { job_id: string }[] };
      expect(listA.jobs.map((j) => j.job_id)).toEqual([id]);
      // B's DELETE did not touch it.
      expect((await waitForJob(fresh.baseUrl, id, isFinal, 60_000)).status).toBe('succeeded');
      // An unknown id is the same 404; a malformed one is a 400.
      expect((await fetch(`${fresh.baseUrl}/simulations/00000000-0000-0000-0000-000000000000`, { headers: { 'X-API-Key': KEY_A } })).status).toBe(404);
      expect((await fetch(`${fresh.baseUrl}/simulations/not%20an%20id`, { headers: { 'X-API-Key': KEY_A } })).status).toBe(400);
    } finally {
      await fresh.stop();
    }
  }, 150_000);

  it('unit: a finished job is kept JOB_RESULT_TTL_S, then 404 and gone from the list', async () => {
    const id = await submitted(api.baseUrl, QUICK);
    const done = await waitForJob(api.baseUrl, id, isFinal, 60_000);
    expect(done.status).toBe('succeeded');
    const listed = async () => ((await (await fetch(`${api.baseUrl}/simulations?limit=100`, { headers: { 'X-API-Key': KEY_A } })).json()) as { jobs: { job_id: string }[] }).jobs.map((j) => j.job_id);
    expect(await listed()).toContain(id);
    const expiresAt = Date.parse(done.finished_at!) + TTL_S * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 500));
    expect((await fetch(`${api.baseUrl}/simulations/${id}`, { headers: { 'X-API-Key': KEY_A } })).status).toBe(404);
    expect((await fetch(`${api.baseUrl}/simulations/${id}/events`, { headers: { 'X-API-Key': KEY_A } })).status).toBe(404);
    expect(await listed()).not.toContain(id);
  }, 90_000);

  it('unit: beyond JOB_QUEUE_MAX waiting jobs a submission is 503 with Retry-After; a queued job cancels at once', async () => {
    const running = await submitted(api.baseUrl, hubStorm(60_000, 'blocker'));
    await waitForJob(api.baseUrl, running, (job) => job.status === 'running', 60_000);
    const waiting = [await submitted(api.baseUrl, QUICK), await submitted(api.baseUrl, QUICK)];
    const refused = await submit(api.baseUrl, QUICK);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ detail: expect.stringMatching(/queue is full/) });
    for (const id of waiting) {
      const response = await fetch(`${api.baseUrl}/simulations/${id}`, { method: 'DELETE', headers: { 'X-API-Key': KEY_A } });
      const job = await response.json() as { status: string; started_at: string | null; result: unknown };
      expect(job).toMatchObject({ status: 'cancelled', started_at: null, result: null });
    }
    expect((await (await fetch(`${api.baseUrl}/simulations/${running}`, { method: 'DELETE', headers: { 'X-API-Key': KEY_A } })).json() as { status: string }).status).toBe('cancelled');
    const cancelledList = await (await fetch(`${api.baseUrl}/simulations?status=cancelled&limit=100`, { headers: { 'X-API-Key': KEY_A } })).json() as { jobs: { job_id: string; status: string }[] };
    expect(cancelledList.jobs.map((j) => j.job_id)).toEqual(expect.arrayContaining([running, ...waiting]));
    expect(cancelledList.jobs.every((j) => j.status === 'cancelled')).toBe(true);
  }, 120_000);

  it('unit: the OpenAPI document describes every job route, each needing a key, the events as text/event-stream', async () => {
    const document = await (await fetch(`${api.baseUrl}/openapi.json`)).json() as { paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, { content?: Record<string, unknown> }> }>> };
    const operations = Object.entries(document.paths).filter(([path]) => path.startsWith('/simulations'))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`)).sort();
    expect(operations).toEqual(['DELETE /simulations/{job_id}', 'GET /simulations', 'GET /simulations/{job_id}', 'GET /simulations/{job_id}/events', 'GET /simulations/{job_id}/status', 'POST /simulations']);
    for (const ops of Object.values(document.paths).filter((_, i) => Object.keys(document.paths)[i]!.startsWith('/simulations'))) {
      for (const op of Object.values(ops)) expect(op.security).toEqual([{ ApiKeyAuth: [] }]);
    }
    expect(Object.keys(document.paths['/simulations']!.post!.responses)).toEqual(expect.arrayContaining(['202', '400', '404', '429', '503']));
    expect(Object.keys(document.paths['/simulations/{job_id}/events']!.get!.responses['200']!.content!)).toEqual(['text/event-stream']);
  });

  it('unit: bad submissions are 4xx with a sentence: a time limit above JOB_MAX_TIME_LIMIT_MS, an unknown flight', async () => {
    const tooLong = await submit(api.baseUrl, { ...QUICK, time_limit_ms: 60_001 });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toEqual({ detail: expect.stringMatching(/'time_limit_ms' must be at most 60000.*JOB_MAX_TIME_LIMIT_MS/) });
    const unknown = await submit(api.baseUrl, { ...QUICK, disrupted_flight: 'NV999_2026-11-21T07:50:00Z' });
    expect(unknown.status).toBe(404);
    const badStatus = await fetch(`${api.baseUrl}/simulations?status=lost`, { headers: { 'X-API-Key': KEY_A } });
    expect(badStatus.status).toBe(400);
    expect((await fetch(`${api.baseUrl}/simulations`)).status).toBe(401);
  }, 30_000);
});
