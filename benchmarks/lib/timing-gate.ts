// The timing gate: is this tree slower than a baseline commit, measured on this machine in this
// run? Absolute times on a shared machine are noise, so the gate never compares with a stored
// time. It checks the baseline commit out into a temporary worktree, then runs the timing probe
// (benchmarks/timing-probe.ts) alternately on the baseline and on this tree (ABBA order), and
// compares, per scenario, the median over pairs of the ratio candidate/baseline.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatMs, median } from './stats.ts';
import { announce, progress } from './progress.ts';
import { REPO_DIR, SCHEDULES_DIR, type Scenario } from './scenarios.ts';
import { table } from './table.ts';
import type { ProbeResult, ProbeScenario } from '../timing-probe.ts';

/** Scenarios whose baseline median is below this are too short to gate one by one (they still count in the total). */
export const MIN_GATED_MS = 2;

export interface TimingGateOptions {
  against: string;
  pairs: number;
  thresholdPercent: number;
  scenarios: Scenario[];
  npmCi: boolean;
  quick: boolean;
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
export function timingVerdict(pairs: readonly TimingPair[], thresholdPercent: number, against: string): TimingVerdict {
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
    `${r.key}: the engine (simulate in process) takes ${formatMs(r.candidate_ms)} ms, ${formatMs(r.baseline_ms)} ms at ${against}; the median of ${pairs.length} paired ratios is ${r.ratio.toFixed(3)}, more than the allowed ${limit.toFixed(2)} (+${thresholdPercent}%).`);
  return { rows, total, failures, passed: failures.length === 0 };
}

function git(args: string[], cwd = REPO_DIR): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

function runProbe(root: string, scenariosFile: string, quick: boolean, slowdown = 0): ProbeResult {
  const args = ['--import', 'tsx', join(REPO_DIR, 'benchmarks', 'timing-probe.ts'), '--root', root, '--scenarios', scenariosFile,
    '--schedules-dir', SCHEDULES_DIR, '--budget-ms', quick ? '150' : '400', '--min-reps', quick ? '3' : '5', '--slowdown', String(slowdown)];
  const run = spawnSync(process.execPath, args, { cwd: REPO_DIR, encoding: 'utf8', maxBuffer: 16 * 2 ** 20 });
  if (run.status !== 0) throw new Error(`the timing probe failed on ${root}:\n${(run.stderr || run.stdout).split('\n').slice(-15).join('\n')}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as ProbeResult;
}

export async function runTimingGate(options: TimingGateOptions): Promise<boolean> {
  let sha: string;
  try {
    sha = git(['rev-parse', '--verify', `${options.against}^{commit}`]);
  } catch {
    process.stderr.write(`--against: '${options.against}' is not a commit of this repository.\n`);
    return false;
  }
  const short = `${options.against} (${sha.slice(0, 10)})`;
  const temp = mkdtempSync(join(tmpdir(), 'bench-timing-'));
  const tree = join(temp, 'baseline');
  let added = false;
  const cleanup = () => {
    // The node_modules link first, by itself: nothing below may ever walk into the real folder.
    try { if (lstatSync(join(tree, 'node_modules')).isSymbolicLink()) unlinkSync(join(tree, 'node_modules')); } catch { /* not there */ }
    if (added) {
      try { git(['worktree', 'remove', '--force', tree]); } catch { /* removed below */ }
      added = false;
    }
    rmSync(temp, { recursive: true, force: true });
    try { git(['worktree', 'prune']); } catch { /* nothing to prune */ }
  };
  const onSignal = () => { cleanup(); process.exit(130); };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    progress(`checking out ${short} into a temporary worktree`);
    git(['worktree', 'add', '--detach', tree, sha]);
    added = true;
    const sameLock = existsSync(join(tree, 'package-lock.json'))
      && readFileSync(join(tree, 'package-lock.json'), 'utf8') === readFileSync(join(REPO_DIR, 'package-lock.json'), 'utf8');
    if (sameLock) {
      symlinkSync(join(REPO_DIR, 'node_modules'), join(tree, 'node_modules'), 'dir');
    } else if (options.npmCi) {
      progress(`package-lock.json differs at ${short}: npm ci in the worktree`);
      const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: tree, encoding: 'utf8' });
      if (ci.status !== 0) throw new Error(`npm ci failed in the baseline worktree:\n${ci.stderr.slice(-2000)}`);
    } else {
      process.stderr.write(`The dependencies differ at ${short} (package-lock.json): rerun with --npm-ci to install them in the temporary worktree.\n`);
      return false;
    }

    const probeScenarios: ProbeScenario[] = options.scenarios.map((s) => ({
      key: s.key, schedule: s.schedule, disrupted_flight: s.disrupted_flight, min_delay_minutes: s.min_delay_minutes, airline: s.airline,
      ...(s.config ? { config: s.config } : {}),
    }));
    const scenariosFile = join(temp, 'scenarios.json');
    writeFileSync(scenariosFile, JSON.stringify(probeScenarios));

    const pairs: TimingPair[] = [];
    for (let i = 0; i < options.pairs; i++) {
      // ABBA: the baseline goes first in even pairs, second in odd ones, so drift cancels out.
      const order: ('baseline' | 'candidate')[] = i % 2 === 0 ? ['baseline', 'candidate'] : ['candidate', 'baseline'];
      const pair: Partial<TimingPair> = {};
      for (const side of order) {
        progress(`timing pair ${i + 1}/${options.pairs}: ${side === 'baseline' ? short : 'this tree'} (${options.scenarios.length} scenarios)`);
        const result = side === 'baseline'
          ? runProbe(tree, scenariosFile, options.quick)
          : runProbe(REPO_DIR, scenariosFile, options.quick, options.plantedSlowdown ?? 0);
        pair[side] = Object.fromEntries(Object.entries(result.scenarios).map(([k, v]) => [k, v.median_ms]));
      }
      pairs.push(pair as TimingPair);
    }
    announce(`timing: ${options.pairs} pairs measured`);

    const verdict = timingVerdict(pairs, options.thresholdPercent, short);
    const fmtRow = (r: TimingRow) => [r.key, formatMs(r.baseline_ms), formatMs(r.candidate_ms), r.ratio.toFixed(3), r.gated ? (r.slower ? 'SLOWER' : 'ok') : `not gated (< ${MIN_GATED_MS} ms)`];
    process.stdout.write(table(['scenario', `baseline ms`, 'this tree ms', 'median pair ratio', 'verdict'], [...verdict.rows.map(fmtRow), fmtRow(verdict.total)],
      `Timing gate: this tree against ${short}, ${options.pairs} alternating pairs, threshold +${options.thresholdPercent}% (engine = simulate() in process, solves on one thread; medians in ms):`));
    if (options.plantedSlowdown) process.stdout.write(`(planted regression: this tree's engine made ${options.plantedSlowdown * 100}% slower)\n`);
    if (verdict.passed) {
      process.stdout.write(`Timing gate passed: no scenario is more than ${options.thresholdPercent}% slower than at ${short}.\n`);
      return true;
    }
    process.stdout.write(`Timing gate FAILED:\n${verdict.failures.map((f) => `  ${f}`).join('\n')}\n`);
    return false;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    cleanup();
  }
}
