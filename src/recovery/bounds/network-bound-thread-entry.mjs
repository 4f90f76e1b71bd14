// Entry of a network bound's thread (network-bound-thread.ts). A worker thread does not inherit the
// loader that lets the service run TypeScript, so register tsx's loader first, as the simulation
// thread's entry does.
import { register } from 'tsx/esm/api';

register();
await import('./network-bound-thread-worker.ts');
