// Native GLPK: the `glpsol` program of Debian's glpk-utils, on the same models written as CPLEX LP
// text. Optional: where glpsol is not installed the comparison says so and skips the column.
// Every file glpsol reads or writes lives in a private temporary folder that is removed afterwards
// (never /dev/null as an output file: run as root, glpsol would delete it).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGlpkLog, type GlpkWork } from './glpk-log.ts';

const GLPSOL = process.env.GLPSOL ?? 'glpsol';

/** glpsol's version line, or null when it cannot be run (not installed). */
export function glpsolVersion(): string | null {
  const run = spawnSync(GLPSOL, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (run.error || run.status !== 0) return null;
  return run.stdout.split('\n')[0]?.trim() ?? 'glpsol';
}

export interface GlpsolOutcome {
  status: 'optimal' | 'infeasible' | 'feasible' | 'other';
  objective: number | null;
  work: GlpkWork;
  /** Wall-clock time of the whole process (start, read the LP file, solve, write, exit), milliseconds. */
  wallMs: number;
}

let folder: string | null = null;
function workFolder(): string {
  if (!folder) {
    folder = mkdtempSync(join(tmpdir(), 'bench-glpsol-'));
    process.once('exit', removeGlpsolFiles);
  }
  return folder;
}

/** Remove the temporary folder (also done at process exit). */
export function removeGlpsolFiles(): void {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = null;
}

/** Write the model for glpsol (into the private folder); returns its path. */
export function writeGlpsolModel(lpText: string): string {
  const path = join(workFolder(), 'model.lp');
  writeFileSync(path, lpText);
  return path;
}

function run(args: string[], timeoutMs: number): number {
  const started = performance.now();
  const result = spawnSync(GLPSOL, args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 2 ** 20 });
  const wallMs = performance.now() - started;
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`glpsol exited with status ${result.status}: ${(result.stdout + result.stderr).split('\n').slice(-5).join(' ')}`);
  return wallMs;
}

/**
 * Solve the model at `lpPath` with glpsol (MIP presolver on, its default, as glpk.js is called).
 * Throws when glpsol cannot be started or exits with an error.
 */
export function solveWithGlpsol(lpPath: string, options: { timeLimitMs: number; mipGap: number }): GlpsolOutcome {
  const dir = workFolder();
  const log = join(dir, 'glpsol.log');
  const solution = join(dir, 'solution.txt');
  rmSync(log, { force: true });
  rmSync(solution, { force: true });
  const wallMs = run(['--lp', lpPath, '--log', log, '-w', solution, '--tmlim', String(Math.max(1, Math.ceil(options.timeLimitMs / 1000))), '--mipgap', String(options.mipGap)], options.timeLimitMs + 30_000);
  // glp_write_mip: "s mip <rows> <cols> <o|f|n|u> <objective>", the objective at full precision.
  const line = /^s mip \d+ \d+ ([a-z]) (\S+)/m.exec(readFileSync(solution, 'utf8'));
  const code = line?.[1];
  const status = code === 'o' ? 'optimal' : code === 'f' ? 'feasible' : code === 'n' ? 'infeasible' : 'other';
  return {
    status,
    objective: code === 'o' || code === 'f' ? Number(line![2]) : null,
    work: parseGlpkLog(readFileSync(log, 'utf8')),
    wallMs,
  };
}

/**
 * glpsol reading and checking the model without solving it (`--check`): the process start and LP
 * parsing that a solve's wall time also contains, so that solve − check is the solver's own time.
 */
export function checkWithGlpsol(lpPath: string): number {
  return run(['--lp', lpPath, '--check', '--log', join(workFolder(), 'check.log')], 60_000);
}
