// Entry of a network bound's thread (network-bound-thread.ts). A worker thread does not inherit the
// loader that lets the service run TypeScript, so register tsx's loader first, as the simulation
// thread's entry does.
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

// A short budget's bound runs at the lowest priority (network-bound-thread.ts, BoundThreadData), its
// start included. On Linux setpriority(PRIO_PROCESS, 0) renices the calling thread alone
// (solver-wasm/thread-priority.ts).
const LOWEST_NICE = 19;
if (workerData?.yielding) {
  try {
    setPriority(0, LOWEST_NICE);
  } catch {
    // Not fatal: the thread keeps its priority.
  }
}
register();
await import('./network-bound-thread-worker.ts');
