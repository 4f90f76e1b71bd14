// createApp builds the Express application from its dependencies; main.ts starts it, tests start it
// on port 0. Order matters and is the security design:
//   request id + log -> security headers -> CORS (answers preflights) -> API-key gate (every routed
//   path outside PUBLIC_PATHS) -> JSON body rules (routed POST/PUT/PATCH) -> routes -> 404/405 -> errors.
import express, { type Express, type RequestHandler } from 'express';
import type { Config } from '../config.ts';
import type { ScheduleCatalog } from '../domain/schedule-catalog.ts';
import { ApiBuilder, type RouteModule } from './api-builder.ts';
import { createKeyVerifier } from './api-keys.ts';
import { apiKeyGate } from './auth.ts';
import { errorHandler, fallbackHandler, HttpError } from './errors.ts';
import { requestLogger, type Logger } from './logging.ts';
import { isMethodRouted, routedMethodsFor } from './route-table.ts';
import { docsRoutes } from './routes/docs.ts';
import { flightRoutes } from './routes/flights.ts';
import { healthRoutes, SERVICE_NAME } from './routes/health.ts';
import { simulateRoutes } from './routes/simulate.ts';
import { snapshotRoutes } from './routes/snapshot.ts';
import { solverConfigRoutes } from './routes/solver-config.ts';
import type { SolverPort } from '../recovery/simulate.ts';
import { corsMiddleware, securityHeaders } from './security.ts';

export interface AppDeps {
  config: Config;
  logger: Logger;
  schedules: ScheduleCatalog;
  /** Where POST /simulate solves its models: the worker pool in production, an in-process solver in some tests. */
  solver?: SolverPort;
  /** Route modules appended after ROUTE_MODULES (tests use it; production code adds to the list). */
  extraRoutes?: readonly RouteModule<AppDeps>[];
}

/**
 * The API's route modules, one per concern. A new module (e.g. simulate, solver config) goes here;
 * its routes need a key without anyone saying so (see auth.ts).
 */
export const ROUTE_MODULES: readonly RouteModule<AppDeps>[] = [healthRoutes, flightRoutes, snapshotRoutes, simulateRoutes, solverConfigRoutes];

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

export function createApp(deps: AppDeps): Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  // /Flights or /health/ are not other spellings of a route: one path, one meaning, one auth decision.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  // Flat query strings only (no a[b]=c objects); a repeated parameter arrives as an array and is refused.
  app.set('query parser', 'simple');

  const stack = () => app.router.stack;
  app.use(requestLogger(deps.logger));
  app.use(securityHeaders());
  app.use(corsMiddleware(config.cors));
  app.use(apiKeyGate(createKeyVerifier(config.apiKeyHashes), stack));
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
