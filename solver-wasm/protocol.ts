// What crosses the thread boundary between the service and a solver worker: plain, cloneable data,
// defined by the use case's solver port.
export type { SolveOutcome, SolveTask } from '../src/recovery/solver-port.ts';
