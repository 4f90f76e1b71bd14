// The regression gate.
//
//   npm run bench:check                     counter gate on the fast scenarios (what CI runs)
//   npm run bench:check -- --all            counter gate on every scenario
//   npm run bench:check -- --only small     only the scenarios of some schedules or keys (comma-separated: small,default/hub-storm)
//   npm run bench:check -- --plant extra-row-per-flight
//                                           plant a regression in every model: the gate must fail
//   npm run bench:check -- --timing [--against <rev>] [--pairs 6] [--threshold 10] [--clock cpu|wall] [--quick] [--npm-ci]
//                                           timing gate: this tree against a baseline commit, same machine
//   npm run bench:check -- --timing --plant slower-engine-30pct
//                                           plant a 30% slowdown in this tree's engine: the gate must fail
//   npm run bench:baseline                  rewrite benchmarks/baseline.json (then review the diff)
//
// Exit status: 0 when the gate passes, 1 when it fails (one sentence per failure), 2 on a usage error.
import { readCommandLine, usageError } from '../src/cli/args.ts';
import { readBaseline, writeBaseline } from './lib/baseline-file.ts';
import { measureCounters } from './lib/counters.ts';
import { compareCounters } from './lib/gate.ts';
import { glpkVersion } from './lib/glpk-main-thread.ts';
import { PLANTED_REGRESSIONS } from './lib/plant.ts';
import { announce, progress } from './lib/progress.ts';
import { loadScenarios, SCHEDULE_NAMES } from './lib/scenarios.ts';
import { loadSchedulesFor } from './lib/schedules.ts';
import { PLANTED_SLOWDOWNS, runTimingGate } from './lib/timing-gate.ts';

const COMMAND = 'npm run bench:check';
const { values } = readCommandLine({
  command: COMMAND,
  usage: `Usage: npm run bench:check [-- options]   (npm run bench:baseline = --write-baseline)

The regression gate. Exit 0 when it passes, 1 when it fails (one sentence per failure), 2 on a usage error.
  --all                   counter gate on every scenario (default: the fast ones, as CI)
  --only LIST             only these schedules or scenario keys, comma-separated (small,default/hub-storm)
  --plant NAME            plant a regression in every model (counter gate) or the engine (--timing): the gate must fail
  --write-baseline        rewrite benchmarks/baseline.json (then review the diff)
  --timing                timing gate: this tree against a baseline commit on the same machine
  --against REV           baseline commit of the timing gate (default HEAD)
  --pairs N               timing pairs (default 6)
  --threshold PCT         allowed slowdown in percent (default 10)
  --clock cpu|wall        what the timing gate measures (default cpu)
  --quick                 fewer scenarios in the timing gate
  --npm-ci                npm ci in the baseline's worktree
  --help                  this text`,
  options: {
    all: { type: 'boolean', default: false },
    only: { type: 'string' },
    plant: { type: 'string' },
    'write-baseline': { type: 'boolean', default: false },
    timing: { type: 'boolean', default: false },
    against: { type: 'string', default: 'HEAD' },
    pairs: { type: 'string', default: '6' },
    threshold: { type: 'string', default: '10' },
    'npm-ci': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    clock: { type: 'string', default: 'cpu' },
  },
});

function usage(message: string): never {
  return usageError(COMMAND, message);
}

// --only takes schedule names and scenario keys (<schedule>/<id>), e.g. --only small,default/hub-storm.
const selected = values.only ? values.only.split(',').map((s) => s.trim()).filter(Boolean) : [];
const only = selected.filter((name) => !name.includes('/'));
const onlyKeys = selected.filter((name) => name.includes('/'));
for (const name of only) if (!(SCHEDULE_NAMES as readonly string[]).includes(name)) usage(`--only: unknown schedule '${name}' (known: ${SCHEDULE_NAMES.join(', ')}).`);
const transform = values.plant === undefined || values.timing ? undefined : PLANTED_REGRESSIONS[values.plant];
if (values.plant !== undefined && !values.timing && !transform) usage(`--plant: unknown regression '${values.plant}' (counter gate: ${Object.keys(PLANTED_REGRESSIONS).join(', ')}).`);
const plantedSlowdown = values.plant === undefined || !values.timing ? undefined : PLANTED_SLOWDOWNS[values.plant];
if (values.plant !== undefined && values.timing && plantedSlowdown === undefined) usage(`--plant: unknown regression '${values.plant}' (timing gate: ${Object.keys(PLANTED_SLOWDOWNS).join(', ')}).`);

const all = loadScenarios();
for (const key of onlyKeys) if (!all.some((s) => s.key === key)) usage(`--only: unknown scenario '${key}'.`);
/** The scenarios selected by --only (all without it); fastOnly keeps the fast ones, and those named by key. */
const pick = (fastOnly: boolean) => all.filter((s) => (selected.length === 0 || only.includes(s.schedule) || onlyKeys.includes(s.key))
  && (!fastOnly || s.fast || onlyKeys.includes(s.key)));

if (values.timing) {
  const pairs = Number(values.pairs);
  const threshold = Number(values.threshold);
  if (!Number.isInteger(pairs) || pairs < 1) usage('--pairs must be a whole number of at least 1.');
  if (!(threshold > 0)) usage('--threshold must be a positive percentage.');
  if (values.clock !== 'cpu' && values.clock !== 'wall') usage('--clock must be cpu or wall.');
  const scenarios = pick(!values.all);
  const passed = await runTimingGate({ against: values.against, pairs, thresholdPercent: threshold, scenarios, npmCi: values['npm-ci'], quick: values.quick, plantedSlowdown, clock: values.clock as 'cpu' | 'wall' });
  process.exit(passed ? 0 : 1);
}

const writing = values['write-baseline'];
// The baseline always covers every scenario (fast or not); the CI gate checks the fast ones.
const scenarios = pick(!writing && !values.all);
if (scenarios.length === 0) usage('No scenario matches the selection.');
const schedules = loadSchedulesFor(scenarios);
const started = performance.now();
const report = await measureCounters(schedules, scenarios, {
  transform,
  onScenario: (s, i, n) => progress(`counters ${i + 1}/${n} ${s.key}`),
});
announce(`counters: ${scenarios.length} scenarios measured in ${((performance.now() - started) / 1000).toFixed(1)} s`);

if (writing) {
  if (transform) usage('--plant cannot be combined with --write-baseline.');
  const previous = readBaseline();
  writeBaseline(report, await glpkVersion(), previous, all.map((s) => s.key));
  process.stdout.write(`Wrote benchmarks/baseline.json (${scenarios.length} scenarios measured${selected.length ? `, others kept` : ''}). Review it with git diff benchmarks/baseline.json.\n`);
  process.exit(0);
}

const baseline = readBaseline();
if (!baseline) usage('benchmarks/baseline.json does not exist: run npm run bench:baseline first.');
const complete = selected.length === 0 && scenarios.length === all.filter((s) => s.fast || values.all).length && (values.all || all.every((s) => s.fast));
const result = compareCounters(baseline, report, complete);
const glpk = await glpkVersion();
if (baseline.glpk_js !== glpk) result.notes.push(`The baseline was measured with GLPK ${baseline.glpk_js}, this run uses ${glpk}.`);
for (const note of result.notes) process.stdout.write(`note: ${note}\n`);
if (transform) process.stdout.write(`(planted regression '${values.plant}' applied to every model)\n`);
if (result.passed) {
  process.stdout.write(`Counter gate passed: ${scenarios.length} scenarios match benchmarks/baseline.json (model sizes and objectives exact, work counters within ±${baseline.tolerances.work.relative * 100}% or ±${baseline.tolerances.work.absolute}).\n`);
  process.exit(0);
}
process.stdout.write(`Counter gate FAILED (${result.failures.length} differences):\n`);
for (const failure of result.failures) process.stdout.write(`  ${failure}\n`);
process.stdout.write('If the change is intended, run npm run bench:baseline and commit the reviewed diff of benchmarks/baseline.json.\n');
process.exit(1);
