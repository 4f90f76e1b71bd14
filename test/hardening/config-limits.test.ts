// Unit: the limit and operations variables of src/config.ts: their defaults, and a malformed value
// named in one sentence.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('limit variables', () => {
  it('unit: defaults: 600 requests and 120 simulations per key per minute, queue 16 per thread, 15 s queue wait, 0.5 s hard-stop grace, 10 s time limit, 3500 routes, 30 s shutdown grace', () => {
    const { config } = loadConfig({});
    expect(config).toMatchObject({
      rateLimit: { perMinute: 600, simulatePerMinute: 120 },
      solverQueue: undefined, solverQueueTimeoutMs: 15_000, solverHardStopGraceMs: 500,
      simulation: { maxTimeLimitMs: 10_000, maxModelRoutes: 3500 },
      shutdownGraceMs: 30_000,
    });
  });

  it('unit: explicit values are used, 0 turns a rate limit off', () => {
    const { config } = loadConfig({
      RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_SIMULATE_PER_MINUTE: '5', SOLVER_QUEUE: '0', SOLVER_QUEUE_TIMEOUT_MS: '100',
      SOLVER_HARD_STOP_GRACE_MS: '0', SIMULATION_MAX_TIME_LIMIT_MS: '500', SIMULATION_MAX_MODEL_ROUTES: '100', SHUTDOWN_GRACE_MS: '1000',
    });
    expect(config).toMatchObject({
      rateLimit: { perMinute: 0, simulatePerMinute: 5 }, solverQueue: 0, solverQueueTimeoutMs: 100, solverHardStopGraceMs: 0,
      simulation: { maxTimeLimitMs: 500, maxModelRoutes: 100 }, shutdownGraceMs: 1000,
    });
  });

  it('unit: a malformed or out-of-range value stops the start with a sentence naming the variable and the rule', () => {
    const failure = (env: Record<string, string>) => {
      try { loadConfig(env); } catch (error) { expect(error).toBeInstanceOf(ConfigError); return (error as Error).message; }
      throw new Error('expected a ConfigError');
    };
    expect(failure({ RATE_LIMIT_PER_MINUTE: 'lots' })).toBe("RATE_LIMIT_PER_MINUTE must be a whole number of requests per minute (0 turns the limit off) between 0 and 1000000 (got 'lots').");
    expect(failure({ SIMULATION_MAX_TIME_LIMIT_MS: '10' })).toBe("SIMULATION_MAX_TIME_LIMIT_MS must be a whole number of milliseconds between 50 and 120000 (got '10').");
    expect(failure({ SOLVER_QUEUE: '-1' })).toBe("SOLVER_QUEUE must be a whole number of queued solves between 0 and 10000 (got '-1').");
  });
});

describe('job variables', () => {
  it('unit: defaults: a 10-minute job time limit, results kept a day, 100 waiting jobs, no Redis (embedded mode)', () => {
    expect(loadConfig({}).config).toMatchObject({ jobs: { maxTimeLimitMs: 600_000, resultTtlSeconds: 86_400, queueMax: 100 }, redisUrl: null });
  });

  it('unit: explicit values are used; a malformed one is named, and REDIS_URL (it may hold a password) is never echoed', () => {
    const { config } = loadConfig({ JOB_MAX_TIME_LIMIT_MS: '60000', JOB_RESULT_TTL_S: '5', JOB_QUEUE_MAX: '3', REDIS_URL: 'redis://:secret@127.0.0.1:6379/2' });
    expect(config).toMatchObject({ jobs: { maxTimeLimitMs: 60_000, resultTtlSeconds: 5, queueMax: 3 }, redisUrl: 'redis://:secret@127.0.0.1:6379/2' });
    expect(() => loadConfig({ JOB_QUEUE_MAX: '0' })).toThrow("JOB_QUEUE_MAX must be a whole number of jobs between 1 and 100000 (got '0').");
    expect(() => loadConfig({ JOB_RESULT_TTL_S: 'a day' })).toThrow("JOB_RESULT_TTL_S must be a whole number of seconds between 1 and 2592000 (got 'a day').");
    let message = '';
    try { loadConfig({ REDIS_URL: 'http://:secret@cache' }); } catch (error) { message = (error as Error).message; }
    expect(message).toBe('REDIS_URL must be a Redis URL such as redis://127.0.0.1:6379.');
  });
});
