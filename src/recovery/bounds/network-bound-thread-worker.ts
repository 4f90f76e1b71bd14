// The body of a network bound's thread (network-bound-thread.ts), one bound at a time: builds the
// relaxation from the input of a job, waits for the flight bound's duals (solved meanwhile on the
// solver pool), starts from them, iterates until its deadline or until told to stop, and reports each
// better bound and the final one. Then it waits for the next job.
import { parentPort } from 'node:worker_threads';
import { journeyNetwork } from '../passengers/passengers.ts';
import { iterateRelaxation, NetworkRelaxation, withLeastRebooking, type NetworkBoundInput, type StartingPrices } from './network-bound.ts';
import type { FromBoundThread, ToBoundThread } from './network-bound-thread.ts';

interface Job { job: number; stop: AbortController; target: number | null; prices: Promise<StartingPrices>; heardPrices: (prices: StartingPrices) => void }

const post = (message: FromBoundThread) => parentPort!.postMessage(message);
let current: Job | null = null;

parentPort!.on('message', (message: ToBoundThread) => {
  if (message.type === 'job') {
    let heardPrices: (prices: StartingPrices) => void = () => {};
    const prices = new Promise<StartingPrices>((resolve) => { heardPrices = resolve; });
    current = { job: message.job, stop: new AbortController(), target: null, prices, heardPrices };
    void run(current, message.input, message.deadlineAt - performance.timeOrigin, message.maxIterations);
    return;
  }
  if (current === null || message.job !== current.job) return;
  if (message.type === 'prices') current.heardPrices(message.prices);
  else if (message.type === 'target') current.target = message.value;
  else current.stop.abort();
});

async function run(job: Job, sent: NetworkBoundInput, deadline: number, maxIterations: number | undefined): Promise<void> {
  try {
    // The journey network's function does not cross threads: it is rebuilt here from the schedule.
    const input: NetworkBoundInput = { ...sent, groups: { ...sent.groups, network: journeyNetwork(sent.schedule, sent.groups.network.flights) } };
    const relaxation = new NetworkRelaxation(withLeastRebooking(input));
    const stopped = new Promise<StartingPrices>((resolve) => job.stop.signal.addEventListener('abort', () => resolve({ duals: {}, flightBound: null })));
    const { duals, flightBound } = await Promise.race([job.prices, stopped]);
    relaxation.startFrom(duals);
    const result = await iterateRelaxation(relaxation, flightBound, {
      deadline, signal: job.stop.signal, target: () => job.target, maxIterations, onBound: (value) => post({ type: 'bound', job: job.job, value }),
    });
    post({ type: 'done', job: job.job, result });
  } catch (error) {
    post({ type: 'failed', job: job.job, message: (error as Error).message });
  } finally {
    if (current === job) current = null;
  }
}
