// A GLPK pool of a test file's own, started before its tests and closed after them, as a Solver (the
// port the engine solves through): the files that solve on real workers need no setup of their own.
import { afterAll, beforeAll } from 'vitest';
import type { Solver } from '../../src/recovery/model/solver-port.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';

export function solverPoolOfThisFile(threads = 2): Solver {
  let pool: SolverPool | null = null;
  beforeAll(async () => {
    pool = createSolverPool({ threads });
    await pool.ready();
  });
  afterAll(async () => {
    await pool?.close();
  });
  return { solve: (task, options) => pool!.solve(task, options) };
}
