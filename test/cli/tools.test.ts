// Scenario: a performance engineer guesses at the command lines. Every `npm run` tool (every script of
// package.json but the service, the build and the tests) answers --help with its usage and exit 0, and
// an unknown option with one line on stderr and exit 2, never a stack trace; neither writes a file.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** Scripts that are not tools: the service and its watcher, the builds, the install hook, the tests. */
const NOT_TOOLS = new Set(['start', 'prestart', 'dev', 'build:console', 'postinstall', 'test', 'test:hardening', 'typecheck']);
const TOOLS = Object.keys(scripts).filter((name) => !NOT_TOOLS.has(name)).sort();

/** Every file of the tree but dependencies, git and build output, with its size and modification time. */
function snapshot(dir = ROOT, into = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (dir === ROOT && ['node_modules', '.git', 'dist'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) snapshot(path, into);
    else if (entry.isFile()) { const s = statSync(path); into.set(path, `${s.size}:${s.mtimeMs}`); }
  }
  return into;
}

interface Run { tool: string; args: string[]; code: number | null; stdout: string; stderr: string }

function npmRun(tool: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', tool, '--', ...args], { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ tool, args, code, stdout, stderr }));
  });
}

/** Runs them three at a time (each is a node process that loads its modules). */
async function runAll(jobs: [string, string[]][]): Promise<Run[]> {
  const results: Run[] = [];
  const queue = [...jobs];
  await Promise.all(Array.from({ length: 3 }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) results.push(await npmRun(job[0], job[1]));
  }));
  return results;
}

describe('the npm run tools', () => {
  it(`unit: ${TOOLS.length} tools: --help is the usage and exit 0, an unknown option one line and exit 2, and no file is written`, async () => {
    expect(TOOLS).toEqual(expect.arrayContaining(['bench', 'bench:check', 'bench:baseline', 'model', 'load', 'schedules', 'roadef', 'key', 'soak', 'worker', 'openapi', 'client:generate']));
    const before = snapshot();
    const runs = await runAll(TOOLS.flatMap((tool): [string, string[]][] => [[tool, ['--help']], [tool, ['--no-such-option']]]));
    const after = snapshot();
    for (const run of runs) {
      const what = `npm run ${run.tool} -- ${run.args.join(' ')}: ${run.stderr.slice(0, 400)}`;
      expect(run.stderr, what).not.toMatch(/\n\s+at |Error:|ERR_/);
      if (run.args[0] === '--help') {
        expect(run.code, what).toBe(0);
        expect(run.stdout, what).toMatch(/^Usage: npm run /i);
        expect(run.stdout, what).toContain('--help');
      } else {
        expect(run.code, what).toBe(2);
        expect(run.stdout, what).toBe('');
        expect(run.stderr.trimEnd().split('\n'), what).toHaveLength(1);
        expect(run.stderr, what).toContain("Unknown option '--no-such-option'");
        expect(run.stderr, what).toMatch(/See 'npm run [a-z:]+ -- --help'/);
      }
    }
    const changed = [...after].filter(([path, stamp]) => before.get(path) !== stamp).map(([path]) => path);
    const added = [...after.keys()].filter((path) => !before.has(path));
    expect([...changed, ...added]).toEqual([]);
  }, 300_000);
});
