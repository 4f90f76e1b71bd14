// The body of a network bound's thread (network-bound-thread.ts), one bound at a time: builds the
// relaxation from the input of a job, starts from its flight-level duals (without waiting for the
// flight bound's LP, which the simulation thread relays only when it is free), iterates until its
// deadline or until told to stop, and reports each better bound and the final one. Then it waits for
// the next job, keeping the last job's relaxation where its iterations left off: a job with the same
// input (the same storm asked again, at another limit or after a change the scope does not see) goes
// on from there without a build, its best bound known at once (docs/model.md 3.9, "The same problem
// asked again").
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { journeyNetwork } from '../passengers/passengers.ts';
import { iterateRelaxation, NetworkRelaxation, withLeastRebooking, type NetworkBoundInput } from './network-bound.ts';
import type { FromBoundThread, ToBoundThread } from './network-bound-thread.ts';

interface Job { job: number; stop: AbortController; target: number | null }

const post = (message: FromBoundThread) => parentPort!.postMessage(message);
let current: Job | null = null;
/** The last job's relaxation (where its iterations left off), by its input's fingerprint. */
let kept: { key: string; relaxation: NetworkRelaxation } | null = null;

/**
 * A fingerprint of everything a relaxation is built from (the input as the thread received it, sets
 * and maps as lists, infinities by name): equal inputs build equal relaxations, so a kept one with
 * the same fingerprint is the relaxation of this job's problem. Without the settings the relaxation
 * never reads (its scope and groups are built already): the time limit, the MIP gap, the route cap
 * and the strategies, so that a storm asked at 2 s and then at 10 s is one problem. 30-60 ms on a
 * storm (3.6 M characters).
 */
function fingerprint(input: NetworkBoundInput): string {
  const { strategies: _, solver, ...config } = input.config;
  const read = { ...input, config: { ...config, solver: { ...solver, time_limit_ms: null, mip_gap: null, max_routes_per_aircraft: null } } };
  const json = JSON.stringify(read, (_key, value: unknown) => (
    value instanceof Set || value instanceof Map ? [...value]
      : typeof value === 'number' && !Number.isFinite(value) ? String(value) : value));
  return createHash('sha256').update(json).digest('hex');
}

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
    // Without a kept relaxation there is nothing to compare: the fingerprint waits until the job is
    // done, out of the way of a first asking's build and first iterations.
    let key = kept === null ? null : fingerprint(sent);
    let relaxation: NetworkRelaxation;
    if (kept !== null && kept.key === key) relaxation = kept.relaxation;
    else {
      kept = null;
      // The journey network's function does not cross threads: it is rebuilt here from the schedule.
      const input: NetworkBoundInput = { ...sent, groups: { ...sent.groups, network: journeyNetwork(sent.schedule, sent.groups.network.flights) } };
      // The flight-level start's bound needs no network: told before they are built (most of a build).
      relaxation = new NetworkRelaxation(withLeastRebooking(input), { networksLater: true });
      const early = relaxation.startFromFlights();
      if (Number.isFinite(early)) post({ type: 'bound', job: job.job, value: early });
      relaxation.buildNetworks();
    }
    const result = await iterateRelaxation(relaxation, null, {
      deadline, signal: job.stop.signal, target: () => job.target, maxIterations, onBound: (value) => post({ type: 'bound', job: job.job, value }),
      onRoutes: routes ? (priced) => post({ type: 'routes', job: job.job, routes: priced }) : undefined,
    });
    post({ type: 'done', job: job.job, result });
    key ??= fingerprint(sent);
    kept = { key, relaxation };
  } catch (error) {
    post({ type: 'failed', job: job.job, message: (error as Error).message });
  } finally {
    if (current === job) current = null;
  }
}
