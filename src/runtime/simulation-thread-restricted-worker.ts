// Inside the restricted thread (see simulation-thread-restricted.ts): takes the schedules, starts its
// solver pool, and solves each request's strategies (the restricted ones the simulation thread hands
// over) in process, answering with their options read.
import { parentPort, workerData } from 'node:worker_threads';
import { Budget } from '../recovery/model/budget.ts';
import { recoveryFailureOf } from '../recovery/model/failure.ts';
import { restrictedPart, simulate } from '../recovery/pipeline.ts';
import { yieldToHttpThread } from '../../solver-wasm/thread-priority.ts';
import type { FromRestricted, RestrictedThreadData, ToRestricted } from './simulation-thread-restricted.ts';
import { createScheduleSource } from './schedule-source.ts';
import { catalogAndPoolOrExit } from './thread-start.ts';

const port = parentPort!;
const post = (message: FromRestricted) => port.postMessage(message);
const data = workerData as RestrictedThreadData;
yieldToHttpThread();

const { schedules, pool } = await catalogAndPoolOrExit(data, post);
const source = createScheduleSource(schedules);
for (const request of data.warmUp) {
  // A warm-up that fails leaves the thread colder, nothing else (the simulation thread's warm-ups say so).
  const part = restrictedPart(request);
  await simulate(source.scheduleFor(part), part, pool, Budget.start(part.config.solver.time_limit_ms)).catch(() => undefined);
}
// One budget per request: its signal is the simulation thread's 'cancel', its end that thread's 'cut'.
const running = new Map<number, { controller: AbortController; budget: Budget }>();

port.on('message', (message: ToRestricted) => {
  switch (message.type) {
    case 'run': {
      const { id, request } = message;
      const controller = new AbortController();
      // The request was admitted and its references checked on the simulation thread.
      const budget = Budget.fromData(message.budget, controller.signal).within();
      running.set(id, { controller, budget });
      simulate(source.scheduleFor(request), request, pool, budget).then(
        (result) => post({ type: 'result', id, read: { options: result.options, unsolved: result.unsolved } }),
        (error: unknown) => {
          const failure = recoveryFailureOf(error);
          post(failure ? { type: 'failure', id, failure } : { type: 'error', id, message: error instanceof Error ? error.message : String(error) });
        },
      ).finally(() => running.delete(id));
      break;
    }
    case 'cut':
      running.get(message.id)?.budget.cutTo(message.atEpochMs - performance.timeOrigin);
      break;
    case 'cancel':
      running.get(message.id)?.controller.abort();
      break;
    case 'close':
      for (const { controller } of running.values()) controller.abort();
      void pool.close().finally(() => process.exit(0));
      break;
  }
});
post({ type: 'ready' });
