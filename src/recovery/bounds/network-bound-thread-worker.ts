// The body of a network bound's thread (network-bound-thread.ts): builds the relaxation from the
// input it is given, starts from the flight bound's duals, iterates until its deadline or until told
// to stop, and reports each better bound and the final one.
import { parentPort, workerData } from 'node:worker_threads';
import { journeyNetwork } from '../passengers/passengers.ts';
import { iterateRelaxation, NetworkRelaxation, withLeastRebooking, type NetworkBoundInput } from './network-bound.ts';
import type { FromBoundThread, ToBoundThread } from './network-bound-thread.ts';

const data = workerData as { input: NetworkBoundInput; duals: Record<string, number>; flightBound: number | null; remainingMs: number; maxIterations?: number };
const deadline = performance.now() + data.remainingMs;
const stop = new AbortController();
let target: number | null = null;
const post = (message: FromBoundThread) => parentPort!.postMessage(message);
parentPort!.on('message', (message: ToBoundThread) => {
  if (message.type === 'target') target = message.value;
  else stop.abort();
});
try {
  // The journey network's function does not cross threads: it is rebuilt here from the schedule.
  const input: NetworkBoundInput = { ...data.input, groups: { ...data.input.groups, network: journeyNetwork(data.input.schedule, data.input.groups.network.flights) } };
  const relaxation = new NetworkRelaxation(withLeastRebooking(input));
  relaxation.startFrom(data.duals);
  const result = await iterateRelaxation(relaxation, data.flightBound, {
    deadline, signal: stop.signal, target: () => target, maxIterations: data.maxIterations, onBound: (value) => post({ type: 'bound', value }),
  });
  post({ type: 'done', result });
} catch (error) {
  post({ type: 'failed', message: (error as Error).message });
}
parentPort!.close();
