// The description of the machine and software a report was measured on.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, platform, release, arch, totalmem } from 'node:os';
import { join } from 'node:path';
import { REPO_DIR } from './scenarios.ts';

const PACKAGES = ['glpk.js', 'highs', 'autocannon', 'express', 'piscina', 'tsx', 'zod', 'typescript'];

function packageVersion(name: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(REPO_DIR, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
}

function git(...args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: REPO_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

export interface MachineDescription {
  cpu_model: string;
  cpu_count: number;
  available_parallelism: number;
  memory_gib: number;
  os: string;
  node: string;
  v8: string;
  packages: Record<string, string | null>;
  glpk: string;
  glpsol: string | null;
  highs: string | null;
  git_commit: string | null;
  git_dirty: boolean | null;
  load_average_at_start: number[];
}

export function describeMachine(extra: { glpk: string; glpsol: string | null; highs: string | null }): MachineDescription {
  const status = git('status', '--porcelain', '--untracked-files=no');
  return {
    cpu_model: cpus()[0]?.model.trim() ?? 'unknown',
    cpu_count: cpus().length,
    available_parallelism: availableParallelism(),
    memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${platform()} ${release()} ${arch()}`,
    node: process.version,
    v8: process.versions.v8,
    packages: Object.fromEntries(PACKAGES.map((p) => [p, packageVersion(p)])),
    glpk: extra.glpk,
    glpsol: extra.glpsol,
    highs: extra.highs,
    git_commit: git('rev-parse', 'HEAD'),
    git_dirty: status === null ? null : status.length > 0,
    load_average_at_start: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export function machineLine(m: MachineDescription): string {
  return `${m.cpu_model}, ${m.cpu_count} cores, ${m.memory_gib} GiB, ${m.os}, Node ${m.node}, glpk.js ${m.packages['glpk.js']} (GLPK ${m.glpk}), `
    + `${m.glpsol ?? 'glpsol absent'}, HiGHS ${m.highs ?? 'absent'}, commit ${m.git_commit?.slice(0, 10) ?? '?'}${m.git_dirty ? ' (dirty)' : ''}, load ${m.load_average_at_start.join(' ')}`;
}
