// Composition root of the API: config -> logger -> schedules -> simulation thread (with the solver
// pool) -> job runner and job store (in process, or Redis with REDIS_URL) -> day store (PGlite or
// DATABASE_URL, opened at first use) -> metrics -> createApp ->
// listen -> shutdown. A job worker of the scale-out mode starts from worker.ts instead. Start-up problems end the process with one sentence on
// stderr and exit code 1.
//
// Shutdown (SIGTERM or SIGINT): stop accepting connections; answer any new request on a kept-alive
// connection 503 with Connection: close; let requests in flight finish for up to SHUTDOWN_GRACE_MS,
// then cut what remains; close the simulation thread and its solver pool; exit 0. A second signal cuts
// at once.
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import type { RedisReply } from 'rate-limit-redis';
import { createApp } from './http/app.ts';
import { createLogger } from './http/logging.ts';
import { createMetrics } from './http/metrics.ts';
import type { RedisCommand } from './http/rate-limit.ts';
import { createHttpServer } from './http/server.ts';
import type { JobStore } from './runtime/jobs/job.ts';
import { createJobRunner } from './runtime/jobs/job-runner.ts';
import { createMemoryJobStore } from './runtime/jobs/memory-store.ts';
import { createRedisJobStore } from './runtime/jobs/redis-store.ts';
import { dayStoreHandle } from './store/day-store-handle.ts';
import { fail, loadConfigOrFail, loadSchedulesOrFail, startSimulationThreadOrFail } from './startup.ts';

/** While draining, idle keep-alive connections are closed this often (a request that just finished leaves one). */
const DRAIN_SWEEP_MS = 100;

function urlHost(host: string): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return reachable.includes(':') ? `[${reachable}]` : reachable;
}

async function main(): Promise<void> {
  const loaded = loadConfigOrFail();
  const { config } = loaded;
  // Held in this function only until it has been printed below; the app sees its hash alone.
  let generatedApiKey = loaded.generatedApiKey;

  const logger = createLogger(config.logLevel);
  const schedules = loadSchedulesOrFail(config);
  const thread = await startSimulationThreadOrFail(config, schedules, logger, true);
  const jobRunner = createJobRunner(thread);

  // Jobs: embedded (this process queues and runs them, and loses them on restart) or, with REDIS_URL,
  // in Redis, run by `npm run worker` processes: this instance then runs none and keeps no job state.
  // Its simulation thread still answers POST /simulate, the interactive path, at once or 503.
  const limits = { resultTtlSeconds: config.jobs.resultTtlSeconds, queueMax: config.jobs.queueMax };
  let jobs: JobStore;
  let rateLimitRedis: RedisCommand | undefined;
  let redis: Redis | null = null;
  if (config.redisUrl === null) {
    const embedded = createMemoryJobStore(jobRunner, limits);
    embedded.start();
    jobs = embedded;
  } else {
    jobs = createRedisJobStore({ redisUrl: config.redisUrl, limits });
    const client = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
    client.on('error', (error) => logger.error({ err: error }, 'redis (rate limits)'));
    rateLimitRedis = (command: string, ...args: string[]) => client.call(command, ...args) as Promise<RedisReply>;
    redis = client;
  }

  // A rejection nobody awaited is a bug to log, not a reason to drop every request in flight.
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason instanceof Error ? reason : new Error(String(reason)) }, 'unhandled promise rejection');
  });

  // Operational days: PostgreSQL (DATABASE_URL) or the embedded PGlite, opened by the first /days request.
  const days = dayStoreHandle({
    databaseUrl: config.days.databaseUrl, pgliteDir: config.days.pgliteDir, writePauseMs: config.days.writePauseMs,
    onPause: () => logger.warn('revision write paused (FAULT_DAY_WRITE_PAUSE_MS)'),
  });

  let draining = false;
  const metrics = createMetrics();
  const app = createApp({ config, logger, schedules, simulations: thread, jobRunner, jobs, days, metrics, draining: () => draining, ...(rateLimitRedis ? { rateLimitRedis } : {}) });
  const server = createHttpServer(app);
  server.listen(config.port, config.host);
  server.on('error', (error: NodeJS.ErrnoException) => {
    fail(error.code === 'EADDRINUSE'
      ? `${config.host}:${config.port} is already in use (set PORT or HOST).`
      : `cannot listen on ${config.host}:${config.port} (${error.code ?? error.message}).`);
  });
  server.on('listening', () => {
    const { port } = server.address() as AddressInfo;
    const base = `http://${urlHost(config.host)}:${port}`;
    logger.info({ env: config.env, host: config.host, port, schedules: schedules.names() }, 'listening');
    // Printed, not logged: a person reads this once, and a key must never reach the log stream.
    const lines = [
      `Listening on http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port} (APP_ENV=${config.env}, schedules: ${schedules.names().join(', ')})`,
    ];
    if (generatedApiKey) {
      lines.push(
        'No API key configured: generated one for this run (shown once, not stored):',
        `  X-API-Key: ${generatedApiKey}`,
        `Try: curl -H 'X-API-Key: ${generatedApiKey}' ${base}/flights`,
      );
      generatedApiKey = null;
    } else {
      lines.push(`Authenticate with the header X-API-Key (a key from API_KEYS or API_KEYS_FILE), e.g. curl -H 'X-API-Key: <key>' ${base}/flights`);
    }
    lines.push(`Console: ${base}/console/   Docs: ${base}/docs   Health: ${base}/health`);
    process.stdout.write(`${lines.join('\n')}\n`);
  });

  const shutdown = (signal: NodeJS.Signals) => {
    if (draining) {
      logger.warn({ signal }, 'second signal: closing every connection now');
      server.closeAllConnections();
      return;
    }
    draining = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: no new connections, finishing requests in flight');
    // close() stops accepting and calls back once every connection has ended. A connection whose
    // request has just been answered stays open as keep-alive, so idle ones are swept until then.
    const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_SWEEP_MS);
    const grace = setTimeout(() => {
      logger.warn({ graceMs: config.shutdownGraceMs }, 'requests still in flight after the grace period; closing their connections');
      server.closeAllConnections();
    }, config.shutdownGraceMs);
    server.close((error) => {
      clearInterval(sweep);
      clearTimeout(grace);
      if (error) logger.error({ err: error }, 'error while closing the server');
      void Promise.allSettled([jobs.close(), thread.close(), days.close()]).finally(() => {
        redis?.disconnect();
        logger.info('stopped');
        logger.flush();
        process.exit(error ? 1 : 0);
      });
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

await main();
