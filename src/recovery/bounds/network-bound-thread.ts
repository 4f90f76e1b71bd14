// The network bound's iterations in worker threads of their own (docs/model.md 3.9): each iteration
// holds a thread for 10-100 ms on a storm, and on the simulation thread that time was taken from the
// network search and the column generation (their plans at 10 s were 7-30 % dearer). The flight
// bound's LP stays on the solver pool; only the relaxation moves. One thread is kept between bounds,
// idle and unreferenced: a new thread took 0.3-1 s to start and, its code not yet compiled by the
// JIT, 0.9 s to build a storm's networks, against 0.2 s in a thread that has built some before.
import { Worker } from 'node:worker_threads';
import type { Schedule } from '../../domain/schedule.ts';
import type { NetworkBound, NetworkBoundInput, NetworkBoundOptions, RelaxationRoute, RelaxationThread } from './network-bound.ts';

/** A bound's work, by its job number (a message of an earlier job that ended is ignored). */
export type ToBoundThread =
  | { type: 'job'; job: number; input: NetworkBoundInput; deadlineAt: number; maxIterations?: number; routes: boolean }
  | { type: 'target'; job: number; value: number }
  | { type: 'stop'; job: number };
export type FromBoundThread =
  | { type: 'bound'; job: number; value: number }
  | { type: 'routes'; job: number; routes: RelaxationRoute[] }
  | { type: 'done'; job: number; result: NetworkBound | null }
  | { type: 'failed'; job: number; message: string };

const ENTRY = new URL('./network-bound-thread-entry.mjs', import.meta.url);

/** How long past its deadline a thread may take to answer before the bound answers without it, milliseconds. */
const OVERRUN_MS = 300;

/**
 * How long past that a thread may take to finish its job (a build runs to its end, on a loaded host
 * for seconds) before it is terminated rather than kept for the next bound, milliseconds.
 */
const STUCK_MS = 20_000;

/**
 * Bounds at once in this process: more simulations than that on network-wide scopes keep the flight
 * bound, so that a burst of storms cannot start a thread each beside the solver pool.
 */
const MAX_THREADS = 2;

/**
 * Threads kept idle between bounds: one, for the storms that come one after another. An idle thread
 * holds about 85 MiB (the process's resident memory after a bound on the issue storm, three times over:
 * 159 MiB before, 242-245 MiB after, with one thread kept).
 */
const KEPT_THREADS = 1;

/**
 * Iterations a short budget's bound takes (warmRelaxationThread), in a thread that holds its problem:
 * its first is the best bound the kept relaxation reached; each after costs 8-12 ms of CPU on the
 * issue storm, taken from the plan's search on two cores, so a few dozen, and the next bound of the
 * same problem goes on from there.
 */
const SHORT_BUDGET_ITERATIONS = 30;

/** The heap a bound's thread may use: the default storm's networks and schedule take well under 100 MiB. */
const THREAD_HEAP_MB = 512;

let running = 0;
let jobs = 0;
/** Threads that finished a bound in time and wait for the next one. */
const idle: Worker[] = [];
/**
 * Threads whose bound has answered (its deadline passed, or its simulation was done and the thread
 * told to stop) while they still finish its job, a build say, each with what hands it over to a new
 * bound: the new job waits in the thread's queue, and goes on from the relaxation when the problem is
 * the same (the storm asked again), rather than a new thread starting cold beside it.
 */
const finishing = new Map<Worker, () => void>();

/** Threads kept idle for the next bound (a figure for tests and diagnostics). */
export function idleBoundThreads(): number {
  return idle.length;
}

/** A thread still finishing an answered bound's job, handed over (see `finishing`), or null; with `hint`, only one that holds that problem. */
function adoptFinishing(hint?: string): Worker | null {
  for (const [worker, handOver] of finishing) {
    if (hint !== undefined && holds.get(worker) !== hint) continue;
    handOver();
    return worker;
  }
  return null;
}

/** An idle thread (with `hint`, one that holds that problem), taken from the idle ones, or null. */
function takeIdle(hint?: string): Worker | null {
  const i = hint === undefined ? idle.length - 1 : idle.findIndex((w) => holds.get(w) === hint);
  return i < 0 ? null : idle.splice(i, 1)[0]!;
}

/** The problem each thread was last given (problemHint), so that a short budget asks only a thread that holds it. */
const holds = new WeakMap<Worker, string>();
const scheduleIds = new WeakMap<Schedule, number>();
let schedulesSeen = 0;

/**
 * Which problem a bound's input is, cheaply (about 1 ms, on the simulation thread): the schedule
 * (by identity), the scope's disruptions, airline, flights and aircraft, and the configuration but for
 * the settings the relaxation never reads. Only a hint of which thread to ask: the thread compares the
 * whole input (network-bound-thread-worker.ts) before it goes on from a relaxation it kept.
 */
export function problemHint(input: Pick<NetworkBoundInput, 'schedule' | 'scope' | 'config'>): string {
  let id = scheduleIds.get(input.schedule);
  if (id === undefined) { id = ++schedulesSeen; scheduleIds.set(input.schedule, id); }
  const { strategies: _, solver, ...config } = input.config;
  return JSON.stringify([id, input.scope.airline, input.scope.disruptions, input.scope.flights.map((f) => f.id), input.scope.aircraft.map((a) => a.aircraft.tail),
    config, { ...solver, time_limit_ms: null, mip_gap: null, max_routes_per_aircraft: null }]);
}

function newThread(): Worker {
  const worker = new Worker(ENTRY, { resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
  // An idle thread must not keep the process alive; a bound in progress is awaited by its simulation.
  worker.unref();
  // A thread that dies while idle is dropped from the idle ones.
  worker.on('exit', () => { const i = idle.indexOf(worker); if (i >= 0) idle.splice(i, 1); });
  worker.on('error', () => {});
  return worker;
}

/**
 * Iterates the relaxation in a worker thread (a RelaxationThread): an idle one, else a new one. It
 * builds the networks and iterates at once, while the flight bound's LP solves on the pool (its
 * optimum, once here, is the least this answers). Resolves
 * with its result, or with the best bound heard when it fails, overruns its deadline by OVERRUN_MS or
 * `signal` aborts (the thread is then terminated, or told to stop and kept when it stops in time): a
 * bound is never an answer, so a failure only loses the bound.
 */
export const relaxationThread: RelaxationThread = (input, lp, options) => inThread(input, lp, options, true);

/**
 * As relaxationThread, but only in a thread that holds this problem's relaxation (kept from an
 * earlier bound, or being built), and for SHORT_BUDGET_ITERATIONS at most: a short budget (the
 * default 2 s) cannot pay a thread's start, a build (0.5 s of CPU, 0.9 s the first in a thread) and
 * the iterations to a good bound, all taken from its plan's search on two cores (2 s storms took up
 * to 6.4 s at load average 15 with them, 2026-11-29, and up to 5.7 s with a build started after each
 * one for the next, when they came back to back). Without one it answers with the flight bound's LP.
 * So a storm that a bound of 5 s or more has seen (a job, a 10 s what-if) gets the network bound at 2 s.
 */
export const warmRelaxationThread: RelaxationThread = (input, lp, options) => inThread(input, lp, options, false);

function inThread(input: NetworkBoundInput, lp: Promise<number | null>, options: NetworkBoundOptions, mayStart: boolean): Promise<NetworkBound | null> {
  return new Promise<NetworkBound | null>((resolve) => {
    const heard = (): NetworkBound | null => (best === null ? null : { value: best, flightBound, iterations: 0, elapsedMs: 0, aircraft: input.scope.aircraft.length, copies: 0 });
    let flightBound: number | null = null;
    let best: number | null = null;
    const fromLp = (value: number | null) => {
      flightBound = value;
      if (flightBound !== null && (best === null || flightBound > best)) best = flightBound;
    };
    const deadline = options.deadline ?? performance.now() + 60_000;
    // What a thread needs of the input, and can be copied to it (the journey network's function stays).
    const sent: NetworkBoundInput = {
      schedule: input.schedule, scope: input.scope, config: input.config,
      groups: { cancellations: input.groups.cancellations, misconnections: input.groups.misconnections, network: { flights: input.groups.network.flights } } as NetworkBoundInput['groups'],
    };
    if (running >= MAX_THREADS || options.signal?.aborted) { void lp.then((value) => { fromLp(value); resolve(heard()); }); return; }
    const hint = problemHint(input);
    // A short budget asks only a thread that holds this problem (kept, or being built).
    const holding = mayStart ? null : takeIdle(hint) ?? adoptFinishing(hint);
    if (!mayStart && holding === null) { void lp.then((value) => { fromLp(value); resolve(heard()); }); return; }
    const maxIterations = mayStart ? options.maxIterations : Math.min(options.maxIterations ?? Number.POSITIVE_INFINITY, SHORT_BUDGET_ITERATIONS);
    const job = ++jobs;
    let worker: Worker;
    try {
      worker = holding ?? takeIdle() ?? adoptFinishing() ?? newThread();
      holds.set(worker, hint);
      // The deadline as an absolute instant: a new thread reads its job only once it has started.
      worker.postMessage({ type: 'job', job, input: sent, deadlineAt: performance.timeOrigin + deadline, maxIterations, routes: options.onRoutes !== undefined } satisfies ToBoundThread);
    } catch {
      // No thread (the input could not be copied, or no memory for one): the flight bound stands.
      void lp.then((value) => { fromLp(value); resolve(heard()); });
      return;
    }
    running++;
    let answered = false;
    let released = false;
    let counted = true;
    /** The bound no longer counts against MAX_THREADS (it answered; its thread may still be finishing a build). */
    const uncount = () => { if (counted) { counted = false; running--; } };
    const answer = (result: NetworkBound | null) => {
      if (answered) return;
      answered = true;
      clearInterval(targets);
      options.signal?.removeEventListener('abort', abort);
      resolve(result);
    };
    /** `kept`: the thread answered in time and may serve the next bound; null: another bound has it now. */
    const release = (kept: boolean | null) => {
      if (released) return;
      released = true;
      uncount();
      clearTimeout(timer);
      clearTimeout(stuck);
      finishing.delete(worker);
      worker.off('message', onMessage);
      worker.off('error', onFailure);
      worker.off('exit', onFailure);
      if (kept === null) return;
      if (kept && idle.length < KEPT_THREADS) idle.push(worker);
      else void worker.terminate();
    };
    const finish = (result: NetworkBound | null, kept: boolean) => { answer(result); release(kept); };
    void lp.then(fromLp);
    // Aborted, the bound answers with the best heard at once; told to stop, the thread ends its
    // iteration and is kept, or terminated if it does not answer in time.
    const abort = () => {
      answer(heard());
      worker.postMessage({ type: 'stop', job } satisfies ToBoundThread);
      // Stopping, the thread may serve the next bound (the simulations of a benchmark come back to
      // back): that bound waits in its queue rather than starting a cold thread beside it.
      uncount();
      finishing.set(worker, () => release(null));
    };
    options.signal?.addEventListener('abort', abort);
    let stuck: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      answer(heard());
      uncount();
      finishing.set(worker, () => release(null));
      stuck = setTimeout(() => release(false), STUCK_MS);
      // Only the thread is waited for: the process need not stay for it.
      stuck.unref();
    }, Math.max(0, deadline - performance.now()) + OVERRUN_MS);
    // The best plan so far, sent when it changes: the steps aim at it.
    let lastTarget: number | null = null;
    const targets = setInterval(() => {
      const target = options.target?.() ?? null;
      if (target !== null && target !== lastTarget) { lastTarget = target; worker.postMessage({ type: 'target', job, value: target } satisfies ToBoundThread); }
    }, 50);
    const onMessage = (message: FromBoundThread) => {
      if (message.job !== job) return;
      if (message.type === 'bound') {
        if (!answered && (best === null || message.value > best)) { best = message.value; options.onBound?.(message.value, 'network_bound'); }
      } else if (message.type === 'routes') {
        if (!answered) options.onRoutes?.(message.routes);
      } else if (message.type === 'done') {
        // The thread never saw the LP: its optimum is this side's, and the least the bound answers
        // (also when no iteration ended in time).
        const result = message.result && { ...message.result, flightBound };
        finish(result === null ? heard() : best === null || result.value >= best ? result : { ...result, value: best }, true);
      } else finish(heard(), false);
    };
    const onFailure = () => finish(heard(), false);
    worker.on('message', onMessage);
    worker.on('error', onFailure);
    worker.on('exit', onFailure);
  });
}
