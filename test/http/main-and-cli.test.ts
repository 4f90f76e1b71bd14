// Scenario: the real entry points as an operator runs them (child processes): the service starts,
// prints its address and a one-time development key, serves, and exits 0 on SIGTERM; bad start-up
// configuration exits 1 with a sentence; the key-minting command prints a key and its hash line.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runMintKey } from '../../src/cli/mint-key.ts';
import { createKeyVerifier, parseKeyLine } from '../../src/security/api-keys.ts';
import { FIXTURE_SCHEDULES_DIR } from '../support/server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const baseEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

function runTsx(script: string, args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: { ...baseEnv, ...env }, encoding: 'utf8', timeout: 90_000 });
}

// Each test starts the service in a process of its own (tsx, the solver pool, the day store): seconds on a
// quiet host, tens of them on a loaded one.
describe('src/main.ts', { timeout: 150_000 }, () => {
  it('development without keys: prints address and a generated key once, serves with it, exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT, env: { ...baseEnv, PORT: '0', SCHEDULES_DIR: FIXTURE_SCHEDULES_DIR }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Starting takes 2-10 s (the solver pool warmed, the day store opened), more on a loaded host.
      await expect.poll(() => stdout, { timeout: 90_000, interval: 100 }).toMatch(/Try: curl .*\n/);
      const url = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)![1]!;
      const key = /X-API-Key: (drs_dev_[A-Za-z0-9_-]+)/.exec(stdout)![1]!;
      expect((await fetch(`${url}/flights`, { headers: { 'X-API-Key': key } })).status).toBe(200);
      expect((await fetch(`${url}/flights`, { headers: { 'X-API-Key': 'wrong' } })).status).toBe(403);
      // The key is in the human-readable block, never in a JSON log line.
      const logLines = stdout.split('\n').filter((line) => line.startsWith('{'));
      expect(logLines.length).toBeGreaterThan(0);
      expect(logLines.some((line) => line.includes(key))).toBe(false);
      expect(stdout.match(/generated one for this run/g)).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, stderr).toBe(0);
  });

  it('production without keys exits 1 with a sentence on stderr', () => {
    const result = runTsx('src/main.ts', [], { APP_ENV: 'production', PORT: '0' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Cannot start: APP_ENV is production but no API key is configured: set API_KEYS or API_KEYS_FILE');
  });

  it('a corrupt schedule file exits 1 naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'drs-main-'));
    writeFileSync(join(dir, 'default.json'), readFileSync(join(FIXTURE_SCHEDULES_DIR, 'default.json')));
    writeFileSync(join(dir, 'broken.json'), '{ not json');
    const result = runTsx('src/main.ts', [], { PORT: '0', SCHEDULES_DIR: dir, API_KEYS: 'k' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`Cannot start: Schedule file ${join(dir, 'broken.json')} cannot be read as JSON`);
  });
});

describe('npm run key', () => {
  it('mints a key for the environment and the sha256 line that accepts it', () => {
    const result = runTsx('src/cli/mint-key.ts', ['staging'], {});
    expect(result.status).toBe(0);
    const key = /^ {2}(drs_staging_[A-Za-z0-9_-]{43})$/m.exec(result.stdout)?.[1];
    const line = /^ {2}(sha256:[0-9a-f]{64})$/m.exec(result.stdout)?.[1];
    expect(key).toBeDefined();
    expect(line).toBeDefined();
    expect(createKeyVerifier([parseKeyLine(line!)!])(key!)).toBe(true);
  });

  it('an unknown environment exits non-zero with a sentence', () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
    expect(runMintKey(['prod'], io)).toBe(2);
    expect(err.join('')).toBe("Usage: npm run key -- <environment>, where <environment> is one of development, staging, production (got 'prod').\n");
    expect(runMintKey([], io)).toBe(2);
    expect(out).toEqual([]);
    expect(runMintKey(['production'], io)).toBe(0);
    expect(out.join('')).toMatch(/drs_production_/);
  });
});
