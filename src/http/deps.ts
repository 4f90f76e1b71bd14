// What createApp and the endpoint modules are given: built by main.ts (or a test), never by the app.
import type { Config } from '../config.ts';
import type { ScheduleCatalog } from '../formats/schedule-json/schedule-catalog.ts';
import type { JobStore } from '../runtime/jobs/job.ts';
import type { JobRunner } from '../runtime/jobs/job-runner.ts';
import type { SimulationRunner } from '../runtime/simulation-runner.ts';
import type { DayStoreHandle } from '../store/day-store-handle.ts';
import type { ApiBuilder } from './api-builder.ts';
import type { Logger } from './logging.ts';
import type { Metrics } from './metrics.ts';
import type { RedisCommand } from './rate-limit.ts';

export interface AppDeps {
  config: Config;
  logger: Logger;
  schedules: ScheduleCatalog;
  /**
   * Where simulations run (POST /simulate and POST /days/{day_id}/simulate await it): main.ts gives
   * the simulation thread; tests may give an in-process runner. Without one, those routes are a
   * programmer error (500).
   */
  simulations?: SimulationRunner;
  /** How jobs run (on the same simulations), and the solver's counters for /metrics. */
  jobRunner?: JobRunner;
  /** Where recovery jobs live (in process or in Redis); without it the /simulations routes answer 503. */
  jobs?: JobStore;
  /** Where operational days live (src/store/); without it the /days routes are a programmer error (500). */
  days?: DayStoreHandle;
  /** With REDIS_URL: sends a command to Redis, where the per-key rate limits are then counted for every instance. */
  rateLimitRedis?: RedisCommand;
  /** Prometheus registry and instruments; createApp makes its own when absent. */
  metrics?: Metrics;
  /** True once the process is shutting down: every new request is answered 503 with Connection: close. */
  draining?: () => boolean;
  /** Endpoint modules appended after ENDPOINT_MODULES (tests use it; production code adds to the list). */
  extraEndpoints?: readonly EndpointModule[];
}

/** Where createApp keeps the If-None-Match header for the routes that validate it themselves (GET /days/{day_id}). */
export const IF_NONE_MATCH_LOCAL = 'ifNoneMatch';

/** What an endpoint module sees: the app's dependencies with the defaults createApp filled in. */
export type EndpointDeps = AppDeps & { metrics: Metrics };

/** An endpoint module: declares its endpoints on the builder. Register it in ENDPOINT_MODULES (app.ts). */
export type EndpointModule = (api: ApiBuilder, deps: EndpointDeps) => void;
