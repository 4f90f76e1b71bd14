// Another commit of this repository, checked out into a temporary git worktree with its
// dependencies, for the benchmarks that compare this tree with it (the timing gate, `npm run bench
// -- --against`). Its node_modules is a link to this tree's when the lockfiles are the same, else
// `npm ci` installs its own (when allowed).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { progress } from './progress.ts';
import { REPO_DIR } from './scenarios.ts';

export function git(args: string[], cwd = REPO_DIR): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export interface CheckedOutTree {
  /** The worktree's root. */
  root: string;
  sha: string;
  /** `<ref> (<sha, 10 digits>)`, for tables. */
  label: string;
  /** A temporary folder beside the worktree, removed with it. */
  temp: string;
  /** Removes the worktree (and the node_modules link first, by itself). */
  remove(): void;
}

/**
 * Checks `ref` out. Null, with the reason on stderr, when it is no commit or its dependencies differ
 * and `npmCi` is false. The worktree is removed on SIGINT/SIGTERM too.
 */
export function checkOutTree(ref: string, options: { npmCi: boolean; prefix: string }): CheckedOutTree | null {
  let sha: string;
  try {
    sha = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  } catch {
    process.stderr.write(`--against: '${ref}' is not a commit of this repository.\n`);
    return null;
  }
  const label = `${ref} (${sha.slice(0, 10)})`;
  const temp = mkdtempSync(join(tmpdir(), options.prefix));
  const root = join(temp, 'baseline');
  let added = false;
  const remove = () => {
    // The node_modules link first, by itself: nothing below may ever walk into the real folder.
    try { if (lstatSync(join(root, 'node_modules')).isSymbolicLink()) unlinkSync(join(root, 'node_modules')); } catch { /* not there */ }
    if (added) {
      try { git(['worktree', 'remove', '--force', root]); } catch { /* removed below */ }
      added = false;
    }
    rmSync(temp, { recursive: true, force: true });
    try { git(['worktree', 'prune']); } catch { /* nothing to prune */ }
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  const onSignal = () => { remove(); process.exit(130); };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    progress(`checking out ${label} into a temporary worktree`);
    git(['worktree', 'add', '--detach', root, sha]);
    added = true;
    const sameLock = existsSync(join(root, 'package-lock.json'))
      && readFileSync(join(root, 'package-lock.json'), 'utf8') === readFileSync(join(REPO_DIR, 'package-lock.json'), 'utf8');
    if (sameLock) {
      symlinkSync(join(REPO_DIR, 'node_modules'), join(root, 'node_modules'), 'dir');
    } else if (options.npmCi) {
      progress(`package-lock.json differs at ${label}: npm ci in the worktree`);
      const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, encoding: 'utf8' });
      if (ci.status !== 0) throw new Error(`npm ci failed in the worktree of ${label}:\n${ci.stderr.slice(-2000)}`);
    } else {
      process.stderr.write(`The dependencies differ at ${label} (package-lock.json): rerun with --npm-ci to install them in the temporary worktree.\n`);
      remove();
      return null;
    }
  } catch (error) {
    remove();
    throw error;
  }
  return { root, sha, label, temp, remove };
}
