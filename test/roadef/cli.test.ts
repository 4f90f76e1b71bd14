// Scenario: `npm run roadef -- score|solve|import` as a user runs them (child processes): exit codes,
// the last line scripts read, the JSON report, progress on stderr, and the files written.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_DIR, calibration, calibrationDir, instanceDir } from './support.ts';

function roadef(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/roadef.ts', ...args], {
    cwd: REPO_DIR, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, lastLine: result.stdout.trimEnd().split('\n').at(-1) };
}

const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

describe('roadef score', () => {
  it('a feasible solution: exit 0, every component printed, last line `feasible: yes, cost: <total>`, --json with the expected.json figures', () => {
    const json = join(temp('roadef-cli-'), 'score.json');
    const run = roadef('score', '--instance', instanceDir('A02'), '--solution', calibrationDir('A02'), '--json', json);
    expect(run.status, run.stderr).toBe(0);
    expect(run.lastLine).toBe('feasible: yes, cost: 1105728.85');
    expect(run.stdout).toContain('violations: none');
    expect(run.stdout).toMatch(/Flight Operating Cost Decrease\s+9000\.00/);
    const expected = JSON.parse(readFileSync(join(calibrationDir('A02'), 'expected.json'), 'utf8')) as Record<string, unknown>;
    const written = JSON.parse(readFileSync(json, 'utf8')) as Record<string, unknown>;
    for (const key of ['feasible', 'violations', 'costs', 'totals', 'printed']) expect(written[key], key).toEqual(expected[key]);
  });

  it('an infeasible solution: exit 1, the rule with its count and an example, last line `feasible: no, ...`', () => {
    const dir = temp('roadef-cli-');
    const texts = calibration('A01').set('4344 07/01/06', { dep: '06:09', arr: '07:29' }).texts();
    writeFileSync(join(dir, 'sol_rotations.csv'), texts.rotations);
    writeFileSync(join(dir, 'sol_itineraries.csv'), texts.itineraries);
    const run = roadef('score', '--instance', instanceDir('A01'), '--solution', dir);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('violation fixed.disrupted-time (R15, a leg delayed by alt_flights.csv does not fly at exactly its planned times plus the delay): 1');
    expect(run.stdout).toContain('e.g. 4344 07/01/06 (sol_rotations.csv line 1): 07/01/06 06:09, must be 07/01/06 06:08');
    expect(run.lastLine).toMatch(/^feasible: no, cost: \d+\.\d\d$/);
  });

  it('unreadable input: exit 2 with a sentence naming the file (missing solution file, malformed instance, missing option)', () => {
    const empty = temp('roadef-cli-');
    const missing = roadef('score', '--instance', instanceDir('A01'), '--solution', empty);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`${join(empty, 'sol_rotations.csv')}: cannot be read (ENOENT)`);
    const broken = join(temp('roadef-cli-'), 'A01');
    cpSync(instanceDir('A01'), broken, { recursive: true });
    writeFileSync(join(broken, 'config.csv'), '07/01/06 12:00\n#');
    const malformed = roadef('score', '--instance', broken, '--solution', calibrationDir('A01'));
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain(`${join(broken, 'config.csv')}: expected 7 record lines before '#', found 1`);
    const usage = roadef('score', '--instance', instanceDir('A01'));
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--solution is required.');
  });
});

describe('roadef solve', () => {
  it('the engine (default): the reference plan first, then a cheaper incumbent; the written solution is the last and scores feasible', () => {
    const out = join(temp('roadef-cli-'), 'A03-solution');
    const run = roadef('solve', '--instance', instanceDir('A03'), '--time-limit-s', '20', '--out', out);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/\[roadef \d+\.\ds\] A03: 85 aircraft, 608 legs, 1943 itineraries; solver engine, limit 20 s/);
    expect(run.stderr).toMatch(/\] lower bounds: -?\d+\.\d\d of every plan \(official\), -?\d+\.\d\d of every plan that cancels none of the legs the disruptions leave flyable/);
    const lines = [...run.stderr.matchAll(/incumbent (\d+\.\d\d) \(feasible\), bound (-?\d+\.\d\d) \((?:keeps-flights|official)\), gap (-?\d+\.\d) %/g)];
    const incumbents = lines.map((m) => Number(m[1]));
    // Each incumbent is reported with a bound below it and its gap (cost − bound) / |cost|.
    for (const [, cost, bound, gap] of lines) {
      expect(Number(bound)).toBeLessThanOrEqual(Number(cost));
      expect(Number(gap)).toBeCloseTo((100 * (Number(cost) - Number(bound))) / Number(cost), 1);
    }
    expect(incumbents[0]).toBe(1694469.6);
    expect(incumbents.length).toBeGreaterThan(1);
    for (let i = 1; i < incumbents.length; i++) expect(incumbents[i]!).toBeLessThan(incumbents[i - 1]!);
    const last = incumbents.at(-1)!.toFixed(2);
    expect(run.stderr).toContain(`A03-solution: feasible yes, cost ${last}`);
    const score = roadef('score', '--instance', instanceDir('A03'), '--solution', out);
    expect(score.status).toBe(0);
    expect(score.lastLine).toBe(`feasible: yes, cost: ${last}`);
  }, 90_000); // a 20 s solve, then its scoring: it took 29.7 s of the default 30 s under load average 16

  it('--solver reference writes the reference plan of spec 6.1', () => {
    const out = join(temp('roadef-cli-'), 'A03-reference');
    const run = roadef('solve', '--instance', instanceDir('A03'), '--time-limit-s', '5', '--out', out, '--solver', 'reference');
    expect(run.status, run.stderr).toBe(0);
    // The reference plan cancels only legs the disruptions may force: the keeps-flights bound holds for it.
    expect(run.stderr).toMatch(/\[roadef \d+\.\ds\] incumbent 1694469\.60 \(feasible\), bound -?\d+\.\d\d \(keeps-flights\), gap \d+\.\d %/);
    expect(run.stderr).toMatch(/wrote .*A03-reference: feasible yes, cost 1694469\.60, bound -?\d+\.\d\d \(keeps-flights\), gap \d+\.\d %/);
  });

  it('refuses a time limit that is not a positive number (exit 2)', () => {
    const run = roadef('solve', '--instance', instanceDir('A01'), '--time-limit-s', 'soon', '--out', temp('roadef-cli-'));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--time-limit-s must be a positive number of seconds.');
  });
});

describe('roadef import', () => {
  it('writes <name>.json in the schedules folder and will not overwrite it without --force', () => {
    const dir = temp('roadef-cli-');
    const first = roadef('import', '--instance', instanceDir('A04'), '--name', 'a04', '--schedules-dir', dir);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain(`wrote ${join(dir, 'a04.json')}: 85 aircraft, 608 flights, 1943 itineraries, 45 disruptions; airline RX, every airport at UTC`);
    expect(existsSync(join(dir, 'a04.json'))).toBe(true);
    const again = roadef('import', '--instance', instanceDir('A04'), '--name', 'a04', '--schedules-dir', dir);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('exists; pass --force to replace it.');
    expect(roadef('import', '--instance', instanceDir('A04'), '--name', 'a04', '--schedules-dir', dir, '--force').status).toBe(0);
    const badName = roadef('import', '--instance', instanceDir('A04'), '--name', 'A 04', '--schedules-dir', dir);
    expect(badName.status).toBe(2);
    expect(badName.stderr).toContain("Schedule name 'A 04' must be lower-case letters, digits and dashes");
  });
});
