// Entry of the restricted thread (simulation-thread-restricted.ts): tsx's loader first, as in
// simulation-thread-entry.mjs.
import { register } from 'tsx/esm/api';

register();
await import('./simulation-thread-restricted-worker.ts');
