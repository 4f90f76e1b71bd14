// The network bound's iterations in a worker thread of their own (docs/model.md 3.9): each iteration
// holds a thread for about 0.1 s on a storm, and on the simulation thread that time was taken from the
// network search and the column generation (their plans at 10 s were 7-30 % dearer). The flight
// bound's LP stays on the solver pool; only the relaxation moves. A thread per bound: it starts in
// well under a second, the bound runs for network-wide scopes only, and nothing is kept between them.
import { Worker } from 'node:worker_threads';
import type { NetworkBound, NetworkBoundInput, NetworkBoundOptions, RelaxationThread } from './network-bound.ts';

export type ToBoundThread = { type: 'target'; value: number } | { type: 'stop' };
export type FromBoundThread = { type: 'bound'; value: number } | { type: 'done'; result: NetworkBound | null } | { type: 'failed'; message: string };

const ENTRY = new URL('./network-bound-thread-entry.mjs', import.meta.url);

/** How long past its deadline a thread may take to answer before it is stopped, milliseconds. */
const OVERRUN_MS = 300;

/**
 * Bound threads at once in this process: more simulations than that on network-wide scopes keep the
 * flight bound, so that a burst of storms cannot start a thread each beside the solver pool.
 */
const MAX_THREADS = 2;

/** The heap a bound's thread may use: the default storm's networks and schedule take well under 100 MiB. */
const THREAD_HEAP_MB = 512;

let running = 0;

/**
 * Iterates the relaxation in a new worker thread (a RelaxationThread). Resolves with its result, or
 * with the best bound heard when it fails, overruns its deadline by OVERRUN_MS or `signal` aborts
 * (the thread is then terminated): a bound is never an answer, so a failure only loses the bound.
 */
export const relaxationThread: RelaxationThread = (input, duals, flightBound, options: NetworkBoundOptions) => new Promise<NetworkBound | null>((resolve) => {
  const heard = (): NetworkBound | null => (best === null ? null : { value: best, flightBound, iterations: 0, elapsedMs: 0, aircraft: input.scope.aircraft.length, copies: 0 });
  let best: number | null = flightBound;
  if (running >= MAX_THREADS || options.signal?.aborted) { resolve(heard()); return; }
  running++;
  const deadline = options.deadline ?? performance.now() + 60_000;
  // What a thread needs of the input, and can be copied to it (the journey network's function stays).
  const sent: NetworkBoundInput = {
    schedule: input.schedule, scope: input.scope, config: input.config,
    groups: { cancellations: input.groups.cancellations, misconnections: input.groups.misconnections, network: { flights: input.groups.network.flights } } as NetworkBoundInput['groups'],
  };
  let settled = false;
  let worker: Worker;
  try {
    worker = new Worker(ENTRY, {
      workerData: { input: sent, duals, flightBound, remainingMs: Math.max(0, deadline - performance.now()), maxIterations: options.maxIterations },
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
  } catch {
    // No thread (the input could not be copied, or no memory for one): the flight bound stands.
    running--;
    resolve(heard());
    return;
  }
  const finish = (result: NetworkBound | null) => {
    if (settled) return;
    settled = true;
    running--;
    clearTimeout(timer);
    clearInterval(targets);
    options.signal?.removeEventListener('abort', abort);
    void worker.terminate();
    resolve(result);
  };
  const abort = () => finish(heard());
  options.signal?.addEventListener('abort', abort);
  const timer = setTimeout(() => finish(heard()), Math.max(0, deadline - performance.now()) + OVERRUN_MS);
  // The best plan so far, sent when it changes: the steps aim at it.
  let lastTarget: number | null = null;
  const targets = setInterval(() => {
    const target = options.target?.() ?? null;
    if (target !== null && target !== lastTarget) { lastTarget = target; worker.postMessage({ type: 'target', value: target } satisfies ToBoundThread); }
  }, 50);
  worker.on('message', (message: FromBoundThread) => {
    if (message.type === 'bound') {
      if (best === null || message.value > best) { best = message.value; options.onBound?.(message.value, 'network_bound'); }
    } else if (message.type === 'done') finish(message.result);
    else finish(heard());
  });
  worker.on('error', () => finish(heard()));
  worker.on('exit', () => finish(heard()));
});
