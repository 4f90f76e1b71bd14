// createApp builds the Express application from its dependencies; main.ts starts it, tests start it
// on port 0. Order matters and is the security design:
//   metrics timer -> request id + log -> security headers -> compression -> draining (503 while shutting down) ->
//   URL length (414) -> CORS (answers preflights) -> API-key gate (every routed path outside
//   PUBLIC_PATHS) -> per-key rate limits (429; only requests with a valid key) -> JSON body rules
//   (routed POST/PUT/PATCH) -> routes -> 404/405 -> errors.
// Everything that can answer comes after the security headers, so 429, 503 and 414 carry them too.
import compression from 'compression';
import express, { type Express, type RequestHandler } from 'express';
import { createKeyVerifier } from '../security/api-keys.ts';
import { ApiBuilder } from './api-builder.ts';
import { apiKeyGate } from './auth.ts';
import { errorHandler, fallbackHandler, HttpError } from './errors.ts';
import { IF_NONE_MATCH_LOCAL, type AppDeps, type EndpointDeps, type EndpointModule } from './deps.ts';
import { requestLogger } from './logging.ts';
import { createMetrics } from './metrics.ts';
import { rateLimiters } from './rate-limit.ts';
import { isMethodRouted, routedMethodsFor } from './route-table.ts';
import { consoleEndpoints } from './endpoints/console.ts';
import { dayEndpoints } from './endpoints/days.ts';
import { docsEndpoints } from './endpoints/docs.ts';
import { flightEndpoints } from './endpoints/flights.ts';
import { healthEndpoints, SERVICE_NAME } from './endpoints/health.ts';
import { metricsEndpoints } from './endpoints/metrics.ts';
import { simulateEndpoints } from './endpoints/simulate.ts';
import { simulationJobEndpoints } from './endpoints/simulations.ts';
import { snapshotEndpoints } from './endpoints/snapshot.ts';
import { solverConfigEndpoints } from './endpoints/solver-config.ts';
import { corsMiddleware, securityHeaders } from './security.ts';

export type { AppDeps } from './deps.ts';

/** Longest accepted request URL (path and query), characters; longer is 414. */
export const MAX_URL_CHARS = 2048;

/** Seconds a client should wait before retrying on another instance while this one shuts down. */
const DRAINING_RETRY_AFTER_SECONDS = '5';

/**
 * The API's endpoint modules, one per concern. A new module goes here; its endpoints need a key
 * without anyone saying so (see auth.ts).
 */
export const ENDPOINT_MODULES: readonly EndpointModule[] = [healthEndpoints, flightEndpoints, snapshotEndpoints, simulateEndpoints, simulationJobEndpoints, dayEndpoints, solverConfigEndpoints, metricsEndpoints];

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
    next(new HttpError(503, 'The service is shutting down; retry after the Retry-After seconds.', { 'Retry-After': DRAINING_RETRY_AFTER_SECONDS }, { kind: 'shutting-down' }));
  };
}

/** 414 for a URL longer than MAX_URL_CHARS: bounds what every later step parses, logs and quotes. */
const urlLength: RequestHandler = (req, _res, next) => {
  next(req.originalUrl.length > MAX_URL_CHARS ? new HttpError(414, `Request URL is longer than the limit of ${MAX_URL_CHARS} characters.`) : undefined);
};

/**
 * Drops If-None-Match and If-Modified-Since: Express and serve-static treat `If-None-Match: *` as fresh
 * even with ETags off and answer a bodiless 304 instead of the answer (found by the fuzz test). A
 * route that sets its own ETag reads the header from res.locals[IF_NONE_MATCH_LOCAL] and decides.
 */
const unconditional: RequestHandler = (req, res, next) => {
  res.locals[IF_NONE_MATCH_LOCAL] = req.headers['if-none-match'];
  delete req.headers['if-none-match'];
  delete req.headers['if-modified-since'];
  next();
};

/** Where createApp keeps the OpenAPI document it serves, for tools that write it to a file (npm run openapi). */
export const OPENAPI_DOCUMENT_LOCAL = 'openApiDocument';

/**
 * gzip, deflate or br as the client's Accept-Encoding asks, for answers of 1 KB and more (a /simulate
 * answer of 43 KB goes out as about 3 KB, the default snapshot's 290 KB as 25 KB). Never an event
 * stream: each event must reach the client when it is written, not when a compression block fills.
 */
function compressedAnswers(): RequestHandler {
  return compression({
    filter: (req, res) => !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') && compression.filter(req, res),
  });
}

export function createApp(appDeps: AppDeps): Express {
  const deps: EndpointDeps = { ...appDeps, metrics: appDeps.metrics ?? createMetrics() };
  const { config, metrics, jobRunner } = deps;
  if (jobRunner?.stats) metrics.watchSolverPool(() => jobRunner.stats!());
  const app = express();
  app.disable('x-powered-by');
  // Express's own ETags are off: only the routes that know their version send one (conditional.ts).
  app.set('etag', false);
  // /Flights or /health/ are not other spellings of a route: one path, one meaning, one auth decision.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  // Flat query strings only (no a[b]=c objects); a repeated parameter arrives as an array and is refused.
  app.set('query parser', 'simple');

  const stack = () => app.router.stack;
  app.use(metrics.middleware);
  app.use(requestLogger(deps.logger));
  app.use(securityHeaders());
  app.use(compressedAnswers());
  if (deps.draining) app.use(drainingGate(deps.draining));
  app.use(urlLength);
  app.use(unconditional);
  app.use(corsMiddleware(config.cors));
  app.use(apiKeyGate(createKeyVerifier(config.apiKeyHashes), stack));
  for (const limiter of rateLimiters(config.rateLimit, (limit) => metrics.rateLimited.inc({ limit }), deps.rateLimitRedis)) app.use(limiter);
  app.use(jsonBody(config.bodyLimitBytes, stack));

  const router = express.Router({ caseSensitive: true, strict: true });
  const api = new ApiBuilder(router, config.env !== 'production');
  for (const register of [...ENDPOINT_MODULES, ...(deps.extraEndpoints ?? [])]) register(api, deps);
  let openApiDocument: object | undefined;
  docsEndpoints(api, () => openApiDocument!);
  consoleEndpoints(api);
  openApiDocument = api.openApiDocument({
    title: SERVICE_NAME,
    description: 'Ranked recovery options for airline disruptions, flight data and operational snapshots. Every endpoint except /health, /openapi.json, /docs and /console needs an X-API-Key header. Errors are {"detail": "<sentence>"}.',
  });
  app.locals[OPENAPI_DOCUMENT_LOCAL] = openApiDocument;
  app.use(router);

  app.use(fallbackHandler(stack));
  app.use(errorHandler(config.bodyLimitBytes));
  return app;
}
