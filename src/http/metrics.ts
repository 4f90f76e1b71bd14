// Prometheus metrics, served at GET /metrics (behind the API key like every non-public path). One
// registry per app, so that tests can build many apps in one process; main.ts builds exactly one.
//
// What is measured:
//   http_request_duration_seconds{method,route,status}  histogram; route is the route template
//                                                       (/flights/:schedule_file), never the raw path,
//                                                       so a caller cannot grow the label set; status
//                                                       is `aborted` when the client left first
//   http_requests_in_flight                             gauge
//   simulation_duration_seconds{status}                 histogram of POST /simulate
//   simulations_in_flight                               gauge (simulations past validation)
//   rate_limited_requests_total{limit}                  counter; limit = requests | simulations
//   solver_pool_threads / _workers_ready / _running / _queued / _queue_capacity / _utilization   gauges
//   solver_solves_total{outcome}                        counter; outcome = completed | hard_stopped |
//                                                       crashed | rejected_queue_full | queue_timeout |
//                                                       dropped
//   plus prom-client's default process metrics (process_resident_memory_bytes, event loop lag, GC).
import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SolverStats } from '../recovery/model/solver-port.ts';

export interface Metrics {
  readonly registry: Registry;
  /** Times every request; mounted first in createApp. */
  readonly middleware: RequestHandler;
  readonly rateLimited: Counter<'limit'>;
  readonly simulationsInFlight: Gauge;
  /** The pool's levels and counters are read at each scrape (once per scrape, however many metrics use them). */
  watchSolverPool(stats: () => SolverStats | Promise<SolverStats>): void;
}

/** The label for a request's route: its template when a route matched, else a fixed word. */
function routeLabel(req: Parameters<RequestHandler>[0]): string {
  const template = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof template === 'string') return `${req.baseUrl}${template}`;
  if (req.originalUrl.startsWith('/docs')) return '/docs';
  // The console's page and assets (hashed names): one label, not one per file.
  if (req.originalUrl.startsWith('/console')) return '/console';
  return 'unmatched';
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request arriving to the response being sent, by route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'http_requests_in_flight', help: 'Requests received and not yet answered.', registers: [registry] });
  const simulationDuration = new Histogram({
    name: 'simulation_duration_seconds',
    help: 'Duration of POST /simulate requests, by status.',
    labelNames: ['status'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30],
    registers: [registry],
  });
  const simulationsInFlight = new Gauge({ name: 'simulations_in_flight', help: 'Simulations past validation and not yet answered.', registers: [registry] });
  const rateLimited = new Counter({
    name: 'rate_limited_requests_total',
    help: 'Requests answered 429, by the limit they exceeded.',
    labelNames: ['limit'] as const,
    registers: [registry],
  });

  const middleware: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    inFlight.inc();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      inFlight.dec();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(req);
      // A response closed before it was sent: the client went away.
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      duration.observe({ method: req.method, route, status }, seconds);
      if (req.method === 'POST' && route === '/simulate') simulationDuration.observe({ status }, seconds);
    };
    res.once('finish', finish);
    res.once('close', finish);
    next();
  };

  return {
    registry,
    middleware,
    rateLimited,
    simulationsInFlight,
    watchSolverPool(readStats) {
      // The simulation thread answers asynchronously: one question per scrape, shared by the metrics.
      let last: { at: number; stats: Promise<SolverStats> } | undefined;
      const stats = () => {
        const now = performance.now();
        if (!last || now - last.at > 100) last = { at: now, stats: Promise.resolve(readStats()) };
        return last.stats;
      };
      const level = (name: string, help: string, read: (s: SolverStats) => number) => new Gauge({
        name, help, registers: [registry],
        async collect() { this.set(read(await stats())); },
      });
      level('solver_pool_threads', 'Solver worker threads (SOLVER_THREADS).', (s) => s.threads);
      level('solver_pool_workers_ready', 'Workers that take solves; below the threads while a replaced worker loads.', (s) => s.workersReady);
      level('solver_pool_running', 'Solves running on a worker.', (s) => s.running);
      level('solver_pool_queued', 'Solves waiting for a worker.', (s) => s.queued);
      level('solver_pool_queue_capacity', 'Solves that may wait (SOLVER_QUEUE).', (s) => s.maxQueue);
      level('solver_pool_utilization', 'Share of the workers that are solving, 0 to 1.', (s) => s.running / Math.max(1, s.threads));
      const outcomes: Record<string, (s: SolverStats) => number> = {
        completed: (s) => s.completed - s.hardStops,
        hard_stopped: (s) => s.hardStops,
        crashed: (s) => s.crashes,
        rejected_queue_full: (s) => s.rejectedQueueFull,
        queue_timeout: (s) => s.queueTimeouts,
        dropped: (s) => s.aborted,
      };
      new Counter({
        name: 'solver_solves_total',
        help: 'Solves by how they ended: completed, hard_stopped (worker terminated past the time limit), crashed, rejected_queue_full, queue_timeout, dropped (caller gone while waiting).',
        labelNames: ['outcome'] as const,
        registers: [registry],
        async collect() {
          const s = await stats();
          this.reset();
          for (const [outcome, read] of Object.entries(outcomes)) this.inc({ outcome }, read(s));
        },
      });
    },
  };
}
