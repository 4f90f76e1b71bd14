// The jobs mode of the load script (`npm run load -- --jobs`), issue #11: the scale-out topology as an
// operator runs it, on this machine: a redis-server of its own (free loopback port, no persistence),
// two API instances (src/main.ts with REDIS_URL) and N workers (src/worker.ts), all child processes.
// `--concurrency` clients (default 32) each submit a recovery job (POST /simulations, a rotating set of
// single delays on the default schedule), wait for its final state (half of them by polling
// GET /simulations/{id}, half on the event stream), and submit the next, for `--duration` seconds,
// alternating between the two instances; four more clients read GET /flights all along. Every client
// has its own API key, and the service's rate limits stay on (counted in Redis).
//
// Run once per worker count of `--workers` (default "1,2": jobs per minute at one and two workers).
// Targets (exit 1 when one is missed), per run:
//   - every accepted job reaches a final state (the clients wait up to 5 minutes after the end);
//   - none is lost (GET answers it) or run twice (its record's run count is 1);
//   - only 200, 202, 429 and 503 answers;
//   - p99 of GET /flights under 100 ms.
// Reported: jobs per minute (finished in the measured window), submit-to-start latency p50/p99
// (started_at − created_at), events delay (receipt of the final event − finished_at, same clock).
//
// Usage: npm run load -- --jobs [--duration 60 --concurrency 32 --workers 1,2 --log-level warn]
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { readCommandLine, usageError } from '../src/cli/args.ts';
import { Redis } from 'ioredis';
import { loadScheduleFile } from '../src/formats/schedule-json/read-schedule.ts';
import { freePort, REDIS_READY, redisServerArgs } from './lib/local-redis.ts';
import { serverSentEvents } from './lib/server-sent-events.ts';
import { percentile } from './lib/stats.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const COMMAND = 'npm run load';
const { values: args } = readCommandLine({
  command: COMMAND,
  usage: `Usage: npm run load -- --jobs [--duration 60 --concurrency 32 --workers 1,2 --log-level warn]

The recovery jobs on Redis: two API instances and job workers under load.
  --duration S            seconds of load (default 60)
  --concurrency N         clients submitting jobs (default 32)
  --workers LIST          worker counts to measure (default 1,2)
  --log-level LEVEL       the services' log level (default warn)
  --help                  this text`,
  options: {
    jobs: { type: 'boolean', default: true },
    duration: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '32' },
    workers: { type: 'string', default: '1,2' },
    'log-level': { type: 'string', default: 'warn' },
  },
});
const durationS = Number(args.duration);
const concurrency = Number(args.concurrency);
const workerCounts = args.workers.split(',').map(Number);
if (!(durationS > 0) || !(concurrency >= 1) || workerCounts.some((n) => !(n >= 1))) {
  usageError(COMMAND, '--duration, --concurrency and every --workers count must be positive numbers');
}
const LISTING_CLIENTS = 4;
const TARGETS = { listingP99Ms: 100 };
const ALLOWED = new Set([200, 202, 429, 503]);
const SETTLE_MS = 5 * 60_000;
const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- processes ---------------------------------------------------------------------------------------

const children: ChildProcess[] = [];
process.on('exit', () => { for (const child of children) if (child.exitCode === null) child.kill('SIGKILL'); });

function start(command: string, argv: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(command, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => { output = (output + chunk.toString()).slice(-50_000); });
  child.stderr!.on('data', (chunk: Buffer) => { output = (output + chunk.toString()).slice(-50_000); });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${argv.join(' ')} was not ready within 90 s:\n${output}`)), 90_000);
    const check = () => { if (ready.test(output)) { clearTimeout(timer); resolve({ child, output: () => output }); } };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${argv.join(' ')} exited with ${code}:\n${output}`)); });
  });
}

async function stop(child: ChildProcess): Promise<number | string | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode ?? child.signalCode;
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

// ---- the traffic -------------------------------------------------------------------------------------

const schedule = loadScheduleFile(fileURLToPath(new URL('../schedules/default.json', import.meta.url)));
const nv = schedule.flights.filter((f) => f.airline === 'NV');
const disruptions = [
  { flight: 'NV146_2026-11-21T07:50:00Z', delay: 90 },
  ...nv.filter((_, i) => i % 29 === 0).slice(0, 15).map((f, i) => ({ flight: f.id, delay: [60, 90, 120, 180][i % 4]! })),
];

interface JobSeen { id: string; key: string; api: string; createdAt: number; startedAt: number | null; finishedAt: number | null; status: string; finalSeenAt: number | null; viaEvents: boolean }

async function run(workers: number) {
  const redisPort = await freePort();
  const redisServer = await start('redis-server', redisServerArgs(redisPort), { PATH: process.env.PATH ?? '' }, REDIS_READY);
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  const keys = Array.from({ length: concurrency + LISTING_CLIENTS }, () => `drs_production_load-${randomBytes(12).toString('hex')}`);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '',
    APP_ENV: 'production', API_KEYS: keys.join(','), HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: args['log-level'], REDIS_URL: redisUrl,
  };
  const apis = await Promise.all([0, 1].map(() => start(process.execPath, ['--import', 'tsx', 'src/main.ts'], env, /Listening on http:\/\/127\.0\.0\.1:\d+/)));
  const baseUrls = apis.map((a) => /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(a.output())![1]!);
  const workerProcesses = await Promise.all(Array.from({ length: workers }, () => start(process.execPath, ['--import', 'tsx', 'src/worker.ts'], env, /taking jobs from Redis/)));
  log(`load --jobs: ${workers} worker(s), 2 API instances (${baseUrls.join(', ')}), redis ${redisUrl}, ${concurrency} job clients + ${LISTING_CLIENTS} listing clients, ${durationS} s`);

  const statuses = new Map<string, number>();
  const count = (route: string, status: number) => statuses.set(`${route} ${status}`, (statuses.get(`${route} ${status}`) ?? 0) + 1);
  const jobs: JobSeen[] = [];
  const listing: number[] = [];
  const transportErrors = new Map<string, number>();
  let stopping = false;
  const started = Date.now();
  const endsAt = started + durationS * 1000;

  async function call(route: string, url: string, key: string, init: RequestInit = {}): Promise<Response | null> {
    try {
      const response = await fetch(url, { ...init, headers: { 'X-API-Key': key, ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...init.headers } });
      count(route, response.status);
      return response;
    } catch (error) {
      const message = (error as Error).message;
      transportErrors.set(message, (transportErrors.get(message) ?? 0) + 1);
      return null;
    }
  }

  async function waitByPolling(job: JobSeen): Promise<void> {
    const until = Date.now() + SETTLE_MS + durationS * 1000;
    while (Date.now() < until) {
      await sleep(500);
      const response = await call('GET /simulations/{id}', `${job.api}/simulations/${job.id}`, job.key);
      if (!response || response.status !== 200) { await response?.body?.cancel(); continue; }
      const view = await response.json() as { status: string; started_at: string | null; finished_at: string | null };
      if (['succeeded', 'failed', 'cancelled'].includes(view.status)) {
        job.status = view.status; job.finalSeenAt = Date.now();
        job.startedAt = view.started_at ? Date.parse(view.started_at) : null;
        job.finishedAt = view.finished_at ? Date.parse(view.finished_at) : null;
        return;
      }
    }
  }

  async function waitOnEvents(job: JobSeen): Promise<void> {
    const response = await call('GET /simulations/{id}/events', `${job.api}/simulations/${job.id}/events`, job.key);
    if (!response || response.status !== 200 || !response.body) { await response?.body?.cancel(); return waitByPolling(job); }
    for await (const event of serverSentEvents(response.body as unknown as AsyncIterable<Uint8Array>)) {
      if (event.event !== 'final') continue;
      const data = JSON.parse(event.data) as { status: string; started_at: string | null; finished_at: string | null };
      job.status = data.status; job.finalSeenAt = Date.now();
      job.startedAt = data.started_at ? Date.parse(data.started_at) : null;
      job.finishedAt = data.finished_at ? Date.parse(data.finished_at) : null;
    }
  }

  async function jobClient(index: number): Promise<void> {
    const key = keys[index]!;
    let n = 0;
    while (Date.now() < endsAt) {
      const api = baseUrls[(index + n) % 2]!;
      const d = disruptions[(index * 7 + n) % disruptions.length]!;
      n++;
      const response = await call('POST /simulations', `${api}/simulations`, key, {
        method: 'POST', body: JSON.stringify({ scenario_id: `load-${index}-${n}`, disrupted_flight: d.flight, min_delay_minutes: d.delay }),
        headers: { 'Idempotency-Key': randomBytes(8).toString('hex') },
      });
      if (!response) { await sleep(1000); continue; }
      if (response.status !== 202) {
        const retry = Number(response.headers.get('retry-after') ?? '1');
        await response.body?.cancel();
        await sleep(Math.min(10, retry) * 1000);
        continue;
      }
      const accepted = await response.json() as { job_id: string; created_at: string };
      const job: JobSeen = { id: accepted.job_id, key, api, createdAt: Date.parse(accepted.created_at), startedAt: null, finishedAt: null, status: 'queued', finalSeenAt: null, viaEvents: index % 2 === 1 };
      jobs.push(job);
      await (job.viaEvents ? waitOnEvents(job) : waitByPolling(job));
    }
  }

  async function listingClient(index: number): Promise<void> {
    const key = keys[concurrency + index]!;
    let n = 0;
    while (!stopping) {
      const t = performance.now();
      const response = await call('GET /flights', `${baseUrls[n++ % 2]}/flights`, key);
      if (response) {
        await response.arrayBuffer();
        // Latency of the listing itself: a 429 (the key's budget spent) is answered before any work.
        if (response.status === 200 && Date.now() < endsAt) listing.push(performance.now() - t);
      }
      // About 6 requests a second per client: under the default 600 per key and minute.
      await sleep(150);
    }
  }

  const listingDone = Promise.all(Array.from({ length: LISTING_CLIENTS }, (_, i) => listingClient(i)));
  const progress = setInterval(() => log(`  ${Math.round((Date.now() - started) / 1000)} s: ${jobs.length} jobs accepted, ${jobs.filter((j) => j.finalSeenAt !== null).length} final`), 10_000);
  await Promise.all(Array.from({ length: concurrency }, (_, i) => jobClient(i)));
  stopping = true;
  clearInterval(progress);
  await listingDone;

  // The record of every accepted job, straight from Redis: its status and how often a worker started it.
  const redis = new Redis(redisUrl);
  const records = await Promise.all(jobs.map(async (job) => {
    const json = await redis.hget(`drs:job:${job.id}`, 'json');
    return json === null ? null : JSON.parse(json) as { status: string; runs: number };
  }));
  redis.disconnect();
  const exits = await Promise.all([...apis, ...workerProcesses].map((p) => stop(p.child)));
  await stop(redisServer.child);

  const finishedInWindow = jobs.filter((j) => j.finishedAt !== null && j.finishedAt <= endsAt).length;
  return {
    workers, jobs, records, statuses, listing, transportErrors, exits,
    jobsPerMinute: finishedInWindow / (durationS / 60),
    startLatency: jobs.filter((j) => j.startedAt !== null).map((j) => j.startedAt! - j.createdAt),
    eventsDelay: jobs.filter((j) => j.viaEvents && j.finishedAt !== null && j.finalSeenAt !== null).map((j) => j.finalSeenAt! - j.finishedAt!),
  };
}

const fmt = (ms: number | null) => (ms === null ? '-' : `${ms.toFixed(0)} ms`);
const failures: string[] = [];
for (const workers of workerCounts) {
  const r = await run(workers);
  const lost = r.jobs.filter((j, i) => r.records[i] === null || j.finalSeenAt === null);
  const runTwice = r.records.filter((rec) => rec !== null && rec.runs > 1);
  const disallowed = [...r.statuses].filter(([k]) => !ALLOWED.has(Number(k.split(' ').at(-1))));
  const listingP99 = percentile(r.listing, 99);
  const byStatus = new Map<string, number>();
  for (const j of r.jobs) byStatus.set(j.status, (byStatus.get(j.status) ?? 0) + 1);
  console.log(`\nJobs load, ${workers} worker(s), 2 API instances, ${concurrency} clients, ${durationS} s:`);
  console.log(`  jobs accepted ${r.jobs.length}; final states ${[...byStatus].map(([s, n]) => `${s} ${n}`).join(', ')}; lost ${lost.length}; run more than once ${runTwice.length}`);
  console.log(`  jobs per minute (finished within the window): ${r.jobsPerMinute.toFixed(1)}`);
  console.log(`  submit-to-start latency: p50 ${fmt(percentile(r.startLatency, 50))}, p99 ${fmt(percentile(r.startLatency, 99))}`);
  console.log(`  events delay (final event received − finished_at, ${r.eventsDelay.length} streams): p50 ${fmt(percentile(r.eventsDelay, 50))}, p99 ${fmt(percentile(r.eventsDelay, 99))}, max ${fmt(r.eventsDelay.length ? Math.max(...r.eventsDelay) : null)}`);
  console.log(`  GET /flights while jobs run (${r.listing.length} requests): p50 ${fmt(percentile(r.listing, 50))}, p99 ${fmt(listingP99)}`);
  console.log(`  answers: ${[...r.statuses].sort().map(([k, n]) => `${k}×${n}`).join(', ')}`);
  if (r.transportErrors.size) console.log(`  transport errors: ${[...r.transportErrors].map(([m, n]) => `${n}× ${m}`).join('; ')}`);
  console.log(`  exit codes after SIGTERM (2 APIs, ${workers} workers): ${r.exits.join(', ')}`);
  if (lost.length) failures.push(`${workers} worker(s): ${lost.length} jobs without a final state`);
  if (runTwice.length) failures.push(`${workers} worker(s): ${runTwice.length} jobs run more than once`);
  if (disallowed.length) failures.push(`${workers} worker(s): answers other than 200/202/429/503: ${disallowed.map(([k, n]) => `${k}×${n}`).join(', ')}`);
  if (r.transportErrors.size) failures.push(`${workers} worker(s): requests without an answer`);
  if (r.jobs.length === 0) failures.push(`${workers} worker(s): no job was accepted`);
  if (listingP99 === null || listingP99 >= TARGETS.listingP99Ms) failures.push(`${workers} worker(s): p99 of GET /flights ${fmt(listingP99)} (target < ${TARGETS.listingP99Ms} ms)`);
}
if (failures.length) {
  console.log(`\nFAILED: ${failures.join('; ')}.`);
  process.exit(1);
}
console.log('\nAll targets met: every job final, none lost or run twice, only 200/202/429/503, GET /flights p99 < 100 ms.');
process.exit(0);
