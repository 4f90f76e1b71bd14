// The service's configuration: one zod schema over the environment, parsed once at start by main.ts and
// passed down. Nothing else in the service reads process.env.
//
// Environment variables (the README copies this block):
//
//   PORT                  TCP port to listen on. Default 8000. 0 picks a free port.
//   HOST                  Interface to bind. Default 127.0.0.1 when APP_ENV=development, else 0.0.0.0.
//   APP_ENV               development | staging | production. Default development. A key is valid only
//                         for the environment whose key list holds it.
//   API_KEYS              Comma-separated API keys valid for this environment (plain keys or
//                         sha256:<hex> hashes). Set this or API_KEYS_FILE, not both.
//   API_KEYS_FILE         Path of a file with one key or key hash a line; hashes are written
//                         `sha256:<64 hex digits>` (mint one with `npm run key -- <env>`); blank lines
//                         and lines starting with # are ignored.
//                         staging and production refuse to start without a key. development with no key
//                         mints one at start and prints it once to stdout.
//   CORS_OPERATOR_DOMAIN  The operator's domain, e.g. operator.com: https://operator.com and
//                         https://<any subdomain>.operator.com may call the API from a browser. Default none.
//   CORS_ALLOWED_ORIGINS  Comma-separated extra origins, e.g. https://ops.client.example. Default none.
//   DEFAULT_AIRLINE       Airline used when a request names none. Default NV.
//   DEFAULT_SCHEDULE      Schedule served when a request names none (a file name in SCHEDULES_DIR, with
//                         or without .json). Default `default`.
//   SCHEDULES_DIR         Folder of schedule files, all loaded once at start. Default the repository's
//                         schedules/ folder (found from this file, not from the working directory).
//   LOG_LEVEL             fatal | error | warn | info | debug | trace | silent. Default info.
//   BODY_LIMIT_BYTES      Largest accepted request body in bytes; larger bodies get 413. Default 102400.
//   SOLVER_THREADS        Solver worker threads (GLPK WebAssembly), 1-64. Default: one per CPU core.
//                         They belong to the simulation thread, which builds the models; the HTTP thread
//                         only serves requests (so a 2-core machine runs 4 busy threads under load, and
//                         the simulation thread's restricted thread, with one GLPK worker of its own,
//                         solves a single delay's cancellation and delay propagation strategies beside
//                         them: runtime/simulation-thread-restricted.ts).
//
// Limits and operations (README "Operating the service"):
//
//   RATE_LIMIT_PER_MINUTE            Requests per API key per minute over every route that needs a key
//                                    (fixed one-minute window, counted per instance, or in Redis with
//                                    REDIS_URL). Default 600; 0 turns
//                                    the limit off. Beyond it: 429 with Retry-After and RateLimit headers.
//                                    Public paths (/health, /openapi.json, /docs) are never counted.
//   RATE_LIMIT_SIMULATE_PER_MINUTE   POST /simulate and POST /simulations per API key per minute, counted besides the general
//                                    limit. Default 120; 0 turns it off.
//   SOLVER_QUEUE                     Solves that may wait for a free solver worker (each simulation
//                                    submits one solve per evaluated strategy, 4 by default). Beyond it a
//                                    simulation is answered 503 with Retry-After at once. 0-10000.
//                                    Default 16 per solver thread.
//   SOLVER_QUEUE_TIMEOUT_MS          Longest a solve waits in that queue; a simulation whose solve waited
//                                    longer is answered 503 with Retry-After. Default 15000. The wait
//                                    includes the simulation's own other strategies when there are fewer
//                                    threads than strategies: keep it above
//                                    (⌈4 / SOLVER_THREADS⌉ − 1) × (time limit + hard-stop grace). A job's
//                                    solves may wait up to what is left of the job's own time limit
//                                    when that is longer (its strategies queue behind one another).
//   SOLVER_HARD_STOP_GRACE_MS        GLPK's own limit ends this long before a solve's deadline (at most
//                                    a quarter of the time left), since GLPK may overrun it; a worker
//                                    still solving at the deadline is terminated and replaced, and the
//                                    strategy reports time_limit with its best plan so far. Default 500.
//   SIMULATION_RESTRICTED_THREAD     on: a single delay's cancellation and delay propagation strategies
//                                    are solved on a second thread beside the integrated proof
//                                    (runtime/simulation-thread-restricted.ts). Default off: on a 2-core
//                                    machine it was slower over HTTP (docs/model.md 3.6, seventh round).
//   SIMULATION_MAX_TIME_LIMIT_MS     Largest config.solver.time_limit_ms a simulation may ask for; more is
//                                    a 400 naming the field and this limit. Default 10000.
//   SIMULATION_MAX_MODEL_ROUTES      Largest (config.solver.max_candidate_aircraft + 1) ×
//                                    config.solver.max_routes_per_aircraft a simulation may ask for (it
//                                    bounds the routes, hence the columns, memory and build time of each
//                                    model: about 20-60 ms at the defaults (7 × 150 = 1050), up to about
//                                    0.4 s at 3500, on the simulation thread, where simulations queue
//                                    behind one another's builds). More is a 400 naming the fields and
//                                    this limit. Default 3500.
//   SHUTDOWN_GRACE_MS                After SIGTERM or SIGINT: how long requests in flight may take to
//                                    finish before their connections are cut. Default 30000, which covers
//                                    the longest simulation the defaults allow (queue 15 s + time limit
//                                    10 s + grace 0.5 s + model build). Give the orchestrator's kill
//                                    timeout a few seconds more (Kubernetes: terminationGracePeriodSeconds
//                                    35).
//
// Recovery jobs and scale-out (README "Running at scale"):
//
//   JOB_MAX_TIME_LIMIT_MS            Largest time_limit_ms (and config.solver.time_limit_ms) a job of
//                                    POST /simulations may ask for; more is a 400 naming the field and
//                                    this limit. Default 600000 (10 minutes); 50-3600000.
//   JOB_RESULT_TTL_S                 How long a finished job (its state, progress events and result) is
//                                    kept, seconds from when it finished; then it is 404. Default 86400.
//   JOB_QUEUE_MAX                    Jobs that may wait for a solver (queued, not running) across the
//                                    deployment; beyond it POST /simulations is answered 503 with
//                                    Retry-After. Default 100; 1-100000.
//   REDIS_URL                        redis://[user:password@]host:port[/db] (or rediss://). Unset: jobs
//                                    run in this process (embedded mode; a restart loses them). Set: jobs
//                                    go through a BullMQ queue on this Redis, solved by `npm run worker`
//                                    processes; API instances keep no job state and share the rate-limit
//                                    counters there.
//
// Operational days (README "A day of operations"):
//
//   DATABASE_URL                     postgres://[user[:password]@]host[:port]/database of a PostgreSQL
//                                    server (12 or later) for the days and their revisions; several API
//                                    instances may share it. Unset: the embedded PGlite in PGLITE_DIR,
//                                    opened at the first /days request (about 1.5 s; the very first
//                                    time, when it creates the directory, several seconds).
//   PGLITE_DIR                       The embedded database's directory. Default the repository's
//                                    data/pglite (git-ignored). One process per directory (a lock file
//                                    beside it says which).
//   FAULT_DAY_WRITE_PAUSE_MS         FAULT INJECTION FOR TESTS ONLY: a revision write pauses this long
//                                    inside its transaction and logs 'revision write paused', so that a
//                                    test can kill the process mid-write. Refused when APP_ENV=production.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { AIRLINE_CODE_PATTERN } from './domain/schedule.ts';
import { APP_ENVIRONMENTS, hashApiKey, mintApiKey, parseKeyLine, type AppEnv } from './security/api-keys.ts';

export type { AppEnv } from './security/api-keys.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  env: AppEnv;
  port: number;
  host: string;
  logLevel: LogLevel;
  bodyLimitBytes: number;
  /** SHA-256 digests of the keys valid for this environment; never the keys themselves. */
  apiKeyHashes: readonly Buffer[];
  cors: {
    /** Lower-case host name such as operator.com, or null when no operator domain is configured. */
    operatorDomain: string | null;
    /** Exact origins (scheme://host[:port]) allowed besides the operator's domain. */
    allowedOrigins: readonly string[];
  };
  defaultAirline: string;
  defaultSchedule: string;
  /** Absolute path. */
  schedulesDir: string;
  /** Solver worker threads; undefined means one per core. */
  solverThreads: number | undefined;
  /** Solves that may wait for a worker; undefined means 16 per thread. */
  solverQueue: number | undefined;
  solverQueueTimeoutMs: number;
  solverHardStopGraceMs: number;
  /** Whether the API's simulation thread solves a single delay's restricted strategies on a thread of their own. */
  restrictedThread: boolean;
  rateLimit: {
    /** Requests per key per minute on keyed routes; 0 = off. */
    perMinute: number;
    /** POST /simulate per key per minute; 0 = off. */
    simulatePerMinute: number;
  };
  simulation: SimulationLimits;
  jobs: JobLimits;
  /** Redis of the scale-out mode (a secret: it may hold a password); null = embedded mode. */
  redisUrl: string | null;
  /** Where operational days are kept. */
  days: DaysConfig;
  shutdownGraceMs: number;
}

export interface DaysConfig {
  /** PostgreSQL server (a secret: it may hold a password); null = the embedded PGlite in pgliteDir. */
  databaseUrl: string | null;
  /** Absolute path of the embedded database's directory. */
  pgliteDir: string;
  /** Test-only fault injection (FAULT_DAY_WRITE_PAUSE_MS); 0 = none. */
  writePauseMs: number;
}

/** The operator's bounds on recovery jobs (POST /simulations). */
export interface JobLimits {
  /** Largest time limit of one job, milliseconds. */
  maxTimeLimitMs: number;
  /** Seconds a finished job is kept. */
  resultTtlSeconds: number;
  /** Jobs that may wait (queued) before submissions get 503. */
  queueMax: number;
}

/** The operator's bound on the work one simulation may ask for (checked before any model is built). */
export interface SimulationLimits {
  /** Largest config.solver.time_limit_ms, milliseconds. */
  maxTimeLimitMs: number;
  /** Largest (max_candidate_aircraft + 1) × max_routes_per_aircraft. */
  maxModelRoutes: number;
}

export interface LoadedConfig {
  config: Config;
  /**
   * Set only in development when no key was configured: the key minted for this run, to be printed once
   * by main.ts and then dropped. Its hash is in config.apiKeyHashes.
   */
  generatedApiKey: string | null;
}

/** A configuration problem, as one sentence naming the variable. Never contains a key. */
export class ConfigError extends Error {}

/** The repository's schedules/ folder, resolved from this file so the working directory does not matter. */
export const BUNDLED_SCHEDULES_DIR = fileURLToPath(new URL('../schedules/', import.meta.url));

/** The embedded database's default directory: data/pglite in the repository (git-ignored). */
export const DEFAULT_PGLITE_DIR = fileURLToPath(new URL('../data/pglite', import.meta.url));

// An unset variable and one set to the empty string mean the same: "use the default".
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional());

/** A variable holding a whole number in [min, max]; the message names the unit. */
function wholeNumber(min: number, max: number, unit: string) {
  const rule = `must be a whole number of ${unit} between ${min} and ${max}`;
  return z.string().trim().regex(/^\d{1,10}$/, rule).transform(Number).refine((n) => n >= min && n <= max, rule);
}

const hostName = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

const EnvSchema = z.object({
  PORT: optional(z.string().trim()
    .regex(/^\d{1,5}$/, 'must be a whole number between 0 and 65535')
    .transform(Number)
    .refine((port) => port <= 65535, 'must be a whole number between 0 and 65535')),
  HOST: optional(z.string().trim()),
  APP_ENV: optional(z.enum(APP_ENVIRONMENTS, { error: `must be one of ${APP_ENVIRONMENTS.join(', ')}` })),
  API_KEYS: optional(z.string()),
  API_KEYS_FILE: optional(z.string().trim()),
  CORS_OPERATOR_DOMAIN: optional(z.string().trim().toLowerCase()
    .regex(hostName, 'must be a bare domain name such as operator.com (no scheme, port or path)')),
  CORS_ALLOWED_ORIGINS: optional(z.string()),
  DEFAULT_AIRLINE: optional(z.string().trim()
    .regex(AIRLINE_CODE_PATTERN, 'must be a two-character airline code of capital letters or digits, such as NV')),
  DEFAULT_SCHEDULE: optional(z.string().trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be the name of a schedule file, such as default or default.json')),
  SCHEDULES_DIR: optional(z.string().trim()),
  LOG_LEVEL: optional(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })),
  SOLVER_THREADS: optional(z.string().trim()
    .regex(/^\d{1,2}$/, 'must be a whole number of threads between 1 and 64')
    .transform(Number)
    .refine((threads) => threads >= 1 && threads <= 64, 'must be a whole number of threads between 1 and 64')),
  BODY_LIMIT_BYTES: optional(z.string().trim()
    .regex(/^\d{1,9}$/, 'must be a whole number of bytes between 1 and 100000000')
    .transform(Number)
    .refine((bytes) => bytes >= 1 && bytes <= 100_000_000, 'must be a whole number of bytes between 1 and 100000000')),
  RATE_LIMIT_PER_MINUTE: optional(wholeNumber(0, 1_000_000, 'requests per minute (0 turns the limit off)')),
  RATE_LIMIT_SIMULATE_PER_MINUTE: optional(wholeNumber(0, 1_000_000, 'simulations per minute (0 turns the limit off)')),
  SOLVER_QUEUE: optional(wholeNumber(0, 10_000, 'queued solves')),
  SOLVER_QUEUE_TIMEOUT_MS: optional(wholeNumber(1, 600_000, 'milliseconds')),
  SOLVER_HARD_STOP_GRACE_MS: optional(wholeNumber(0, 60_000, 'milliseconds')),
  SIMULATION_RESTRICTED_THREAD: optional(z.enum(['on', 'off'], { error: 'must be on or off' })),
  SIMULATION_MAX_TIME_LIMIT_MS: optional(wholeNumber(50, 120_000, 'milliseconds')),
  SIMULATION_MAX_MODEL_ROUTES: optional(wholeNumber(1, 1_220_000, 'routes')),
  SHUTDOWN_GRACE_MS: optional(wholeNumber(0, 600_000, 'milliseconds')),
  JOB_MAX_TIME_LIMIT_MS: optional(wholeNumber(50, 3_600_000, 'milliseconds')),
  JOB_RESULT_TTL_S: optional(wholeNumber(1, 2_592_000, 'seconds')),
  JOB_QUEUE_MAX: optional(wholeNumber(1, 100_000, 'jobs')),
  REDIS_URL: optional(z.string().trim().regex(/^rediss?:\/\/[^\s]+$/, 'must be a Redis URL such as redis://127.0.0.1:6379')),
  DATABASE_URL: optional(z.string().trim().regex(/^postgres(ql)?:\/\/[^\s]+$/, 'must be a PostgreSQL URL such as postgres://user@127.0.0.1:5432/recovery')),
  PGLITE_DIR: optional(z.string().trim()),
  FAULT_DAY_WRITE_PAUSE_MS: optional(wholeNumber(0, 600_000, 'milliseconds')),
});

// Values of these variables are secrets or file contents: an error names the variable, never the value.
const SECRET_VARIABLES = new Set(['API_KEYS', 'REDIS_URL', 'DATABASE_URL']);

function describeIssue(issue: z.core.$ZodIssue, env: Record<string, string | undefined>): string {
  const variable = String(issue.path[0] ?? 'environment');
  const value = env[variable];
  const shown = value !== undefined && !SECRET_VARIABLES.has(variable) ? ` (got '${value.slice(0, 80)}')` : '';
  return `${variable} ${issue.message}${shown}.`;
}

/** One origin of CORS_ALLOWED_ORIGINS in its canonical form, or null when it is not a bare origin. */
function canonicalOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== '/') return null;
  return url.origin;
}

function readKeyFile(path: string): Buffer[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`API_KEYS_FILE '${path}' cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  const hashes: Buffer[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const hash = parseKeyLine(line);
    if (!hash) throw new ConfigError(`API_KEYS_FILE '${path}' line ${index + 1} starts with sha256: but is not followed by 64 hex digits.`);
    hashes.push(hash);
  });
  return hashes;
}

function keysFromList(list: string): Buffer[] {
  const hashes: Buffer[] = [];
  list.split(',').map((key) => key.trim()).filter((key) => key !== '').forEach((key, index) => {
    const hash = parseKeyLine(key);
    if (!hash) throw new ConfigError(`API_KEYS entry ${index + 1} starts with sha256: but is not followed by 64 hex digits.`);
    hashes.push(hash);
  });
  return hashes;
}

/**
 * Parse and check the environment once. Throws ConfigError with one sentence naming the variable when
 * a value is malformed, when both API_KEYS and API_KEYS_FILE are set, or when staging or production has
 * no key. In development without a key it mints one (see LoadedConfig.generatedApiKey).
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): LoadedConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(describeIssue(parsed.error.issues[0]!, env));
  const vars = parsed.data;
  const appEnv: AppEnv = vars.APP_ENV ?? 'development';

  if (vars.API_KEYS !== undefined && vars.API_KEYS_FILE !== undefined) {
    throw new ConfigError('Set either API_KEYS or API_KEYS_FILE, not both.');
  }
  const apiKeyHashes = vars.API_KEYS_FILE !== undefined
    ? readKeyFile(resolve(vars.API_KEYS_FILE))
    : keysFromList(vars.API_KEYS ?? '');
  let generatedApiKey: string | null = null;
  if (apiKeyHashes.length === 0) {
    if (appEnv !== 'development') {
      throw new ConfigError(`APP_ENV is ${appEnv} but no API key is configured: set API_KEYS or API_KEYS_FILE (mint a key with \`npm run key -- ${appEnv}\`).`);
    }
    generatedApiKey = mintApiKey('development');
    apiKeyHashes.push(hashApiKey(generatedApiKey));
  }

  if (vars.FAULT_DAY_WRITE_PAUSE_MS && appEnv === 'production') {
    throw new ConfigError('FAULT_DAY_WRITE_PAUSE_MS is a fault injection for tests and is refused when APP_ENV is production.');
  }

  const allowedOrigins: string[] = [];
  for (const entry of (vars.CORS_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter((o) => o !== '')) {
    const origin = canonicalOrigin(entry);
    if (!origin) throw new ConfigError(`CORS_ALLOWED_ORIGINS entry '${entry.slice(0, 80)}' must be an origin such as https://app.example.com (scheme, host and optional port; no path).`);
    allowedOrigins.push(origin);
  }

  return {
    config: {
      env: appEnv,
      port: vars.PORT ?? 8000,
      host: vars.HOST ?? (appEnv === 'development' ? '127.0.0.1' : '0.0.0.0'),
      logLevel: vars.LOG_LEVEL ?? 'info',
      bodyLimitBytes: vars.BODY_LIMIT_BYTES ?? 102_400,
      apiKeyHashes,
      cors: { operatorDomain: vars.CORS_OPERATOR_DOMAIN ?? null, allowedOrigins },
      defaultAirline: vars.DEFAULT_AIRLINE ?? 'NV',
      defaultSchedule: (vars.DEFAULT_SCHEDULE ?? 'default').replace(/\.json$/, ''),
      schedulesDir: vars.SCHEDULES_DIR !== undefined ? resolve(vars.SCHEDULES_DIR) : BUNDLED_SCHEDULES_DIR,
      solverThreads: vars.SOLVER_THREADS,
      solverQueue: vars.SOLVER_QUEUE,
      solverQueueTimeoutMs: vars.SOLVER_QUEUE_TIMEOUT_MS ?? 15_000,
      solverHardStopGraceMs: vars.SOLVER_HARD_STOP_GRACE_MS ?? 500,
      restrictedThread: vars.SIMULATION_RESTRICTED_THREAD === 'on',
      rateLimit: {
        perMinute: vars.RATE_LIMIT_PER_MINUTE ?? 600,
        simulatePerMinute: vars.RATE_LIMIT_SIMULATE_PER_MINUTE ?? 120,
      },
      simulation: {
        maxTimeLimitMs: vars.SIMULATION_MAX_TIME_LIMIT_MS ?? 10_000,
        maxModelRoutes: vars.SIMULATION_MAX_MODEL_ROUTES ?? 3500,
      },
      jobs: {
        maxTimeLimitMs: vars.JOB_MAX_TIME_LIMIT_MS ?? 600_000,
        resultTtlSeconds: vars.JOB_RESULT_TTL_S ?? 86_400,
        queueMax: vars.JOB_QUEUE_MAX ?? 100,
      },
      redisUrl: vars.REDIS_URL ?? null,
      days: {
        databaseUrl: vars.DATABASE_URL ?? null,
        pgliteDir: vars.PGLITE_DIR !== undefined ? resolve(vars.PGLITE_DIR) : DEFAULT_PGLITE_DIR,
        writePauseMs: vars.FAULT_DAY_WRITE_PAUSE_MS ?? 0,
      },
      shutdownGraceMs: vars.SHUTDOWN_GRACE_MS ?? 30_000,
    },
    generatedApiKey,
  };
}
