// Composition root: config -> logger -> schedules -> simulation thread (with the solver pool) ->
// metrics -> createApp -> listen -> shutdown. Start-up problems end the process with one sentence on
// stderr and exit code 1.
//
// Shutdown (SIGTERM or SIGINT): stop accepting connections; answer any new request on a kept-alive
// connection 503 with Connection: close; let requests in flight finish for up to SHUTDOWN_GRACE_MS,
// then cut what remains; close the simulation thread and its solver pool; exit 0. A second signal cuts
// at once.
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from './config.ts';
import { CatalogError, loadScheduleCatalog } from './formats/schedule-json/schedule-catalog.ts';
import { createApp } from './http/app.ts';
import { createLogger } from './http/logging.ts';
import { createMetrics } from './http/metrics.ts';
import { createHttpServer } from './http/server.ts';
import { startSimulationThread } from './runtime/simulation-thread.ts';

/** While draining, idle keep-alive connections are closed this often (a request that just finished leaves one). */
const DRAIN_SWEEP_MS = 100;

function fail(message: string): never {
  process.stderr.write(`Cannot start: ${message}\n`);
  process.exit(1);
}

function urlHost(host: string): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return reachable.includes(':') ? `[${reachable}]` : reachable;
}

async function main(): Promise<void> {
  let loaded;
  try {
    loaded = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const { config } = loaded;
  // Held in this function only until it has been printed below; the app sees its hash alone.
  let generatedApiKey = loaded.generatedApiKey;

  const logger = createLogger(config.logLevel);

  let schedules;
  try {
    schedules = loadScheduleCatalog(config.schedulesDir, config.defaultSchedule);
  } catch (error) {
    if (error instanceof CatalogError) fail(error.message);
    throw error;
  }
  const defaultEntry = schedules.resolve(schedules.defaultName)!;
  if (!defaultEntry.schedule.flightsByAirline.get(config.defaultAirline)?.length) {
    fail(`DEFAULT_AIRLINE '${config.defaultAirline}' has no flights in the default schedule '${schedules.defaultName}'.`);
  }

  // Simulations are built and solved off the HTTP thread; every solver worker loads and warms GLPK
  // before the first request can reach it.
  let runner;
  try {
    runner = await startSimulationThread({
      schedules,
      pool: {
        ...(config.solverThreads !== undefined ? { threads: config.solverThreads } : {}),
        ...(config.solverQueue !== undefined ? { maxQueue: config.solverQueue } : {}),
        queueTimeoutMs: config.solverQueueTimeoutMs,
        hardStopGraceMs: config.solverHardStopGraceMs,
      },
      onError: (error) => logger.error({ err: error }, 'simulation thread'),
      // The longest legitimate simulation: the queue wait, then at most four strategies one after the
      // other at the largest time limit plus the hard-stop grace; 10 s more for model building.
      deadlineMs: config.solverQueueTimeoutMs + 4 * (config.simulation.maxTimeLimitMs + config.solverHardStopGraceMs) + 10_000,
    });
  } catch (error) {
    fail(`the simulation thread did not start: ${(error as Error).message}`);
  }

  // A rejection nobody awaited is a bug to log, not a reason to drop every request in flight.
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason instanceof Error ? reason : new Error(String(reason)) }, 'unhandled promise rejection');
  });

  let draining = false;
  const metrics = createMetrics();
  const app = createApp({ config, logger, schedules, runner, metrics, draining: () => draining });
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
    lines.push(`Docs: ${base}/docs   Health: ${base}/health`);
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
      void runner.close().finally(() => {
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
