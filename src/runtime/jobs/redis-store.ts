// The scale-out job store (REDIS_URL): the queue is BullMQ's, the jobs' state is ours, both in Redis,
// so that any API instance answers any job and any worker (`npm run worker`) runs any job.
//
//   drs:job:{id}             hash: status, owner, idem, json (the JobRecord)
//   drs:job:{id}:events      stream of the job's events (id = the SSE event id, for Last-Event-ID)
//   drs:job:{id}:cancel      set when the owner cancels a running job (and published on drs:cancel)
//   drs:owner:{owner}        sorted set of the owner's job ids by creation time (the list)
//   drs:idem:{owner}:{key}   the job an Idempotency-Key created
//   bull:drs-simulations:*   BullMQ's queue: the job ids waiting for, or held by, a worker
//
// Every change of status is one Lua script that checks the status it expects, writes the record and
// appends the event: a job cancelled while queued cannot also start, and a job taken over after a
// stall finishes once (the second finish finds it final). Records are JSON written by Node, never
// re-encoded in Lua (whose cjson would round the result's numbers). A finished job's keys expire
// JOB_RESULT_TTL_S later.
import { createHash, randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { FINAL_STATUSES, JobQueueFullError, JobStoreUnavailableError, waitForFinal, type JobEvent, type JobRecord, type JobStatus, type JobStore, type JobStoreLimits } from './job.ts';
import type { JobOutcome, JobRunner, JobWriter } from './job-runner.ts';
import type { SimulationResult } from '../../recovery/model/result.ts';

export const QUEUE_NAME = 'drs-simulations';
const CANCEL_CHANNEL = 'drs:cancel';
/** How often an event stream looks for new events (the events delay is at most this plus a round trip). */
const EVENT_POLL_MS = 150;
/** Events kept per job (progress is throttled to 4 a second, so this covers a 10-minute job twice). */
const MAX_EVENTS = 5000;
/**
 * Stalled-job detection: a worker renews its lock every LOCK_MS / 2; a job whose lock has lapsed (its
 * worker died) is handed to another worker at the next check, every STALLED_CHECK_MS.
 */
const LOCK_MS = 10_000;
const STALLED_CHECK_MS = 5_000;
/** A job whose workers died this many times is failed rather than tried again. */
const MAX_STALLS = 2;

const jobKey = (id: string) => `drs:job:${id}`;
const eventsKey = (id: string) => `drs:job:${id}:events`;
const cancelKey = (id: string) => `drs:job:${id}:cancel`;
const ownerKey = (owner: string) => `drs:owner:${owner}`;
const idemKey = (owner: string, key: string) => `drs:idem:${owner}:${createHash('sha256').update(key).digest('hex')}`;

// KEYS: job hash, events stream. ARGV: expected statuses (comma-separated), new status, record JSON,
// event JSON, max events, ttl seconds (0 = none). Returns 1 when the status matched and was changed.
const TRANSITION = `
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return 0 end
local allowed = false
for s in string.gmatch(ARGV[1], '[^,]+') do if s == status then allowed = true end end
if not allowed then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'json', ARGV[3])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], '*', 'e', ARGV[4])
local ttl = tonumber(ARGV[6])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  redis.call('EXPIRE', KEYS[2], ttl)
  local idem = redis.call('HGET', KEYS[1], 'idem')
  if idem and idem ~= '' then redis.call('EXPIRE', idem, ttl) end
end
return 1
`;

type RedisWithTransition = Redis & {
  transition(job: string, events: string, expected: string, status: string, json: string, event: string, maxEvents: number, ttl: number): Promise<number>;
};

/**
 * A client for the store's own commands (BullMQ makes its own connections from the same URL). A
 * worker's commands wait for a reconnect (`patient`: BullMQ requires it of workers); an API
 * instance's fail after one retry, so that a request is answered 503 rather than held while Redis is down.
 */
function connect(url: string, patient: boolean): RedisWithTransition {
  const redis = new Redis(url, { maxRetriesPerRequest: patient ? null : 1 }) as RedisWithTransition;
  redis.on('error', () => undefined); // reported through the commands that fail; ioredis reconnects on its own
  redis.defineCommand('transition', { numberOfKeys: 2, lua: TRANSITION });
  return redis;
}

/** The parts of the Redis layout both sides use. */
function redisJobs(redis: RedisWithTransition, limits: JobStoreLimits) {
  const read = async (id: string): Promise<JobRecord | null> => {
    const json = await redis.hget(jobKey(id), 'json');
    return json === null ? null : (JSON.parse(json) as JobRecord);
  };
  /** Writes `job` (and an event) when its stored status is one of `expected`; false otherwise. */
  const transition = async (job: JobRecord, expected: readonly JobStatus[], type: JobEvent['type'], eventResult: SimulationResult | null): Promise<boolean> => {
    const final = FINAL_STATUSES.has(job.status);
    const event = JSON.stringify({ type, job: { ...job, request: undefined, result: eventResult } });
    const changed = await redis.transition(jobKey(job.id), eventsKey(job.id), expected.join(','), job.status, JSON.stringify(job), event, MAX_EVENTS, final ? limits.resultTtlSeconds : 0);
    return changed === 1;
  };
  return { read, transition };
}

export interface RedisJobStoreOptions {
  redisUrl: string;
  limits: JobStoreLimits;
}

/** The API side: submits to the queue and reads, lists, cancels and streams jobs from Redis. Holds no state. */
export function createRedisJobStore({ redisUrl, limits }: RedisJobStoreOptions): JobStore {
  const redis = connect(redisUrl, false);
  const queue = new Queue(QUEUE_NAME, { connection: { url: redisUrl, maxRetriesPerRequest: 1 } });
  queue.on('error', () => undefined);
  const { read, transition } = redisJobs(redis, limits);

  const owned = async (owner: string, id: string): Promise<JobRecord | null> => {
    const job = await read(id);
    return job && job.owner === owner ? job : null;
  };

  const api: JobStore = {
    async submit({ owner, request, idempotencyKey }) {
      const id = randomUUID();
      if (idempotencyKey !== null) {
        // Claim the key first: of two concurrent submissions with one key, one creates the job.
        const claimed = await redis.set(idemKey(owner, idempotencyKey), id, 'EX', limits.resultTtlSeconds + 86_400, 'NX');
        if (claimed === null) {
          const existing = await redis.get(idemKey(owner, idempotencyKey));
          const job = existing === null ? null : await waitForRecord(() => owned(owner, existing));
          if (job) return { job, created: false };
          // Its job has expired (or its submission failed): the key names the new one.
          await redis.set(idemKey(owner, idempotencyKey), id, 'EX', limits.resultTtlSeconds + 86_400);
        }
      }
      // A soft bound: two instances may both see one free place; the queue is then one over.
      if ((await queue.getWaitingCount()) >= limits.queueMax) {
        if (idempotencyKey !== null) await redis.del(idemKey(owner, idempotencyKey));
        throw new JobQueueFullError(limits.queueMax);
      }
      const job: JobRecord = {
        id, owner, status: 'queued', createdAt: Date.now(), startedAt: null, finishedAt: null,
        progress: null, result: null, failure: null, request, runs: 0,
      };
      const event = JSON.stringify({ type: 'progress', job: { ...job, request: undefined } });
      await redis.multi()
        .hset(jobKey(id), 'status', 'queued', 'owner', owner, 'idem', idempotencyKey === null ? '' : idemKey(owner, idempotencyKey), 'json', JSON.stringify(job))
        .xadd(eventsKey(id), '*', 'e', event)
        .zadd(ownerKey(owner), job.createdAt, id)
        .expire(ownerKey(owner), limits.resultTtlSeconds + 86_400)
        .exec();
      await queue.add('simulate', { jobId: id }, { jobId: id, removeOnComplete: true, removeOnFail: true });
      return { job, created: true };
    },

    get: owned,

    async list(owner, { status, limit }) {
      const ids = await redis.zrevrange(ownerKey(owner), 0, 999);
      const jobs: JobRecord[] = [];
      const gone: string[] = [];
      for (let i = 0; i < ids.length && jobs.length < limit; i += 100) {
        const batch = ids.slice(i, i + 100);
        const pipeline = redis.pipeline();
        for (const id of batch) pipeline.hget(jobKey(id), 'json');
        const replies = (await pipeline.exec()) ?? [];
        batch.forEach((id, j) => {
          const json = replies[j]?.[1] as string | null | undefined;
          if (json == null) { gone.push(id); return; }
          const job = JSON.parse(json) as JobRecord;
          if (job.owner === owner && (status === undefined || job.status === status) && jobs.length < limit) jobs.push(job);
        });
      }
      if (gone.length > 0) await redis.zrem(ownerKey(owner), ...gone);
      return jobs;
    },

    async cancel(owner, id) {
      const job = await owned(owner, id);
      if (!job) return null;
      if (FINAL_STATUSES.has(job.status)) return job;
      if (job.status === 'queued') {
        const cancelled: JobRecord = { ...job, status: 'cancelled', finishedAt: Date.now() };
        if (await transition(cancelled, ['queued'], 'final', null)) {
          await queue.remove(id).catch(() => 0);
          return cancelled;
        }
      }
      // Running (or it started meanwhile): the worker running it stops and finishes it as cancelled.
      await redis.multi().set(cancelKey(id), '1', 'EX', limits.resultTtlSeconds).publish(CANCEL_CHANNEL, id).exec();
      return waitForFinal(() => owned(owner, id));
    },

    async events(owner, id, afterId, signal) {
      if (!(await owned(owner, id))) return null;
      return (async function* follow() {
        let after = afterId ?? '-';
        while (!signal.aborted) {
          const entries = await redis.xrange(eventsKey(id), after === '-' ? '-' : `(${after}`, '+', 'COUNT', 100);
          for (const [eventId, fields] of entries) {
            after = eventId;
            const stored = JSON.parse(fields[1]!) as Omit<JobEvent, 'id'>;
            yield { id: eventId, ...stored } as JobEvent;
            if (stored.type === 'final') return;
          }
          if (entries.length === 0) {
            // An expired job's stream is gone: nothing more will come.
            if (!(await redis.exists(jobKey(id)))) return;
            await new Promise((resolve) => setTimeout(resolve, EVENT_POLL_MS));
          }
        }
      })();
    },

    async close() {
      await queue.close().catch(() => undefined);
      redis.disconnect();
    },
  };
  // Any failure to talk to Redis is one answer (503, retry), whatever the command was.
  const unavailable = (error: unknown): never => {
    if (error instanceof JobQueueFullError) throw error;
    throw new JobStoreUnavailableError(`The job store (Redis) cannot be reached: ${(error as Error).message}`);
  };
  return {
    submit: (submission) => api.submit(submission).catch(unavailable),
    get: (owner, id) => api.get(owner, id).catch(unavailable),
    list: (owner, filter) => api.list(owner, filter).catch(unavailable),
    cancel: (owner, id) => api.cancel(owner, id).catch(unavailable),
    events: (owner, id, afterId, signal) => api.events(owner, id, afterId, signal).catch(unavailable),
    close: () => api.close(),
  };
}

/** An idempotent resubmission may arrive while the first one is still writing its record. */
async function waitForRecord(read: () => Promise<JobRecord | null>): Promise<JobRecord | null> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const job = await read();
    if (job) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return null;
}

export interface RedisJobWorker {
  close(): Promise<void>;
}

/**
 * The worker side (`npm run worker`): takes jobs from the queue one at a time and runs them with
 * `runner`, writing their progress and outcome to Redis. A worker that dies mid-job loses its lock;
 * another worker's stalled-job check gives the job to a worker again (at most MAX_STALLS times).
 */
export function startRedisJobWorker(options: {
  redisUrl: string; limits: JobStoreLimits; runner: JobRunner;
  onError?: (error: Error) => void;
  /** Told when this worker takes a job (the logs say which worker ran what). */
  onJobStarted?: (id: string) => void;
}): RedisJobWorker {
  const { redisUrl, limits, runner } = options;
  const redis = connect(redisUrl, true);
  const subscriber = new Redis(redisUrl, { maxRetriesPerRequest: null });
  subscriber.on('error', (error) => options.onError?.(error));
  const { read, transition } = redisJobs(redis, limits);
  const cancelListeners = new Map<string, Set<() => void>>();
  void subscriber.subscribe(CANCEL_CHANNEL);
  subscriber.on('message', (_channel: string, id: string) => { for (const listener of cancelListeners.get(id) ?? []) listener(); });

  const writer: JobWriter = {
    async start(id) {
      const job = await read(id);
      // 'running' too: the worker that had it died, and this one takes it over.
      if (!job || FINAL_STATUSES.has(job.status)) return null;
      const started: JobRecord = { ...job, status: 'running', startedAt: Date.now(), runs: job.runs + 1 };
      return (await transition(started, ['queued', 'running'], 'progress', null)) ? started : null;
    },
    async progress(id, progress, result) {
      const job = await read(id);
      if (!job || job.status !== 'running') return;
      await transition({ ...job, progress, ...(result !== undefined ? { result } : {}) }, ['running'], 'progress', result ?? null);
    },
    async finish(id, outcome: JobOutcome) {
      const job = await read(id);
      if (!job || FINAL_STATUSES.has(job.status)) return;
      const finished: JobRecord = {
        ...job, status: outcome.status, finishedAt: Date.now(), result: outcome.result ?? job.result,
        failure: outcome.status === 'failed' ? outcome.failure : null,
        progress: job.progress && outcome.status === 'succeeded' ? { ...job.progress, phase: 'done' } : job.progress,
      };
      await transition(finished, ['running'], 'final', finished.result);
    },
    async onCancel(id, onCancel) {
      const listeners = cancelListeners.get(id) ?? new Set();
      cancelListeners.set(id, listeners);
      listeners.add(onCancel);
      if (await redis.exists(cancelKey(id))) onCancel();
      return () => {
        listeners.delete(onCancel);
        if (listeners.size === 0) cancelListeners.delete(id);
      };
    },
  };

  const worker = new Worker(QUEUE_NAME, async (job) => { await runner.runJob((job.data as { jobId: string }).jobId, writer); }, {
    connection: { url: redisUrl, maxRetriesPerRequest: null },
    concurrency: 1,
    lockDuration: LOCK_MS,
    stalledInterval: STALLED_CHECK_MS,
    maxStalledCount: MAX_STALLS,
  });
  worker.on('error', (error) => options.onError?.(error));
  worker.on('active', (job) => options.onJobStarted?.((job.data as { jobId: string }).jobId));
  // A job BullMQ gave up on (its workers died MAX_STALLS times) must not stay 'running' for ever.
  worker.on('failed', (job, error) => {
    if (!job) return;
    const id = (job.data as { jobId: string }).jobId;
    void read(id).then(async (record) => {
      if (!record || FINAL_STATUSES.has(record.status)) return;
      const failed: JobRecord = { ...record, status: 'failed', finishedAt: Date.now(), failure: { kind: 'crashed', message: error.message } };
      await transition(failed, ['queued', 'running'], 'final', record.result);
    }).catch((failure: Error) => options.onError?.(failure));
  });

  return {
    async close() {
      await worker.close();
      subscriber.disconnect();
      redis.disconnect();
    },
  };
}
