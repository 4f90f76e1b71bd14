// The embedded job store (no REDIS_URL): jobs, their events and the queue live in this process, and
// this process runs them, one at a time, on its simulation thread. A restart loses every job, queued
// or finished (README "Running at scale"). Finished jobs are dropped JOB_RESULT_TTL_S after they end.
import { randomUUID } from 'node:crypto';
import { EventEmitter, on } from 'node:events';
import { FINAL_STATUSES, JobQueueFullError, waitForFinal, type JobEvent, type JobRecord, type JobStore, type JobStoreLimits } from './job.ts';
import type { JobRunner, JobWriter } from './job-runner.ts';
import type { SimulationResult } from '../../recovery/model/result.ts';

interface Entry {
  job: JobRecord;
  events: JobEvent[];
  cancelRequested: boolean;
  idempotencyKey: string | null;
}

export interface MemoryJobStore extends JobStore {
  /** Starts running queued jobs (main.ts calls it once the simulation thread is up). */
  start(): void;
}

export function createMemoryJobStore(runner: JobRunner, limits: JobStoreLimits): MemoryJobStore {
  const entries = new Map<string, Entry>();
  const byIdempotencyKey = new Map<string, string>();
  const queue: string[] = [];
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  let running = false;
  let started = false;
  let closed = false;

  const expired = (entry: Entry) => entry.job.finishedAt !== null && Date.now() >= entry.job.finishedAt + limits.resultTtlSeconds * 1000;
  const drop = (entry: Entry) => {
    entries.delete(entry.job.id);
    if (entry.idempotencyKey !== null) byIdempotencyKey.delete(`${entry.job.owner}:${entry.idempotencyKey}`);
  };
  // Expiry is checked on every read, and swept now and then so that unread jobs do not pile up.
  const sweeper = setInterval(() => { for (const entry of entries.values()) if (expired(entry)) drop(entry); }, Math.min(60_000, limits.resultTtlSeconds * 1000));
  sweeper.unref();

  const find = (owner: string, id: string): Entry | null => {
    const entry = entries.get(id);
    if (!entry || entry.job.owner !== owner) return null;
    if (expired(entry)) { drop(entry); return null; }
    return entry;
  };

  const emit = (entry: Entry, type: JobEvent['type'], result: SimulationResult | null) => {
    const event: JobEvent = { id: String(entry.events.length + 1), type, job: { ...entry.job, result } };
    entry.events.push(event);
    bus.emit(entry.job.id, event);
  };

  const writer: JobWriter = {
    async start(id) {
      const entry = entries.get(id);
      if (!entry || entry.job.status !== 'queued') return null;
      entry.job = { ...entry.job, status: 'running', startedAt: Date.now(), runs: entry.job.runs + 1 };
      emit(entry, 'progress', null);
      return entry.job;
    },
    async progress(id, progress, result) {
      const entry = entries.get(id);
      if (!entry || FINAL_STATUSES.has(entry.job.status)) return;
      entry.job = { ...entry.job, progress, ...(result !== undefined ? { result } : {}) };
      emit(entry, 'progress', result ?? null);
    },
    async finish(id, outcome) {
      const entry = entries.get(id);
      if (!entry || FINAL_STATUSES.has(entry.job.status)) return;
      entry.job = {
        ...entry.job, status: outcome.status, finishedAt: Date.now(), result: outcome.result ?? entry.job.result,
        failure: outcome.status === 'failed' ? outcome.failure : null,
        progress: entry.job.progress && outcome.status === 'succeeded' ? { ...entry.job.progress, phase: 'done' } : entry.job.progress,
      };
      emit(entry, 'final', entry.job.result);
    },
    async onCancel(id, onCancel) {
      const entry = entries.get(id);
      if (entry?.cancelRequested) onCancel();
      const listener = (cancelledId: string) => { if (cancelledId === id) onCancel(); };
      bus.on('cancel', listener);
      return () => bus.off('cancel', listener);
    },
  };

  const pump = () => {
    if (!started || closed || running) return;
    const id = queue.shift();
    if (id === undefined) return;
    running = true;
    void runner.runJob(id, writer).catch(() => undefined).finally(() => { running = false; pump(); });
  };

  return {
    start() { started = true; pump(); },

    async submit({ owner, request, idempotencyKey }) {
      if (closed) throw new JobQueueFullError(limits.queueMax);
      if (idempotencyKey !== null) {
        const existing = byIdempotencyKey.get(`${owner}:${idempotencyKey}`);
        const entry = existing === undefined ? null : find(owner, existing);
        if (entry) return { job: entry.job, created: false };
      }
      if (queue.length >= limits.queueMax) throw new JobQueueFullError(limits.queueMax);
      const job: JobRecord = {
        id: randomUUID(), owner, status: 'queued', createdAt: Date.now(), startedAt: null, finishedAt: null,
        progress: null, result: null, failure: null, request, runs: 0,
      };
      const entry: Entry = { job, events: [], cancelRequested: false, idempotencyKey };
      entries.set(job.id, entry);
      if (idempotencyKey !== null) byIdempotencyKey.set(`${owner}:${idempotencyKey}`, job.id);
      emit(entry, 'progress', null);
      queue.push(job.id);
      pump();
      return { job, created: true };
    },

    async get(owner, id) {
      return find(owner, id)?.job ?? null;
    },

    async list(owner, { status, limit }) {
      const mine = [...entries.values()].filter((e) => e.job.owner === owner && !expired(e) && (status === undefined || e.job.status === status));
      return mine.map((e) => e.job).sort((a, b) => b.createdAt - a.createdAt).slice(0, limit);
    },

    async cancel(owner, id) {
      const entry = find(owner, id);
      if (!entry) return null;
      if (FINAL_STATUSES.has(entry.job.status)) return entry.job;
      if (entry.job.status === 'queued') {
        queue.splice(queue.indexOf(id), 1);
        entry.job = { ...entry.job, status: 'cancelled', finishedAt: Date.now() };
        emit(entry, 'final', entry.job.result);
        return entry.job;
      }
      entry.cancelRequested = true;
      bus.emit('cancel', id);
      return waitForFinal(() => this.get(owner, id));
    },

    async events(owner, id, afterId, signal) {
      const entry = find(owner, id);
      if (!entry) return null;
      const after = afterId === null ? 0 : Number.parseInt(afterId, 10) || 0;
      return (async function* replayThenFollow() {
        // Subscribe before replaying so that nothing falls between the two.
        const live = on(bus, id, { signal }) as AsyncIterableIterator<[JobEvent]>;
        try {
          let last = after;
          for (const event of entry.events.slice(after)) {
            last = Number(event.id);
            yield event;
            if (event.type === 'final') return;
          }
          for await (const [event] of live) {
            if (Number(event.id) <= last) continue;
            yield event;
            if (event.type === 'final') return;
          }
        } catch (error) {
          if (!signal.aborted) throw error;
        } finally {
          // Removes the listener, also when the replay alone reached the end.
          await live.return?.();
        }
      })();
    },

    async close() {
      closed = true;
      clearInterval(sweeper);
    },
  };
}
