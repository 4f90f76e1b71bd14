// The ROADEF/EURO 2009 benchmark from the command line (docs/spec/roadef2009.md):
//
//   npm run roadef -- score  --instance <dir> --solution <dir> [--json out.json]
//   npm run roadef -- solve  --instance <dir> --time-limit-s <s> --out <dir> [--solver engine|engine-keeps-flights|reference]
//   npm run roadef -- import --instance <dir> --name <schedule> [--airline RX] [--schedules-dir <dir>] [--force]
//
// score: our scorer's verdict. Prints every violated rule with a count and examples, the ten cost
//   components, the three groups and, as its last line, `feasible: yes|no, cost: <total>`. Exit 0
//   feasible, 1 infeasible, 2 unreadable input (a missing or malformed instance, a missing solution file).
// solve: writes the best solution the solver has when the limit comes; progress (elapsed, incumbent
//   cost by our scorer, the lower bound that holds for it and the gap) on stderr. Exit 0 when a
//   solution is written.
// import: writes <schedules-dir>/<name>.json, a schedule the service serves like the bundled ones.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseCommandLine, usageLine } from './args.ts';
import { BUNDLED_SCHEDULES_DIR } from '../config.ts';
import { ScheduleFileSchema } from '../formats/schedule-json/schedule-file.ts';
import { buildSchedule, ScheduleError } from '../formats/schedule-json/read-schedule.ts';
import type { RoadefInstance } from '../formats/roadef-2009/instance.ts';
import { readInstance } from '../formats/roadef-2009/read-instance.ts';
import { formatSolution, parseSolution, readSolution, writeSolution, type RoadefSolution } from '../formats/roadef-2009/solution.ts';
import { formatAmount, formatScoreReport, scoreJson, scoreSolution } from '../formats/roadef-2009/score/score.ts';
import { RoadefFormatError } from '../formats/roadef-2009/text.ts';
import { DEFAULT_IMPORT_AIRLINE, ImportError, roadefToScheduleFile, serializeImportedSchedule } from '../formats/roadef-2009/to-schedule.ts';
import { ROADEF_SOLVERS, runSolver } from '../recovery/roadef-adapter.ts';
import { boundGap, roadefInstanceBounds, type InstanceBounds } from '../recovery/roadef-bounds.ts';
import { createSolverPool } from '../../solver-wasm/pool.ts';

const COMMAND = 'npm run roadef';

const USAGE = [
  'usage: npm run roadef -- score  --instance <dir> --solution <dir> [--json out.json]',
  '       npm run roadef -- solve  --instance <dir> --time-limit-s <s> --out <dir> [--solver engine|engine-keeps-flights|reference]',
  '       npm run roadef -- import --instance <dir> --name <schedule> [--airline RX] [--schedules-dir <dir>] [--force]',
].join('\n');

/** Bad usage or unreadable input: exit code 2 with one sentence. */
class UsageError extends Error {}

const EXIT = { ok: 0, infeasible: 1, unreadable: 2 } as const;

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required.\n${USAGE}`);
  return value;
}

function score(values: Record<string, string | boolean | undefined>): number {
  const instance = readInstance(required(values, 'instance'));
  const report = scoreSolution(instance, readSolution(required(values, 'solution')));
  if (typeof values.json === 'string') writeFileSync(values.json, `${JSON.stringify(scoreJson(report), null, 2)}\n`);
  process.stdout.write(formatScoreReport(report));
  return report.feasible ? EXIT.ok : EXIT.infeasible;
}

/**
 * The lower bound that holds for a solution and its gap: the keeps-flights bound when the solution
 * cancels only what the disruptions may force, the official one otherwise (docs/model.md 3.9). A
 * solver's own bound, when it proves a higher one, is taken instead.
 */
function boundText(bounds: InstanceBounds, solution: RoadefSolution, cost: number, solverBound: number | null): string {
  const { bound, problem } = bounds.boundOf(solution);
  const best = solverBound !== null && solverBound > bound ? { bound: solverBound, problem: 'the solver\'s' } : { bound, problem };
  return `bound ${formatAmount(best.bound)} (${best.problem}), gap ${(100 * boundGap(cost, best.bound)).toFixed(1)} %`;
}

/** Our scorer's verdict on a solution exactly as its files will read. */
function judge(instance: RoadefInstance, solution: RoadefSolution) {
  return scoreSolution(instance, parseSolution(formatSolution(solution)));
}

async function solve(values: Record<string, string | boolean | undefined>): Promise<number> {
  const instance = readInstance(required(values, 'instance'));
  const out = required(values, 'out');
  const seconds = Number(required(values, 'time-limit-s'));
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError('--time-limit-s must be a positive number of seconds.');
  const solverName = typeof values.solver === 'string' ? values.solver : [...ROADEF_SOLVERS.keys()][0]!;
  const solver = ROADEF_SOLVERS.get(solverName) ?? (() => { throw new UsageError(`--solver must be one of ${[...ROADEF_SOLVERS.keys()].join(', ')}.`); })();
  const say = (message: string, elapsedMs: number) => process.stderr.write(`[roadef ${(elapsedMs / 1000).toFixed(1)}s] ${message}\n`);
  say(`${instance.name}: ${instance.aircraft.size} aircraft, ${instance.legs.length} legs, ${instance.itineraries.length} itineraries; solver ${solverName}, limit ${seconds} s`, 0);
  const bounds = roadefInstanceBounds(instance);
  say(`lower bounds: ${formatAmount(bounds.bounds.official)} of every plan (official), ${formatAmount(bounds.bounds.keepsFlights)} of every plan that cancels none of the legs the disruptions leave flyable (keeps-flights; ${bounds.bounds.mayCancel.size} legs may go); ${Math.round(bounds.cpuMs)} ms CPU`, 0);
  const glpk = createSolverPool();
  let run: Awaited<ReturnType<typeof runSolver>>;
  try {
    await glpk.ready();
    run = await runSolver(solver, instance, {
      timeLimitMs: seconds * 1000,
      glpk,
      onIncumbent: (incumbent) => {
        const verdict = judge(instance, incumbent.solution);
        say(`incumbent ${formatAmount(verdict.totals.weightedTotal)} (${verdict.feasible ? 'feasible' : 'infeasible'}), ${boundText(bounds, incumbent.solution, verdict.totals.weightedTotal, incumbent.bound)}`, incumbent.elapsedMs);
      },
    });
  } finally {
    await glpk.close();
  }
  if (!run.solution) {
    say('the solver found no solution within the limit; nothing written', run.elapsedMs);
    return EXIT.infeasible;
  }
  writeSolution(out, run.solution);
  const verdict = judge(instance, run.solution);
  say(`wrote ${out}${run.overran ? ' (the solver overran the limit: its last incumbent)' : ''}: feasible ${verdict.feasible ? 'yes' : 'no'}, cost ${formatAmount(verdict.totals.weightedTotal)}, ${boundText(bounds, run.solution, verdict.totals.weightedTotal, run.incumbents.at(-1)?.bound ?? null)}`, run.elapsedMs);
  return EXIT.ok;
}

function importSchedule(values: Record<string, string | boolean | undefined>): number {
  const instance = readInstance(required(values, 'instance'));
  const name = required(values, 'name');
  const airline = typeof values.airline === 'string' ? values.airline : DEFAULT_IMPORT_AIRLINE;
  const dir = typeof values['schedules-dir'] === 'string' ? values['schedules-dir'] : BUNDLED_SCHEDULES_DIR;
  const file = roadefToScheduleFile(instance, { name, airline });
  const path = join(dir, `${name}.json`);
  if (existsSync(path) && values.force !== true) throw new UsageError(`${path} exists; pass --force to replace it.`);
  // The checks the service makes when it loads the file: what is written will be served.
  const parsed = ScheduleFileSchema.safeParse(file);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`The imported schedule would be invalid at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  buildSchedule(parsed.data);
  writeFileSync(path, serializeImportedSchedule(parsed.data));
  process.stderr.write(`wrote ${path}: ${file.aircraft.length} aircraft, ${file.flights.length} flights, ${file.itineraries.length} itineraries, ${file.disruptions?.length ?? 0} disruptions; airline ${airline}, every airport at UTC\n`);
  return EXIT.ok;
}

export async function main(argv: string[]): Promise<number> {
  try {
    const line = parseCommandLine({
      command: COMMAND,
      usage: `${USAGE}

score: our scorer's verdict (exit 0 feasible, 1 infeasible, 2 unreadable input); the last line is
  \`feasible: yes|no, cost: <total>\`. --json also writes the report as JSON.
solve: writes the best solution found within --time-limit-s to --out (progress on stderr).
import: writes <schedules-dir>/<name>.json, a schedule the service serves like the bundled ones.
  --help                  this text`,
      args: argv,
      allowPositionals: true,
      options: {
        instance: { type: 'string' }, solution: { type: 'string' }, json: { type: 'string' },
        out: { type: 'string' }, 'time-limit-s': { type: 'string' }, solver: { type: 'string' },
        name: { type: 'string' }, airline: { type: 'string' }, 'schedules-dir': { type: 'string' }, force: { type: 'boolean' },
      },
    });
    if (!line.ok) {
      process.stdout.write(line.stdout);
      process.stderr.write(line.stderr);
      return line.exitCode;
    }
    const { values, positionals } = line;
    switch (positionals[0]) {
      case 'score': return score(values);
      case 'solve': return await solve(values);
      case 'import': return importSchedule(values);
      default: throw new UsageError(usageLine(COMMAND, positionals[0] === undefined ? 'give a command: score, solve or import' : `unknown command '${positionals[0]}': give score, solve or import`).trimEnd());
    }
  } catch (error) {
    if (error instanceof RoadefFormatError || error instanceof UsageError || error instanceof ScheduleError || error instanceof ImportError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.unreadable;
    }
    throw error;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
