// Soak: 2,000 consecutive solves in one process must run without failure and without memory
// growth beyond a stated bound (glpk.js has a reported WebAssembly memory failure after repeated
// solves). Solves real recovery models of the default schedule (the strategies' final integer models),
// rotating over several disruptions,
// on one solver worker (the production code path) so that one WebAssembly instance sees them all.
// Usage: npm run soak [-- --solves 2000 --bound-mb 64]
import { join } from 'node:path';
import { readCommandLine, usageError } from '../src/cli/args.ts';
import { loadScheduleFile } from '../src/formats/schedule-json/read-schedule.ts';
import { DEFAULT_SOLVER_CONFIG } from '../src/recovery/model/solver-config.ts';
import { prepareSimulation, solveStrategies, type SimulationRequest } from '../src/recovery/pipeline.ts';
import { createSolverPool } from '../solver-wasm/pool.ts';

const { values } = readCommandLine({
  command: 'npm run soak',
  usage: `Usage: npm run soak [-- --solves 2000 --bound-mb 64]

Consecutive solves of real recovery models on one solver worker: no failure, no memory growth.
  --solves N              solves (default 2000)
  --bound-mb MB           allowed growth of resident memory after the warm-up (default 64)
  --help                  this text`,
  options: { solves: { type: 'string', default: '2000' }, 'bound-mb': { type: 'string', default: '64' } },
});
const solves = Number(values.solves);
const boundMb = Number(values['bound-mb']);
if (!(solves >= 1) || !(boundMb > 0)) usageError('npm run soak', '--solves and --bound-mb must be positive numbers');
const WARM_UP_SOLVES = Math.min(200, Math.floor(solves / 10));

const schedule = loadScheduleFile(join(import.meta.dirname, '../schedules/default.json'));
const disrupted = schedule.flights.filter((f) => f.airline === 'NV' && f.origin === 'VIE').filter((_, i) => i % 9 === 0).slice(0, 8);
const pool = createSolverPool({ threads: 1 });
await pool.ready();
// The final integer model of each strategy (after its column generation) of each disruption.
const models = [];
for (const [i, f] of disrupted.entries()) {
  const request: SimulationRequest = {
    scenarioId: 'soak', disruptedFlightId: f.id, disruptions: [{ type: 'flight_delay', flightId: f.id, minDelayMinutes: 60 + 30 * (i % 5) }],
    airline: 'NV', scheduleName: 'default', config: DEFAULT_SOLVER_CONFIG,
  };
  for (const solved of await solveStrategies(schedule, prepareSimulation(schedule, request), request.config, pool)) models.push(solved.model.model);
}
const objectives = new Map<number, number | null>();
let failures = 0;
let rssAfterWarmUp = 0;
let peakRss = 0;
const started = performance.now();
for (let i = 0; i < solves; i++) {
  const index = i % models.length;
  // A solve that rejects (a crashed or stuck worker) is a failure of the soak, counted like a wrong answer, not its end.
  const outcome = await pool.solve({ model: models[index]!, timeLimitMs: 10_000, mipGap: 0 }).catch(() => null);
  // The same model must give the same objective every time: a corrupted instance would not.
  if (outcome === null || outcome.status !== 'optimal' || (objectives.has(index) && objectives.get(index) !== outcome.objective)) failures++;
  if (outcome !== null) objectives.set(index, outcome.objective);
  const rss = process.memoryUsage().rss;
  peakRss = Math.max(peakRss, rss);
  if (i + 1 === WARM_UP_SOLVES) rssAfterWarmUp = rss;
  if ((i + 1) % 250 === 0) process.stderr.write(`  ${i + 1}/${solves} solves, rss ${(rss / 2 ** 20).toFixed(1)} MiB\n`);
}
await pool.close();
const growthMb = (peakRss - rssAfterWarmUp) / 2 ** 20;
console.log(`${solves} solves of ${models.length} recovery models in ${((performance.now() - started) / 1000).toFixed(1)} s; failures ${failures}; ` +
  `resident memory after ${WARM_UP_SOLVES} solves ${(rssAfterWarmUp / 2 ** 20).toFixed(1)} MiB, peak ${(peakRss / 2 ** 20).toFixed(1)} MiB, growth ${growthMb.toFixed(1)} MiB (bound ${boundMb} MiB).`);
if (failures > 0 || growthMb > boundMb) {
  console.error(failures > 0 ? `Soak failed: ${failures} solves did not return the optimal, unchanged objective.` : `Soak failed: memory grew ${growthMb.toFixed(1)} MiB, above the ${boundMb} MiB bound.`);
  process.exit(1);
}
