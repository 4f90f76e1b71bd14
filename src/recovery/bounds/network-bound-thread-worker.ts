// The body of a network bound's thread (network-bound-thread.ts), one bound at a time: builds the
// relaxation from the input of a job, starts from its flight-level duals (without waiting for the
// flight bound's LP, which the simulation thread relays only when it is free), iterates until its
// deadline or until told to stop, and reports each better bound and the final one. Then it waits for
// the next job.
import { parentPort } from 'node:worker_threads';
import { journeyNetwork } from '../passengers/passengers.ts';
import { iterateRelaxation, NetworkRelaxation, withLeastRebooking, type NetworkBoundInput } from './network-bound.ts';
import type { FromBoundThread, ToBoundThread } from './network-bound-thread.ts';

interface Job { job: number; stop: AbortController; target: number | null }

const post = (message: FromBoundThread) => parentPort!.postMessage(message);
let current: Job | null = null;

parentPort!.on('message', (message: ToBoundThread) => {
  if (message.type === 'job') {
    current = { job: message.job, stop: new AbortController(), target: null };
    void run(current, message.input, message.deadlineAt - performance.timeOrigin, message.maxIterations, message.routes);
    return;
  }
  if (current === null || message.job !== current.job) return;
  if (message.type === 'target') current.target = message.value;
  else current.stop.abort();
});

async function run(job: Job, sent: NetworkBoundInput, deadline: number, maxIterations: number | undefined, routes: boolean): Promise<void> {
  try {
    // The journey network's function does not cross threads: it is rebuilt here from the schedule.
    const input: NetworkBoundInput = { ...sent, groups: { ...sent.groups, network: journeyNetwork(sent.schedule, sent.groups.network.flights) } };
    const relaxation = new NetworkRelaxation(withLeastRebooking(input));
    relaxation.startFromFlights();
    const result = await iterateRelaxation(relaxation, null, {
      deadline, signal: job.stop.signal, target: () => job.target, maxIterations, onBound: (value) => post({ type: 'bound', job: job.job, value }),
      onRoutes: routes ? (priced) => post({ type: 'routes', job: job.job, routes: priced }) : undefined,
    });
    post({ type: 'done', job: job.job, result });
  } catch (error) {
    post({ type: 'failed', job: job.job, message: (error as Error).message });
  } finally {
    if (current === job) current = null;
  }
}
