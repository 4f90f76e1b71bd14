// Inside the simulation thread (see simulation-thread.ts): takes the schedules main.ts loaded, starts
// the solver pool, and runs each simulation in process on it.
import { parentPort, workerData } from 'node:worker_threads';
import { Budget } from '../recovery/model/budget.ts';
import { recoveryFailureOf } from '../recovery/model/failure.ts';
import type { SimulationProgress } from '../recovery/pipeline.ts';
import { yieldToHttpThread } from '../../solver-wasm/thread-priority.ts';
import type { FromThread, SimulationThreadData, ToThread } from './simulation-thread.ts';
import { createInProcessRunner } from './simulation-runner.ts';
import { startRestrictedThread, type RestrictedThread } from './simulation-thread-restricted.ts';
import { catalogAndPoolOrExit } from './thread-start.ts';

const port = parentPort!;
const post = (message: FromThread) => port.postMessage(message);
const data = workerData as SimulationThreadData;
// Model building yields the CPU to the HTTP thread (solver-wasm/thread-priority.ts); the solver
// workers this thread starts renice themselves.
yieldToHttpThread();

const { schedules, pool } = await catalogAndPoolOrExit(data, post);
// The restricted thread (simulation-thread-restricted.ts) starts once this thread is ready, so that the
// service's start does not wait for it (1.3-1.4 s more of CPU: a second thread loading the use case,
// a GLPK worker, its warm-up): until it is ready every strategy is solved here.
let restricted: RestrictedThread | null = null;
const runner = createInProcessRunner(schedules, pool, data.restrictedThread ? (request, budget) => restricted?.solve(request, budget) ?? null : undefined);
for (const request of data.warmUp) {
  // A warm-up that fails says so and the thread starts anyway: it serves requests, only colder.
  await runner.run(request, Budget.start(request.config.solver.time_limit_ms)).catch((error: unknown) => {
    post({ type: 'warm-up-failed', message: `${request.scenarioId}: ${error instanceof Error ? error.message : String(error)}` });
  });
}
// One controller per simulation: the caller's signal cannot cross the thread, its 'cancel' can; the
// budget crosses as data and is the same budget again here, with this controller's signal.
const running = new Map<number, AbortController>();

port.on('message', (message: ToThread) => {
  switch (message.type) {
    case 'run': {
      const controller = new AbortController();
      running.set(message.id, controller);
      const { id } = message;
      // Progress crosses the thread as messages (a few per second at most: the job runner throttles what it publishes).
      const onProgress = message.progress ? (progress: SimulationProgress) => post({ type: 'progress', id, progress }) : undefined;
      runner.run(message.request, Budget.fromData(message.budget, controller.signal), onProgress).then(
        (result) => post({ type: 'result', id: message.id, result }),
        (error: unknown) => {
          const failure = recoveryFailureOf(error);
          post(failure ? { type: 'failure', id: message.id, failure } : { type: 'error', id: message.id, message: error instanceof Error ? error.message : String(error) });
        },
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
      void Promise.all([pool.close(), restrictedStarted.then((thread) => thread?.close())]).finally(() => {
        post({ type: 'closed' });
        process.exit(0);
      });
      break;
  }
});
post({ type: 'ready' });
const restrictedStarted = data.restrictedThread
  ? startRestrictedThread({ schedules: data.schedules, defaultSchedule: data.defaultSchedule, pool: data.pool, warmUp: data.warmUp }, (error) => post({ type: 'restricted-thread-error', message: error.message }))
    .then((thread) => { restricted = thread; return thread; }, (error: Error) => {
      post({ type: 'restricted-thread-error', message: `it could not start (every strategy is solved on the simulation thread): ${error.message}` });
      return null;
    })
  : Promise.resolve(null);
