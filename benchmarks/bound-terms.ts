// The network bound (docs/model.md 3.9) term by term beside a plan's costs: where the relaxation pays
// less than the plans do. For the storm of issue 23 (as benchmarks/bound.ts posts it) or the committed
// default hub storm: a plan of the service at the given limit (its cost breakdown and passengers), then
// the relaxation from the flight-level duals for a fixed number of iterations (no clock: the same on
// a loaded host), aiming halfway to the plan as the service does, with each better bound's solution
// term by term, its rows' violations and the CPU time of the build and of the iterations.
//   npx tsx benchmarks/bound-terms.ts [issue|hub] [plan limit ms, 0: no plan] [iterations] [target if no plan]
//   (nice -n 10 on a shared machine)
import { availableParallelism } from 'node:os';
import { simulate, prepareSimulation, type SimulationRequest } from '../src/recovery/pipeline.ts';
import { resolveSolverConfig } from '../src/recovery/model/solver-config.ts';
import { DEFLECTION, NetworkRelaxation, STALE_ITERATIONS, TARGET_SHARE, withLeastRebooking } from '../src/recovery/bounds/network-bound.ts';
import { flightBoundModel } from '../src/recovery/bounds/flight-bound.ts';
import { RouteEvaluator } from '../src/recovery/neighbourhood/aircraft-routes.ts';
import { createSolverPool } from '../solver-wasm/pool.ts';
import { ISSUE_23_STORM } from './storm.ts';
import { loadScenarios, simulationRequest } from './lib/scenarios.ts';
import { loadSchedulesFor } from './lib/schedules.ts';

const [which = 'issue', planArg = '30000', iterationsArg = '700', targetArg = '1305262.5'] = process.argv.slice(2);
const planMs = Number(planArg);
const iterations = Number(iterationsArg);

const hubStorm = loadScenarios().find((s) => s.id === 'hub-storm' && s.schedule === 'default')!;
const schedule = loadSchedulesFor([hubStorm]).get('default')!;
const limitMs = Math.max(planMs, 2000);
let request: SimulationRequest;
if (which === 'issue') {
  const resolved = resolveSolverConfig({ solver: { time_limit_ms: limitMs } });
  if (!resolved.valid) throw new Error('configuration');
  request = { scenarioId: 'issue-23-storm', airline: 'NV', scheduleName: 'default', config: resolved.config, disruptions: [...ISSUE_23_STORM], disruptedFlightId: null };
} else {
  request = simulationRequest(hubStorm, { ...hubStorm.solverConfig, solver: { ...hubStorm.solverConfig.solver, time_limit_ms: limitMs } });
}
const round = (x: number) => Math.round(x).toLocaleString('en');
const pool = createSolverPool({ threads: availableParallelism() });
try {
  const prepared = prepareSimulation(schedule, request);
  let target = Number(targetArg);
  if (planMs > 0) {
    const result = await simulate(schedule, request, pool);
    const o = result.options.find((x) => x.strategy === 'integrated')!;
    console.log(`plan at ${planMs} ms: ${round(o.kpis.cost)} ${JSON.stringify(o.costs)}, ${o.cancellations.length} cancellations, ${o.swaps.length} swaps; passengers disrupted ${o.kpis.passengersDisrupted}, re-accommodated ${o.kpis.passengersReaccommodated}, not ${o.kpis.passengersNotReaccommodated}`);
    target = o.kpis.cost;
  }
  const built = process.cpuUsage();
  const relaxation = new NetworkRelaxation(withLeastRebooking({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }));
  console.log(`built in ${round(process.cpuUsage(built).user / 1000)} ms of CPU: ${relaxation.nets.length} aircraft, ${relaxation.copies} copies, ${relaxation.seatGroups.length} seat groups, ${relaxation.brokenGroups.length} itineraries that a cancelled leg breaks; heap ${round(process.memoryUsage().heapUsed / 2 ** 20)} MiB`);
  const lp = await pool.solve({ model: flightBoundModel(new RouteEvaluator(schedule, prepared.scope, request.config), prepared.groups), timeLimitMs: 60_000, mipGap: 0, relaxation: true });
  console.log(`flight bound (LP) ${lp.objective === null ? '-' : round(lp.objective)}; aiming halfway to ${round(target)}`);
  relaxation.startFromFlights();
  // Journey searches at the flights' seat prices: counted (only groups whose disruption pays at their least journey are searched).
  let searches = 0;
  const bestJourney = relaxation.bestJourney.bind(relaxation);
  relaxation.bestJourney = (...args) => { searches++; return bestJourney(...args); };
  let best = Number.NEGATIVE_INFINITY, theta = 1, stale = 0, cpu = 0;
  for (let it = 1; it <= iterations; it++) {
    const before = process.cpuUsage();
    const value = relaxation.evaluate();
    cpu += process.cpuUsage(before).user;
    if (value > best) {
      best = value;
      stale = 0;
      const t = relaxation.terms();
      const over = (rows: readonly { activity: number; rhs: number }[]) => rows.reduce((sum, r) => sum + Math.max(0, r.activity - r.rhs), 0);
      const flightRows = relaxation.flights.reduce((sum, d) => sum + Math.abs(d.cancel + d.use.reduce((u, x) => u + x, 0) - 1), 0);
      console.log(`iteration ${it}: bound ${round(value)} | delay ${round(t.delay)}, swaps and spill ${round(t.swapAndSpill)} (${t.swaps} swaps), ${t.cancellations} cancellations ${round(t.cancellationCost)},`
        + ` their passengers ${round(t.cancelledFlightsPassengerCost)}, ${t.missedItineraries} itineraries missed ${round(t.missedCost)}, ${t.brokenItineraries} broken by a cancelled leg ${round(t.brokenCost)};`
        + ` seat groups: ${t.rebookedPassengers} passengers re-accommodated, ${t.strandedPassengers} not | rows off: flights ${flightRows}, capacities ${over(relaxation.capacities)},`
        + ` seats by airport ${round(100 * over(relaxation.seatRows))}, by flight ${round(100 * over(relaxation.flightSeatRows))}, connections ${over(relaxation.connections.flatMap((c) => c.rows))}`);
    } else if (++stale >= STALE_ITERATIONS) { theta /= 2; stale = 0; }
    const norm = relaxation.direct(DEFLECTION);
    if (relaxation.violated === 0 || norm === 0 || theta < 1e-4) break;
    relaxation.step(theta * (best + TARGET_SHARE * (target - best) - value) / norm);
  }
  console.log(`best ${round(best)} after ${iterations} iterations, ${round(cpu / 1000 / iterations)} ms of CPU and ${round(searches / iterations)} journey searches`
    + ` (of ${relaxation.seatGroups.filter((g) => g.journeys).length} groups with journeys) an evaluation`);
} finally {
  await pool.close();
}
