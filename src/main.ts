// Composition root: config -> logger -> schedules -> solver pool -> createApp -> listen -> shutdown.
// Start-up problems end the process with one sentence on stderr and exit code 1.
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from './config.ts';
import { CatalogError, loadScheduleCatalog } from './domain/schedule-catalog.ts';
import { createApp } from './http/app.ts';
import { createLogger } from './http/logging.ts';
import { createSolverPool } from '../solver-wasm/pool.ts';

/** How long in-flight requests may take to finish after SIGTERM/SIGINT before connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

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

  // Each worker loads and warms GLPK before the first request can reach it.
  const solver = createSolverPool({ threads: config.solverThreads });
  await solver.ready();

  const app = createApp({ config, logger, schedules, solver });
  const server = app.listen(config.port, config.host);
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

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    // close() stops accepting and calls back once every connection has ended; idle keep-alive
    // connections would otherwise hold it open.
    server.close((error) => {
      if (error) logger.error({ err: error }, 'error while closing the server');
      void solver.close().finally(() => {
        logger.info('stopped');
        logger.flush();
        process.exit(error ? 1 : 0);
      });
    });
    server.closeIdleConnections();
    setTimeout(() => {
      logger.warn({ graceMs: SHUTDOWN_GRACE_MS }, 'requests still in flight after the grace period; closing their connections');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

await main();
