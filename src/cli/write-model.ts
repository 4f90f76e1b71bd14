// Write the final recovery model of a disruption (the integer model over the routes the column
// generation priced and the optimality proof enumerated) in CPLEX LP format, for inspection or for
// other solvers. It solves the strategy first, on a one-thread solver pool.
// Usage: npm run model -- --schedule default --flight <id> --delay 90 [--strategy integrated] [--out file.lp]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCommandLine, usageError } from './args.ts';
import { loadScheduleFile } from '../formats/schedule-json/read-schedule.ts';
import { DEFAULT_SOLVER_CONFIG, STRATEGIES, type Strategy } from '../recovery/model/solver-config.ts';
import { prepareSimulation, solveStrategies, type SimulationRequest } from '../recovery/pipeline.ts';
import { toCplexLp } from '../../solver-wasm/lp-format.ts';
import { createSolverPool } from '../../solver-wasm/pool.ts';

const COMMAND = 'npm run model';
const { values } = readCommandLine({
  command: COMMAND,
  usage: `Usage: npm run model -- --flight ID [--schedule default] [--delay 90] [--strategy integrated] [--out FILE]

Writes the final recovery model of a delay (CPLEX LP format), after solving the strategy.
  --flight ID             the delayed flight (GET /flights lists them), required
  --schedule NAME         a bundled schedule (default default)
  --delay MIN             minutes of delay (default 90)
  --strategy NAME         ${STRATEGIES.join(', ')} (default integrated)
  --out FILE              write the model there instead of standard output
  --help                  this text`,
  options: {
    schedule: { type: 'string', default: 'default' },
    flight: { type: 'string' },
    delay: { type: 'string', default: '90' },
    strategy: { type: 'string', default: 'integrated' },
    out: { type: 'string' },
  },
});
function fail(message: string): never {
  return usageError(COMMAND, message);
}
const strategy = values.strategy as Strategy;
if (!STRATEGIES.includes(strategy)) fail(`--strategy must be one of ${STRATEGIES.join(', ')}.`);
if (!values.flight) fail('--flight is required (a flight id such as NV146_2026-11-21T07:50:00Z; GET /flights lists them).');
if (!/^[a-z0-9-]+$/.test(values.schedule!)) fail('--schedule must name a bundled schedule, e.g. default.');
const schedule = loadScheduleFile(join(import.meta.dirname, '../../schedules', `${values.schedule}.json`));
const flight = schedule.flightsById.get(values.flight!) ?? fail(`Flight '${values.flight}' is not in schedule '${values.schedule}'.`);
const request: SimulationRequest = {
  scenarioId: 'cli', disruptedFlightId: flight.id, disruptions: [{ type: 'flight_delay', flightId: flight.id, minDelayMinutes: Number(values.delay) }],
  airline: flight.airline, scheduleName: values.schedule!, config: { ...DEFAULT_SOLVER_CONFIG, strategies: { evaluate: [strategy] } },
};
const pool = createSolverPool({ threads: 1 });
await pool.ready();
const [solved] = await solveStrategies(schedule, prepareSimulation(schedule, request), request.config, pool);
await pool.close();
const text = toCplexLp(solved!.model.model);
if (values.out) {
  writeFileSync(values.out, text);
  console.error(`Wrote ${values.out}`);
} else {
  process.stdout.write(text);
}
