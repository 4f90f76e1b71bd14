// Inside the simulation thread (see simulation-thread.ts): loads the schedules, starts the solver pool,
// and answers the HTTP thread's messages with the in-process simulator.
import { parentPort, workerData } from 'node:worker_threads';
import { loadScheduleCatalog } from '../formats/schedule-json/schedule-catalog.ts';
import { createSolverPool } from '../../solver-wasm/pool.ts';
import type { FromThread, SimulationThreadData, ToThread } from './simulation-thread.ts';
import { createInProcessSimulator, describeFailure } from './simulation-runner.ts';

const port = parentPort!;
const post = (message: FromThread) => port.postMessage(message);
const data = workerData as SimulationThreadData;

let start;
try {
  const schedules = loadScheduleCatalog(data.schedulesDir, data.defaultSchedule);
  const pool = createSolverPool({ ...data.pool, onWorkerError: (error) => post({ type: 'worker-error', message: error.message }) });
  await pool.ready();
  start = { schedules, pool };
} catch (error) {
  post({ type: 'start-failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
const { schedules, pool } = start;
const simulator = createInProcessSimulator(schedules, pool);
const running = new Map<number, AbortController>();

port.on('message', (message: ToThread) => {
  switch (message.type) {
    case 'simulate': {
      const controller = new AbortController();
      running.set(message.id, controller);
      simulator.simulate(message.request, controller.signal).then(
        (result) => post({ type: 'result', id: message.id, result }),
        (error: unknown) => post({ type: 'failure', id: message.id, failure: describeFailure(error) }),
      ).finally(() => running.delete(message.id));
      break;
    }
    case 'cancel':
      running.get(message.id)?.abort();
      break;
    case 'stats':
      post({ type: 'stats', id: message.id, stats: pool.stats() });
      break;
    case 'close':
      for (const controller of running.values()) controller.abort();
      void pool.close().finally(() => {
        post({ type: 'closed' });
        process.exit(0);
      });
      break;
  }
});
post({ type: 'ready' });
