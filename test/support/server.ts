// Start the real app on an ephemeral port with a known test configuration, talk to it over HTTP, stop it.
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { BUNDLED_SCHEDULES_DIR, loadConfig, type Config } from '../../src/config.ts';
import { loadScheduleCatalog, type ScheduleCatalog } from '../../src/formats/schedule-json/schedule-catalog.ts';
import { createApp } from '../../src/http/app.ts';
import type { EndpointModule } from '../../src/http/deps.ts';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import { createInProcessRunner } from '../../src/runtime/simulation-runner.ts';
import { createJobRunner } from '../../src/runtime/jobs/job-runner.ts';
import { createMemoryJobStore } from '../../src/runtime/jobs/memory-store.ts';
import { createLogger } from '../../src/http/logging.ts';
import type { DayStoreHandle } from '../../src/store/day-store-handle.ts';

/** Keys of the test instances. The server itself is a staging instance unless a test says otherwise. */
export const STAGING_KEY = 'drs_staging_test-key-0123456789abcdefghijkl';
export const SECOND_STAGING_KEY = 'drs_staging_second-key-ZYXWVUTSRQPONMLKJ';
export const PRODUCTION_KEY = 'drs_production_test-key-9876543210zyxwvu';

export const FIXTURE_SCHEDULES_DIR = fileURLToPath(new URL('../fixtures/schedules/', import.meta.url));

export const TEST_ENV = {
  APP_ENV: 'staging',
  API_KEYS: `${STAGING_KEY},${SECOND_STAGING_KEY}`,
  CORS_OPERATOR_DOMAIN: 'operator.com',
  CORS_ALLOWED_ORIGINS: 'https://client.example.org,http://localhost:5173',
  LOG_LEVEL: 'info',
} as const;

// Loading the bundled schedules takes a fraction of a second; do it once per test file.
let bundled: ScheduleCatalog | undefined;
/** The real bundled schedules (schedules/*.json), default schedule `default`. */
export function bundledCatalog(): ScheduleCatalog {
  bundled ??= loadScheduleCatalog(BUNDLED_SCHEDULES_DIR, 'default');
  return bundled;
}

let fixture: ScheduleCatalog | undefined;
/** The hand-written fixture (test/fixtures/schedules/default.json), whose every value the tests know. */
export function fixtureCatalog(): ScheduleCatalog {
  fixture ??= loadScheduleCatalog(FIXTURE_SCHEDULES_DIR, 'default');
  return fixture;
}

export interface TestServer {
  baseUrl: string;
  config: Config;
  app: ReturnType<typeof createApp>;
  /** Every log line the app wrote, as parsed JSON objects, plus the raw text. */
  logLines: () => Record<string, unknown>[];
  logText: () => string;
  get: (path: string, options?: { key?: string | null; headers?: Record<string, string> }) => Promise<Response>;
  close: () => Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  schedules?: ScheduleCatalog;
  extraEndpoints?: EndpointModule[];
  /** For POST /simulate and the jobs, run in process on it; tests that simulate pass a real solver pool. */
  solver?: Solver;
  /** With a solver: whether submitted jobs are run (default true); false leaves them queued. */
  runJobs?: boolean;
  /** Where operational days live (test/support/databases.ts makes one); the /days routes need it. */
  days?: DayStoreHandle;
}

export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const { config } = loadConfig({ ...TEST_ENV, ...options.env });
  const chunks: string[] = [];
  const logger = createLogger(config.logLevel, { write: (chunk: string) => { chunks.push(chunk); } });
  const schedules = options.schedules ?? bundledCatalog();
  const simulations = options.solver ? createInProcessRunner(schedules, options.solver) : undefined;
  const jobRunner = simulations ? createJobRunner(simulations) : undefined;
  const jobs = jobRunner ? createMemoryJobStore(jobRunner, { resultTtlSeconds: config.jobs.resultTtlSeconds, queueMax: config.jobs.queueMax }) : undefined;
  if (options.runJobs !== false) jobs?.start();
  const app = createApp({
    config, logger, schedules, extraEndpoints: options.extraEndpoints ?? [], ...(options.days ? { days: options.days } : {}),
    ...(simulations && jobRunner && jobs ? { simulations, jobRunner, jobs } : {}),
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const logText = () => chunks.join('');
  return {
    baseUrl,
    config,
    app,
    logText,
    logLines: () => logText().split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>),
    get: (path, { key = STAGING_KEY, headers = {} } = {}) =>
      fetch(`${baseUrl}${path}`, { headers: { ...(key === null ? {} : { 'X-API-Key': key }), ...headers } }),
    close: async () => {
      await jobs?.close();
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}

export interface RawResponse { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/**
 * A request whose path goes on the wire exactly as written. fetch (WHATWG URL) would resolve `..`,
 * `%2e%2e` and backslashes before sending, hiding what a hostile client can really send.
 */
export function rawRequest(baseUrl: string, method: string, rawPath: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path: rawPath, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
