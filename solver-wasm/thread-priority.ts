// The nice value of the threads that compute (solver workers, the simulation thread): on Linux,
// os.setPriority(0, n) called inside a worker thread renices that thread alone (setpriority with
// PRIO_PROCESS and id 0 acts on the calling thread), so the HTTP thread keeps nice 0 and gets the CPU
// first when both want it. Measured by `npm run load` (README "Operating the service").
import { setPriority } from 'node:os';

export const COMPUTE_THREAD_NICE = 10;

/** Lowers the calling thread's priority; a platform that refuses (or is not Linux) keeps its default. */
export function yieldToHttpThread(): void {
  try {
    setPriority(0, COMPUTE_THREAD_NICE);
  } catch {
    // Not fatal: the thread runs at the default priority, as it did before.
  }
}
