// The timing gate: is this tree slower than a baseline commit, measured on this machine in this
// run? Absolute times on a shared machine are noise, so the gate never compares with a stored
// time. It checks the baseline commit out into a temporary worktree, starts the timing probe
// (benchmarks/timing-probe.ts) once on the baseline and once on this tree, asks them in turn for
// each scenario (ABBA order), and compares, per scenario, the median over pairs of the ratio
// candidate/baseline.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { formatMs, median } from './stats.ts';
import { announce, progress } from './progress.ts';
import { REPO_DIR, SCHEDULES_DIR, simulationRequest, type Scenario } from './scenarios.ts';
import { table } from './table.ts';
import { checkOutTree } from './worktree.ts';
import type { ProbeAnswer, ProbeScenario } from '../timing-probe.ts';

/** Scenarios whose baseline median is below this are too short to gate one by one (they still count in the total). */
export const MIN_GATED_MS = 2;

export interface TimingGateOptions {
  against: string;
  pairs: number;
  thresholdPercent: number;
  scenarios: Scenario[];
  npmCi: boolean;
  quick: boolean;
  /**
   * cpu: CPU time of the probe process (user + system) per call, the default: other processes
   * competing for the cores delay a call but do not add to its CPU time. wall: elapsed time.
   */
  clock: 'cpu' | 'wall';
  /** Gate self-test: make this tree's engine slower by this fraction (0.3 = 30%). */
  plantedSlowdown?: number;
}

/** Planted timing regressions (`bench:check --timing --plant <name>`), to watch the timing gate fail. */
export const PLANTED_SLOWDOWNS: Record<string, number> = { 'slower-engine-30pct': 0.3 };

export interface TimingPair { baseline: Record<string, number>; candidate: Record<string, number> }

export interface TimingRow { key: string; baseline_ms: number; candidate_ms: number; ratio: number; gated: boolean; slower: boolean }

export interface TimingVerdict { rows: TimingRow[]; total: TimingRow; failures: string[]; passed: boolean }

/**
 * Per scenario (and for the sum over scenarios): the median over pairs of candidate/baseline. A
 * figure fails when that median exceeds 1 + threshold. Pure, so it can be tested on made-up pairs.
 */
export function timingVerdict(pairs: readonly TimingPair[], thresholdPercent: number, against: string, clock: 'cpu' | 'wall' = 'wall'): TimingVerdict {
  const limit = 1 + thresholdPercent / 100;
  const keys = Object.keys(pairs[0]?.baseline ?? {});
  const row = (key: string, base: number[], cand: number[], gated: boolean): TimingRow => {
    const ratio = median(base.map((b, i) => cand[i]! / b))!;
    return { key, baseline_ms: median(base)!, candidate_ms: median(cand)!, ratio, gated, slower: gated && ratio > limit };
  };
  const rows = keys.map((key) => {
    const base = pairs.map((p) => p.baseline[key]!);
    return row(key, base, pairs.map((p) => p.candidate[key]!), median(base)! >= MIN_GATED_MS);
  });
  const sum = (r: Record<string, number>) => keys.reduce((t, k) => t + r[k]!, 0);
  const total = row('all scenarios (sum)', pairs.map((p) => sum(p.baseline)), pairs.map((p) => sum(p.candidate)), true);
  const failures = [...rows, total].filter((r) => r.slower).map((r) =>
    `${r.key}: the engine (simulate in process) takes ${formatMs(r.candidate_ms)} ms${clock === 'cpu' ? ' of CPU' : ''}, ${formatMs(r.baseline_ms)} ms at ${against}; the median of ${pairs.length} paired ratios is ${r.ratio.toFixed(3)}, more than the allowed ${limit.toFixed(2)} (+${thresholdPercent}%).`);
  return { rows, total, failures, passed: failures.length === 0 };
}


/** One long-lived probe process on a source tree, answering one scenario at a time. */
interface Probe { ask(key: string): Promise<ProbeAnswer>; close(): void }

async function startProbe(root: string, scenariosFile: string, quick: boolean, slowdown = 0): Promise<Probe> {
  const args = ['--import', 'tsx', join(REPO_DIR, 'benchmarks', 'timing-probe.ts'), '--root', root, '--scenarios', scenariosFile,
    '--schedules-dir', SCHEDULES_DIR, '--budget-ms', quick ? '120' : '300', '--min-reps', quick ? '3' : '5', '--slowdown', String(slowdown)];
  const child = spawn(process.execPath, args, { cwd: REPO_DIR, stdio: ['pipe', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => { errors = (errors + chunk.toString('utf8')).slice(-4000); });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the timing probe on ${root} stopped:\n${errors.split('\n').slice(-15).join('\n')}`);
    return JSON.parse(value as string) as Record<string, unknown>;
  };
  await next(); // {"ready": true}: the tree's engine is loaded
  return {
    ask: async (key) => {
      child.stdin.write(`${JSON.stringify({ key })}\n`);
      return (await next()) as unknown as ProbeAnswer;
    },
    close: () => { child.stdin.end(); },
  };
}

export async function runTimingGate(options: TimingGateOptions): Promise<boolean> {
  const checkedOut = checkOutTree(options.against, { npmCi: options.npmCi, prefix: 'bench-timing-' });
  if (!checkedOut) return false;
  const { root: tree, label: short, temp } = checkedOut;
  try {
    const probeScenarios: ProbeScenario[] = options.scenarios.map((s) => ({
      key: s.key, schedule: s.schedule, disrupted_flight: s.disrupted_flight ?? null, min_delay_minutes: s.min_delay_minutes ?? null,
      disruptions: simulationRequest(s).disruptions, airline: s.airline, ...(s.config ? { config: s.config } : {}),
    }));
    const scenariosFile = join(temp, 'scenarios.json');
    writeFileSync(scenariosFile, JSON.stringify(probeScenarios));

    const pairs: TimingPair[] = Array.from({ length: options.pairs }, () => ({ baseline: {}, candidate: {} }));
    for (let i = 0; i < options.pairs; i++) {
      // Fresh probes for every pair: a long-lived process tends to stay on one core, and on a shared
      // machine the cores are not equally busy; new processes spread that over the pairs.
      progress(`timing pair ${i + 1}/${options.pairs}: starting the probes (${short} and this tree)`);
      const [baseline, candidate] = await Promise.all([
        startProbe(tree, scenariosFile, options.quick),
        startProbe(REPO_DIR, scenariosFile, options.quick, options.plantedSlowdown ?? 0),
      ]);
      const probes = { baseline, candidate };
      try {
        for (const [j, scenario] of options.scenarios.entries()) {
          // The two measurements of a pair are taken back to back, the baseline first or second in
          // turn (ABBA), so that drift in the machine's load cancels out.
          const order: ('baseline' | 'candidate')[] = (i + j) % 2 === 0 ? ['baseline', 'candidate'] : ['candidate', 'baseline'];
          progress(`timing pair ${i + 1}/${options.pairs}, ${scenario.key}`);
          for (const side of order) {
            const answer = await probes[side].ask(scenario.key);
            pairs[i]![side][scenario.key] = options.clock === 'cpu' ? answer.median_cpu_ms : answer.median_ms;
          }
        }
      } finally {
        baseline.close();
        candidate.close();
      }
    }
    announce(`timing: ${options.pairs} pairs measured`);

    const verdict = timingVerdict(pairs, options.thresholdPercent, short, options.clock);
    const fmtRow = (r: TimingRow) => [r.key, formatMs(r.baseline_ms), formatMs(r.candidate_ms), r.ratio.toFixed(3), r.gated ? (r.slower ? 'SLOWER' : 'ok') : `not gated (< ${MIN_GATED_MS} ms)`];
    process.stdout.write(table(['scenario', `baseline ms`, 'this tree ms', 'median pair ratio', 'verdict'], [...verdict.rows.map(fmtRow), fmtRow(verdict.total)],
      `Timing gate: this tree against ${short}, ${options.pairs} alternating pairs, threshold +${options.thresholdPercent}% (engine = simulate() in process, solves on one thread; medians of ${options.clock === 'cpu' ? 'CPU time' : 'wall-clock time'}, ms):`));
    if (options.plantedSlowdown) process.stdout.write(`(planted regression: this tree's engine made ${options.plantedSlowdown * 100}% slower)\n`);
    if (verdict.passed) {
      process.stdout.write(`Timing gate passed: no scenario is more than ${options.thresholdPercent}% slower than at ${short}.\n`);
      return true;
    }
    process.stdout.write(`Timing gate FAILED:\n${verdict.failures.map((f) => `  ${f}`).join('\n')}\n`);
    return false;
  } finally {
    checkedOut.remove();
  }
}
