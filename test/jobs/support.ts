// The real processes of the jobs tests: a redis-server of their own on a free loopback port (no
// persistence), API instances (src/main.ts) and workers (src/worker.ts) as child processes the way an
// operator starts them, and an HTTP client for the job routes, including a Server-Sent Events reader.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { freePort, REDIS_READY, redisServerArgs } from '../../benchmarks/lib/local-redis.ts';
import { serverSentEvents } from '../../benchmarks/lib/server-sent-events.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const KEY_A = 'drs_staging_jobs-key-A-0123456789abcdefghijk';
export const KEY_B = 'drs_staging_jobs-key-B-ZYXWVUTSRQPONMLKJIHGF';

/** Environment every test process gets: two keys, one solver thread (the machine has two cores, shared). */
export const JOB_TEST_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  APP_ENV: 'staging',
  HOST: '127.0.0.1',
  API_KEYS: `${KEY_A},${KEY_B}`,
  LOG_LEVEL: 'info',
  SOLVER_THREADS: '1',
  RATE_LIMIT_PER_MINUTE: '0',
  RATE_LIMIT_SIMULATE_PER_MINUTE: '0',
};

/**
 * Waits until `output()` matches `pattern` (usable in hooks, where expect.poll is not); a process
 * that is not ready in time is killed, so that a failed start leaves nothing running.
 */
async function waitForOutput(child: Child, pattern: RegExp, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!pattern.test(child.output())) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) throw new Error(`The process exited before it was ready:\n${child.output().slice(-2000)}`);
    if (Date.now() > until) {
      await child.stop('SIGKILL');
      throw new Error(`The process was not ready within ${timeoutMs} ms:\n${child.output().slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface Child {
  process: ChildProcess;
  output: () => string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string | null>;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

function track(child: ChildProcess): Child {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return {
    process: child,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface RedisServer { url: string; stop: () => Promise<void> }

/** A redis-server of this test file's own, without persistence, on a free loopback port. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child = track(spawn('redis-server', redisServerArgs(port), { stdio: ['ignore', 'pipe', 'pipe'] }));
  await waitForOutput(child, REDIS_READY, 10_000);
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.stop() };
}

export interface ApiInstance extends Child { baseUrl: string }

/** src/main.ts as a child process on a free port; resolves once it listens. */
export async function startApi(env: Record<string, string>): Promise<ApiInstance> {
  const child = track(spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT, env: { ...JOB_TEST_ENV, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  }));
  await waitForOutput(child, /Listening on http:\/\/127\.0\.0\.1:\d+/, 60_000);
  const baseUrl = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(child.output())![1]!;
  return { ...child, baseUrl };
}

/** src/worker.ts (`npm run worker`) as a child process; resolves once it takes jobs. */
export async function startWorker(env: Record<string, string>): Promise<Child> {
  const child = track(spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: ROOT, env: { ...JOB_TEST_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  }));
  await waitForOutput(child, /taking jobs from Redis/, 60_000);
  return child;
}

export interface JobView {
  job_id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  progress: { phase: string; elapsed_ms: number; best_cost: number | null; lower_bound: number | null; mip_gap: number | null; iterations: number } | null;
  result: { options: { strategy: string; kpis?: unknown; summary: { cost: number } }[]; unsolved_strategies: { strategy: string }[]; timings_ms: unknown; [field: string]: unknown } | null;
  error: { detail: string } | null;
}

export const json = { 'Content-Type': 'application/json' };

export async function submit(baseUrl: string, body: unknown, key = KEY_A, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}/simulations`, { method: 'POST', headers: { ...json, 'X-API-Key': key, ...headers }, body: JSON.stringify(body) });
}

/** Submits and expects 202; the job id. */
export async function submitted(baseUrl: string, body: unknown, key = KEY_A, headers: Record<string, string> = {}): Promise<string> {
  const response = await submit(baseUrl, body, key, headers);
  expect(response.status, await response.clone().text()).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

export async function getJob(baseUrl: string, id: string, key = KEY_A): Promise<JobView> {
  const response = await fetch(`${baseUrl}/simulations/${id}`, { headers: { 'X-API-Key': key } });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as JobView;
}

/** Polls until `check` holds for the job; the job then. */
export async function waitForJob(baseUrl: string, id: string, check: (job: JobView) => boolean, timeoutMs = 120_000): Promise<JobView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(baseUrl, id);
    if (check(job)) return job;
    if (Date.now() > until) throw new Error(`Job ${id} did not reach the expected state within ${timeoutMs} ms; last: ${JSON.stringify({ ...job, result: job.result ? '…' : null })}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const isFinal = (job: JobView) => ['succeeded', 'failed', 'cancelled'].includes(job.status);

export interface SseEvent { id: string; event: string; data: JobView }

/** Reads a job's event stream to its end (the final event), optionally from a Last-Event-ID. */
export async function readEvents(baseUrl: string, id: string, options: { key?: string; lastEventId?: string; stopAfter?: number } = {}): Promise<SseEvent[]> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/simulations/${id}/events`, {
    headers: { 'X-API-Key': options.key ?? KEY_A, ...(options.lastEventId ? { 'Last-Event-ID': options.lastEventId } : {}) },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: SseEvent[] = [];
  try {
    for await (const event of serverSentEvents(response.body as unknown as AsyncIterable<Uint8Array>)) {
      events.push({ id: event.id!, event: event.event!, data: JSON.parse(event.data) as JobView });
      if (options.stopAfter !== undefined && events.length >= options.stopAfter) {
        controller.abort();
        return events;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return events;
}

/** The solver report's figures of the work done, which a repeated request may do otherwise (docs/model.md 3.1). */
const WORK_FIGURES = new Set(['solve_ms', 'rows', 'columns', 'nonzeros', 'integers', 'candidate_routes', 'iterations', 'note']);

/**
 * A /simulate response without what depends on when it ran: timings_ms, and of each option's solver
 * report the time and the work (the integrated solve takes up the cancellation solve's routes as
 * they come, so its rounds and routes vary); its status, objective, bound and gap stay.
 */
export function withoutTimeAndWork(result: unknown): unknown {
  return JSON.parse(JSON.stringify(result, function (this: Record<string, unknown>, key, value: unknown) {
    if (key === 'timings_ms') return undefined;
    // `this` is the object holding `key`: a solver report has a status and a mip_gap.
    return 'mip_gap' in this && 'status' in this && WORK_FIGURES.has(key) ? undefined : value;
  }));
}

/**
 * A quick single delay on the small schedule, the integrated strategy alone: it is solved to proven
 * optimality in a fraction of a second, far inside its time limit, so that two runs give the same
 * answer. (The restricted strategies are cut short once the integrated one is proven, at a time that
 * depends on the machine's load: pipeline.ts, RESTRICTED_SHARE.)
 */
export const QUICK = { scenario_id: 'quick', schedule_file: 'small', disrupted_flight: 'NV136_2026-11-21T05:15:00Z', min_delay_minutes: 180, config: { solver: { time_limit_ms: 10_000 }, strategies: { evaluate: ['integrated'] } } };

/**
 * A hub storm at VIE on the default schedule: capacity 08-11Z cut to 10 departures and 8 arrivals an hour, an aircraft out
 * 07-13Z, three delays. Its first plan comes after a few seconds of column generation and the solve
 * goes on until its time limit.
 */
export function hubStorm(timeLimitMs: number, scenarioId = 'storm') {
  return {
    scenario_id: scenarioId,
    time_limit_ms: timeLimitMs,
    disruptions: [
      { type: 'airport_capacity', airport: 'VIE', from: '2026-11-21T08:00:00Z', to: '2026-11-21T11:00:00Z', max_departures_per_hour: 10, max_arrivals_per_hour: 8 },
      { type: 'aircraft_unavailable', tail: 'OE-NVB', from: '2026-11-21T07:00:00Z', to: '2026-11-21T13:00:00Z' },
      { type: 'flight_delay', flight: 'NV260_2026-11-21T08:40:00Z', min_delay_minutes: 45 },
      { type: 'flight_delay', flight: 'NV106_2026-11-21T08:45:00Z', min_delay_minutes: 90 },
      { type: 'flight_delay', flight: 'NV226_2026-11-21T08:45:00Z', min_delay_minutes: 120 },
    ],
  };
}

/**
 * Two delays on the default schedule with a long time limit: delay propagation has a plan within a
 * second, while the swap and integrated strategies go on until the time limit. What a cancellation
 * test needs: a job that is surely still running when it has a best plan to keep.
 */
export function longDelays(timeLimitMs: number, scenarioId = 'long') {
  return {
    scenario_id: scenarioId,
    time_limit_ms: timeLimitMs,
    disruptions: [
      { type: 'flight_delay', flight: 'NV146_2026-11-21T07:50:00Z', min_delay_minutes: 240 },
      { type: 'flight_delay', flight: 'NV260_2026-11-21T08:40:00Z', min_delay_minutes: 45 },
    ],
  };
}
