// createApp builds the Express application from its dependencies; main.ts starts it, tests start it
// on port 0. Order matters and is the security design:
//   metrics timer -> request id + log -> security headers -> draining (503 while shutting down) ->
//   URL length (414) -> CORS (answers preflights) -> API-key gate (every routed path outside
//   PUBLIC_PATHS) -> per-key rate limits (429; only requests with a valid key) -> JSON body rules
//   (routed POST/PUT/PATCH) -> routes -> 404/405 -> errors.
// Everything that can answer comes after the security headers, so 429, 503 and 414 carry them too.
import express, { type Express, type RequestHandler } from 'express';
import type { Config } from '../config.ts';
import type { ScheduleCatalog } from '../formats/schedule-json/schedule-catalog.ts';
import { ApiBuilder, type RouteModule } from './api-builder.ts';
import { createKeyVerifier } from '../security/api-keys.ts';
import { apiKeyGate } from './auth.ts';
import { errorHandler, fallbackHandler, HttpError } from './errors.ts';
import { requestLogger, type Logger } from './logging.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { rateLimiters } from './rate-limit.ts';
import { isMethodRouted, routedMethodsFor } from './route-table.ts';
import { docsRoutes } from './endpoints/docs.ts';
import { flightRoutes } from './endpoints/flights.ts';
import { healthRoutes, SERVICE_NAME } from './endpoints/health.ts';
import { metricsRoutes } from './endpoints/metrics.ts';
import { simulateRoutes } from './endpoints/simulate.ts';
import { snapshotRoutes } from './endpoints/snapshot.ts';
import { solverConfigRoutes } from './endpoints/solver-config.ts';
import { corsMiddleware, securityHeaders } from './security.ts';
import { createInProcessSimulator, type SimulationSolver, type Simulator } from '../runtime/simulation-runner.ts';

/** A solver for POST /simulate in process (tests): the worker pool (SolverPool fits), or anything with solve(). */
export type AppSolver = SimulationSolver;

export interface AppDeps {
  config: Config;
  logger: Logger;
  schedules: ScheduleCatalog;
  /**
   * Where POST /simulate runs: main.ts gives the simulation thread (models built and solved off the
   * HTTP thread). When absent and `solver` is given, simulations are built here and solved on it.
   */
  simulator?: Simulator;
  /** Tests: a solver pool (or stub) for simulations run in process. Ignored when `simulator` is given. */
  solver?: AppSolver;
  /** Prometheus registry and instruments; createApp makes its own when absent. */
  metrics?: Metrics;
  /** True once the process is shutting down: every new request is answered 503 with Connection: close. */
  draining?: () => boolean;
  /** Route modules appended after ROUTE_MODULES (tests use it; production code adds to the list). */
  extraRoutes?: readonly RouteModule<AppDeps>[];
}

/** Longest accepted request URL (path and query), characters; longer is 414. */
export const MAX_URL_CHARS = 2048;

/** Seconds a client should wait before retrying on another instance while this one shuts down. */
const DRAINING_RETRY_AFTER_SECONDS = '5';

/**
 * The API's route modules, one per concern. A new module (e.g. simulate, solver config) goes here;
 * its routes need a key without anyone saying so (see auth.ts).
 */
export const ROUTE_MODULES: readonly RouteModule<AppDeps>[] = [healthRoutes, flightRoutes, snapshotRoutes, simulateRoutes, solverConfigRoutes, metricsRoutes];

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** 415 unless a routed POST/PUT/PATCH says application/json; then parse it within the size limit. */
function jsonBody(bodyLimitBytes: number, stack: () => readonly unknown[]): RequestHandler {
  const parse = express.json({ limit: bodyLimitBytes, strict: true, type: 'application/json' });
  return (req, res, next) => {
    if (!BODY_METHODS.has(req.method) || !isMethodRouted(routedMethodsFor(req, stack()), req.method)) {
      next();
      return;
    }
    if (!req.is('application/json')) {
      next(new HttpError(415, "Request body must be JSON with the header 'Content-Type: application/json'."));
      return;
    }
    parse(req, res, next);
  };
}

/** 503 with Retry-After and Connection: close for every request once `draining()` is true. */
function drainingGate(draining: () => boolean): RequestHandler {
  return (_req, res, next) => {
    if (!draining()) {
      next();
      return;
    }
    res.setHeader('Connection', 'close');
    next(new HttpError(503, 'The service is shutting down; retry after the Retry-After seconds.', { 'Retry-After': DRAINING_RETRY_AFTER_SECONDS }));
  };
}

/** 414 for a URL longer than MAX_URL_CHARS: bounds what every later step parses, logs and quotes. */
const urlLength: RequestHandler = (req, _res, next) => {
  next(req.originalUrl.length > MAX_URL_CHARS ? new HttpError(414, `Request URL is longer than the limit of ${MAX_URL_CHARS} characters.`) : undefined);
};

export function createApp(appDeps: AppDeps): Express {
  const metrics = appDeps.metrics ?? createMetrics();
  const simulator = appDeps.simulator ?? (appDeps.solver ? createInProcessSimulator(appDeps.schedules, appDeps.solver) : undefined);
  const deps: AppDeps = { ...appDeps, metrics, ...(simulator ? { simulator } : {}) };
  const { config } = deps;
  if (simulator?.stats) metrics.watchSolverPool(() => simulator.stats!());
  const app = express();
  app.disable('x-powered-by');
  // /Flights or /health/ are not other spellings of a route: one path, one meaning, one auth decision.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  // Flat query strings only (no a[b]=c objects); a repeated parameter arrives as an array and is refused.
  app.set('query parser', 'simple');

  const stack = () => app.router.stack;
  app.use(metrics.middleware);
  app.use(requestLogger(deps.logger));
  app.use(securityHeaders());
  if (deps.draining) app.use(drainingGate(deps.draining));
  app.use(urlLength);
  app.use(corsMiddleware(config.cors));
  app.use(apiKeyGate(createKeyVerifier(config.apiKeyHashes), stack));
  for (const limiter of rateLimiters(config.rateLimit, (limit) => metrics.rateLimited.inc({ limit }))) app.use(limiter);
  app.use(jsonBody(config.bodyLimitBytes, stack));

  const router = express.Router({ caseSensitive: true, strict: true });
  const api = new ApiBuilder(router, config.env !== 'production');
  for (const register of [...ROUTE_MODULES, ...(deps.extraRoutes ?? [])]) register(api, deps);
  let openApiDocument: object | undefined;
  docsRoutes(api, () => openApiDocument!);
  openApiDocument = api.openApiDocument({
    title: SERVICE_NAME,
    description: 'Ranked recovery options for airline disruptions, flight data and operational snapshots. Every endpoint except /health, /openapi.json and /docs needs an X-API-Key header. Errors are {"detail": "<sentence>"}.',
  });
  app.use(router);

  app.use(fallbackHandler(stack));
  app.use(errorHandler(config.bodyLimitBytes));
  return app;
}
