// npm run bench -- --parts under-load: issue 24's third goal. The service (src/main.ts) on loopback
// gets listing traffic as `npm run load` sends it (closed-loop clients alternating GET /flights and
// GET /flights/default) and, beside it, two simulations in flight at all times: two lanes that each
// post the next of the single delays drawn with the fixed seed (and, once all are taken, one again
// uncounted while the other lane's last one runs). Per answer: every option with
// a plan must have a lower bound above 0; while the simulations run, GET /flights must keep p99 under
// 100 ms. Prints both, with the simulations' p50 / p95, and exits 1 when a target is missed.
//
//   npm run bench -- --parts under-load [--seeded 30] [--listing-clients 8] [--out file.json]
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { readCommandLine, usageError, UsageRefusal } from '../src/cli/args.ts';
import { postJson, startServer, type RunningServer } from './lib/http.ts';
import { announce, progress } from './lib/progress.ts';
import { BENCHMARKS_DIR, REPO_DIR, loadScenarios, selectScenarios, simulateBody, type Scenario } from './lib/scenarios.ts';
import { loadSchedulesFor } from './lib/schedules.ts';
import { DEFAULT_SEED, seededSingleDelays } from './lib/seeded-delays.ts';
import { formatMs, median, percentile } from './lib/stats.ts';
import { table } from './lib/table.ts';

/** The targets of issue 24 for this part. */
export const UNDER_LOAD_TARGETS = { listingP99Ms: 100 } as const;
/** Simulations in flight at all times. */
const LANES = 2;

/** Whether the command line asks for this part (`--parts under-load`); it runs on its own. */
export function underLoadPartRequested(argv: readonly string[]): boolean {
  const i = argv.findIndex((a) => a === '--parts' || a.startsWith('--parts='));
  if (i === -1) return false;
  const value = argv[i]!.startsWith('--parts=') ? argv[i]!.slice('--parts='.length) : argv[i + 1] ?? '';
  const parts = value.split(',').map((p) => p.trim());
  if (parts.includes('under-load') && parts.length > 1) throw new UsageRefusal('--parts under-load runs on its own (it has its own options): run the other parts separately.');
  return parts.includes('under-load');
}

/** What one answer of a simulation says about its options' bounds. */
export interface Answer { key: string; status: number; ms: number; options: number; withoutBound: string[]; integrated: string | null }

/** The options of a /simulate answer that have a plan but no lower bound above 0 (their strategies). */
export function optionsWithoutBound(body: unknown): { options: number; withoutBound: string[]; integrated: string | null } {
  const options = (body as { options?: { strategy: string; solver?: { status: string; lower_bound: number | null } }[] }).options ?? [];
  return {
    options: options.length,
    withoutBound: options.filter((o) => !((o.solver?.lower_bound ?? 0) > 0)).map((o) => o.strategy),
    integrated: options.find((o) => o.strategy === 'integrated')?.solver?.status ?? null,
  };
}

/** Status 0 when no answer came (a failed request of the benchmark, counted, not the benchmark's end). */
async function getMs(server: RunningServer, path: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(`${server.baseUrl}${path}`, { headers: { 'X-API-Key': server.apiKey } });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

export async function runUnderLoadPart(argv: string[]): Promise<number> {
  const command = 'npm run bench -- --parts under-load';
  const { values } = readCommandLine({
    command,
    usage: `Usage: npm run bench -- --parts under-load [--seeded 30] [--seed ${DEFAULT_SEED}] [--listing-clients 8] [--out FILE]

Starts the service, drives listing traffic at it (GET /flights) and keeps two simulations in flight
(single delays of the default schedule drawn with the seed) until every delay is answered; prints
whether every option has a lower bound above 0 and the listing's p99 (target < ${UNDER_LOAD_TARGETS.listingP99Ms} ms). Exit 1 when missed.
  --seeded N            single delays (default 30)
  --seed N              their seed
  --listing-clients N   closed-loop listing clients (default 8)
  --out FILE            the JSON report
  --help                this text`,
    args: argv,
    options: { parts: { type: 'string' }, seeded: { type: 'string', default: '30' }, seed: { type: 'string', default: String(DEFAULT_SEED) }, 'listing-clients': { type: 'string', default: '8' }, out: { type: 'string' } },
  });
  const count = Number(values.seeded);
  const clients = Number(values['listing-clients']);
  if (!Number.isInteger(count) || count < LANES || !Number.isInteger(clients) || clients < 1) usageError(command, `--seeded takes a whole number of at least ${LANES}, --listing-clients one of at least 1.`);
  const committed = selectScenarios(loadScenarios(), { schedules: ['default'] }).filter((s) => s.disrupted_flight !== undefined);
  const schedule = loadSchedulesFor(committed).get('default')!;
  const delays: Scenario[] = seededSingleDelays(schedule, 'default', committed[0]!, count, Number(values.seed), committed);

  progress('starting the service (src/main.ts)');
  // The per-key rate limits are off: one key drives all the traffic (as npm run load).
  const server = await startServer({ RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_SIMULATE_PER_MINUTE: '0', LOG_LEVEL: 'warn' });
  const loadBefore = loadavg()[0]!;
  const listing: number[] = [];
  const listingFailures: number[] = [];
  const answers: Answer[] = [];
  try {
    let simulating = true;
    const listingClient = async (n: number) => {
      for (let i = n; simulating; i++) {
        const { status, ms } = await getMs(server, i % 2 ? '/flights' : '/flights/default');
        if (status === 200) listing.push(ms); else listingFailures.push(status);
      }
    };
    // Each lane takes the next delay not yet taken; once all are taken, a lane whose answer came
    // posts one again (not counted) while the other's last one runs: two in flight until the end.
    let next = 0;
    const lane = async () => {
      while (answers.length < delays.length) {
        const taken = next++;
        const scenario = delays[taken % delays.length]!;
        progress(`under load: ${Math.min(taken, delays.length - 1) + 1}/${delays.length} ${scenario.key}${taken < delays.length ? '' : ' (keeping two in flight)'}`);
        const answer = await postJson(server, '/simulate', simulateBody(scenario));
        if (taken >= delays.length) continue;
        answers.push({ key: scenario.key, status: answer.status, ms: answer.ms, ...(answer.status === 200 ? optionsWithoutBound(answer.body) : { options: 0, withoutBound: [], integrated: null }) });
      }
    };
    const listingDone = Promise.all(Array.from({ length: clients }, (_, n) => listingClient(n)));
    await Promise.all(Array.from({ length: LANES }, () => lane()));
    simulating = false;
    await listingDone;
  } finally {
    await server.stop();
  }
  const loadAfter = loadavg()[0]!;

  const answered = answers.filter((a) => a.status === 200);
  const unbounded = answered.filter((a) => a.withoutBound.length > 0);
  const simulateMs = answered.map((a) => a.ms);
  const p99 = listing.length > 0 ? percentile(listing, 99) : null;
  const rows = [[
    `${answers.length}`, `${answered.length}`, formatMs(median(simulateMs)), formatMs(percentile(simulateMs, 95)),
    `${answered.filter((a) => a.integrated === 'optimal').length}`, `${unbounded.length}`,
    `${listing.length}`, formatMs(median(listing)), formatMs(p99),
  ]];
  process.stdout.write(`\n${table(['single delays', 'answered 200', 'simulate p50', 'simulate p95', 'integrated optimal', 'answers with an option without bound > 0', 'listing requests', 'listing p50', 'listing p99'], rows,
    `Under load: ${LANES} simulations in flight, ${clients} listing clients (load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, ${availableParallelism()} cores):`)}`);
  for (const a of unbounded) process.stdout.write(`without a bound > 0: ${a.key} (${a.withoutBound.join(', ')})\n`);
  for (const a of answers.filter((x) => x.status !== 200)) process.stdout.write(`answered ${a.status}: ${a.key}\n`);
  const failures: string[] = [];
  if (unbounded.length > 0) failures.push(`${unbounded.length} answers had an option without a lower bound above 0`);
  if (answered.length === 0) failures.push('no simulation was answered 200');
  if (p99 === null || p99 >= UNDER_LOAD_TARGETS.listingP99Ms) failures.push(`listing p99 ${formatMs(p99)} (target < ${UNDER_LOAD_TARGETS.listingP99Ms} ms)`);
  if (listingFailures.length > 0) failures.push(`${listingFailures.length} listing requests not answered 200 (${[...new Set(listingFailures)].join(', ')})`);

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = values.out ?? join(BENCHMARKS_DIR, 'reports', `under-load-${stamp}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({
    format: 1, part: 'under-load', created_at: new Date().toISOString(), command: argv, load_before: loadBefore, load_after: loadAfter, lanes: LANES, listing_clients: clients,
    listing: { n: listing.length, p50_ms: median(listing), p99_ms: p99, failures: listingFailures.length }, answers,
  }, null, 2)}\n`);
  process.stdout.write(`\nJSON report: ${relative(REPO_DIR, file)}\n`);
  for (const f of failures) process.stdout.write(`target missed: ${f}\n`);
  announce(`under-load part done${failures.length ? `: ${failures.length} target(s) missed` : ': targets met'}`);
  return failures.length > 0 ? 1 : 0;
}
