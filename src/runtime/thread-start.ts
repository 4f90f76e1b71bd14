// The start both simulation threads share (simulation-thread-worker.ts, simulation-thread-restricted-worker.ts):
// the schedules they were handed and a solver pool ready to solve, or a 'start-failed' message to the
// thread that started them and the end of this one.
import type { Schedule } from '../domain/schedule.ts';
import { createScheduleCatalog, type ScheduleCatalog } from '../formats/schedule-json/schedule-catalog.ts';
import { createSolverPool, type SolverPool, type SolverPoolOptions } from '../../solver-wasm/pool.ts';

export interface ThreadStartData {
  schedules: Map<string, Schedule>;
  defaultSchedule: string;
  pool: Omit<SolverPoolOptions, 'onWorkerError'>;
}

export async function catalogAndPoolOrExit(
  data: ThreadStartData, post: (message: { type: 'worker-error' | 'start-failed'; message: string }) => void,
): Promise<{ schedules: ScheduleCatalog; pool: SolverPool }> {
  try {
    const schedules = createScheduleCatalog(data.schedules, data.defaultSchedule);
    const pool = createSolverPool({ ...data.pool, onWorkerError: (error) => post({ type: 'worker-error', message: error.message }) });
    await pool.ready();
    return { schedules, pool };
  } catch (error) {
    post({ type: 'start-failed', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
}
