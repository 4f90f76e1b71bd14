// Composition root of a job worker (`npm run worker`, scale-out mode): config -> logger -> schedules
// -> simulation thread (with the solver pool) -> job runner -> BullMQ worker on REDIS_URL, taking one
// job at a time. Start as many as the machines allow; API instances (main.ts with the same REDIS_URL)
// queue the jobs and serve their state. No HTTP port.
//
// Shutdown (SIGTERM or SIGINT): take no new job; let the running one finish for up to
// SHUTDOWN_GRACE_MS; then exit anyway, and another worker takes the job over once its lock lapses
// (stalled-job detection, within about 15 s). A second signal exits at once.
import { readCommandLine } from './cli/args.ts';
import { createLogger } from './http/logging.ts';
import { createJobRunner } from './runtime/jobs/job-runner.ts';
import { startRedisJobWorker } from './runtime/jobs/redis-store.ts';
import { fail, loadConfigOrFail, loadSchedulesOrFail, startSimulationThreadOrFail } from './startup.ts';

async function main(): Promise<void> {
  readCommandLine({
    command: 'npm run worker',
    usage: `Usage: npm run worker

A job worker of the scale-out mode: takes recovery jobs from Redis (REDIS_URL) one at a time, until
SIGTERM. Configured by the environment as the API is (README: Configuration); takes no options.
  --help                  this text`,
    options: {},
  });
  const { config } = loadConfigOrFail();
  if (config.redisUrl === null) fail('REDIS_URL is not set: a worker takes its jobs from Redis (without it, `npm start` runs jobs in process).');
  const logger = createLogger(config.logLevel);
  const schedules = loadSchedulesOrFail(config);
  const thread = await startSimulationThreadOrFail(config, schedules, logger, false);
  const runner = createJobRunner(thread);
  const worker = startRedisJobWorker({
    redisUrl: config.redisUrl,
    limits: { resultTtlSeconds: config.jobs.resultTtlSeconds, queueMax: config.jobs.queueMax },
    runner,
    onError: (error) => logger.error({ err: error }, 'job worker'),
    onJobStarted: (jobId) => logger.info({ jobId }, 'job started'),
  });

  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason instanceof Error ? reason : new Error(String(reason)) }, 'unhandled promise rejection');
  });
  logger.info({ env: config.env, schedules: schedules.names(), pid: process.pid }, 'worker ready');
  process.stdout.write(`Worker ${process.pid} taking jobs from Redis (schedules: ${schedules.names().join(', ')})\n`);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: no new jobs, finishing the running one');
    const grace = setTimeout(() => {
      logger.warn('the running job did not finish within the grace period; another worker will take it over');
      logger.flush();
      process.exit(1);
    }, config.shutdownGraceMs);
    void worker.close().then(() => thread.close()).finally(() => {
      clearTimeout(grace);
      logger.info('stopped');
      logger.flush();
      process.exit(0);
    });
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

await main();
