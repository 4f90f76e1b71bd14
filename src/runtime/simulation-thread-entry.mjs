// Entry of the simulation thread (simulation-thread.ts). A worker thread does not inherit the loader
// that lets the service run TypeScript when it is started by a test runner, so register tsx's loader
// in this thread first, as solver-wasm/worker-entry.mjs does for the solver workers.
import { register } from 'tsx/esm/api';

register();
await import('./simulation-thread-worker.ts');
