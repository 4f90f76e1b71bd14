// Scenario: `npm run bench -- --parts roadef` on a bundled instance and on another folder of the
// challenge's format (a tiny synthetic instance): the table and the JSON report.
// Its size: each instance and solver runs in a child process until its limit or until no move pays.
// A01 takes its 20 s (the slack a loaded machine needs for its first plan after the reference); the
// other folder is there for its row (no published cost, so no ratio), not for its search, so it is
// tiny and its searches end by themselves within a second (at the rule tests' size, 49 aircraft,
// they took their whole 20 s: 40 s of the file's wall and of two cores).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSyntheticInstance } from '../../benchmarks/lib/roadef-synthetic.ts';
import { roadefPartRequested } from '../../benchmarks/roadef.ts';
import { REPO_DIR, instanceDir } from './support.ts';

describe('npm run bench -- --parts roadef', () => {
  it('prints one row per instance folder given, engine-keeps-flights and engine side by side, and writes the report with each run\'s cost-versus-time curve', () => {
    const dir = mkdtempSync(join(tmpdir(), 'roadef-bench-'));
    const synthetic = writeSyntheticInstance(join(dir, 'SYN-TINY'), { aircraft: 20, flightNumbers: 80, days: 2, itineraries: 300, seed: 1 });
    const out = join(dir, 'report.json');
    // The limit only bounds a hang: four child processes each start tsx and compute their instance's
    // bounds before their solve, and beside `yes` and the engine file (load average 7-10) the part did
    // not end within 220 s, with this folder nor with the 49-aircraft one (2026-11-29).
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'benchmarks/run.ts', '--parts', 'roadef', '--instances', instanceDir('A01'), synthetic, '--time-limit-s', '20', '--out', out], {
      cwd: REPO_DIR, encoding: 'utf8', timeout: 480_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const header = run.stdout.split('\n').find((l) => l.startsWith('instance'))!;
    expect(header.split(/\s{2,}/)).toEqual([
      'instance', 'aircraft', 'flights', 'itineraries', 'disruptions', 'feasible', 'engine-keeps-flights', 'best published', 'ratio', 'engine',
      'bound keeps-flights', 'bound official', 'gap engine-keeps-flights', 'gap engine', 'bound CPU s', 'within 1% s engine-keeps-flights', 'within 1% s engine', 'peak MiB',
    ]);
    const a01 = run.stdout.split('\n').find((l) => l.startsWith('A01'))!.split(/\s+/);
    expect(a01.slice(0, 6)).toEqual(['A01', '85', '608', '1943', '63', 'yes']);
    expect(a01[7]).toBe('28,155.60');
    const keepsCost = Number(a01[6]!.replace(/,/g, ''));
    const engineCost = Number(a01[9]!.replace(/,/g, ''));
    // Both improve on the reference plan (515,253.70).
    expect(keepsCost).toBeLessThan(515_253.7);
    expect(engineCost).toBeLessThan(515_253.7);
    expect(Number(a01[8])).toBeCloseTo(keepsCost / 28_155.6, 2);
    // Both bounds are below both costs, the keeps-flights one at least the official one.
    const [keepsBound, officialBound] = [Number(a01[10]!.replace(/,/g, '')), Number(a01[11]!.replace(/,/g, ''))];
    expect(keepsBound).toBeGreaterThanOrEqual(officialBound);
    expect(keepsBound).toBeLessThanOrEqual(keepsCost);
    expect(officialBound).toBeLessThanOrEqual(engineCost);
    // The keeps-flights run's gap is to the keeps-flights bound (its plan cancels only what the disruptions may force).
    expect(a01[12]).toBe(`${((100 * (keepsCost - keepsBound)) / keepsCost).toFixed(1)}`);
    expect(run.stdout.split('\n').find((l) => l.startsWith('SYN-TINY'))!.split(/\s+/).slice(0, 9)).toEqual(['SYN-TINY', '20', '160', '300', '7', 'yes', expect.any(String), '-', '-']);
    // The gap by part: one row for A01's first solver, its plan's parts and its bound's summing to the cost and the bound.
    const parts = run.stdout.split('\n').filter((l) => l.startsWith('A01')).at(-1)!.split(/\s+/);
    expect(parts.slice(0, 3)).toEqual(['A01', 'keeps-flights', a01[6]]);
    const amount = (x: string) => Number(x.replace(/,/g, ''));
    expect(amount(parts[3]!) + amount(parts[4]!) + amount(parts[5]!)).toBeCloseTo(keepsCost, 1);
    expect(amount(parts[6]!) + amount(parts[7]!) + amount(parts[8]!)).toBeCloseTo(keepsBound, 1);
    interface Parts { flying: number; passengers: number; positions: number }
    const sum = (p: Parts) => p.flying + p.passengers + p.positions;
    interface Run { instance: string; cost: number; bound: number; bound_problem: string; curve: { cost: number; feasible: boolean }[]; peak_rss_mib: number; ratio_to_best: number | null; time_to_within_1pct_ms: number | null; time_to_within_5pct_ms: number | null; cost_parts: Parts; bounds: { keeps_flights: number; official: number; parts: { keeps_flights: Parts; official: Parts } } }
    const report = JSON.parse(readFileSync(out, 'utf8')) as { instances: { instance: string; runs: Record<string, Run> }[] };
    expect(report.instances.map((i) => i.instance)).toEqual(['A01', 'SYN-TINY']);
    expect(Object.keys(report.instances[0]!.runs)).toEqual(['engine-keeps-flights', 'engine']);
    for (const [solver, cost] of [['engine-keeps-flights', keepsCost], ['engine', engineCost]] as const) {
      const a01Run = report.instances[0]!.runs[solver]!;
      // The curve starts with the reference plan and ends with the reported cost, every point feasible.
      expect(a01Run.curve[0]).toEqual(expect.objectContaining({ cost: 515253.7, feasible: true }));
      expect(a01Run.curve.at(-1)!.cost).toBeCloseTo(cost, 2);
      expect(a01Run.curve.every((p) => p.feasible)).toBe(true);
      expect(a01Run.ratio_to_best).toBeCloseTo(a01Run.cost / 28155.6, 6);
      expect(a01Run.peak_rss_mib).toBeGreaterThan(0);
      expect(a01Run.bound).toBeLessThanOrEqual(cost);
      expect(sum(a01Run.cost_parts)).toBeCloseTo(cost, 2);
      expect(sum(a01Run.bounds.parts.keeps_flights)).toBeCloseTo(a01Run.bounds.keeps_flights, 6);
      expect(sum(a01Run.bounds.parts.official)).toBeCloseTo(a01Run.bounds.official, 6);
      if (solver === 'engine-keeps-flights') expect(a01Run.bound_problem).toBe('keeps-flights');
      // Within 1 % of the final cost comes no sooner than within 5 %.
      expect(a01Run.time_to_within_1pct_ms!).toBeGreaterThanOrEqual(a01Run.time_to_within_5pct_ms!);
    }
  }, 500_000);

  it('the part is asked for with --parts roadef and runs on its own', () => {
    expect(roadefPartRequested(['--parts', 'roadef', '--time-limit-s', '5'])).toBe(true);
    expect(roadefPartRequested(['--parts=roadef'])).toBe(true);
    expect(roadefPartRequested(['--parts', 'stages,http'])).toBe(false);
    expect(roadefPartRequested(['--quick'])).toBe(false);
    expect(() => roadefPartRequested(['--parts', 'stages,roadef'])).toThrow('--parts roadef runs on its own');
  });
  it('a folder that is no instance (instances run together by a comma, say) is refused with a sentence and exit 2, before anything is solved', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'benchmarks/run.ts', '--parts', 'roadef', '--instances', `${instanceDir('A01')},${instanceDir('A02')}`, '--time-limit-s', '1'], {
      cwd: REPO_DIR, encoding: 'utf8', timeout: 60_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/is not an instance folder of the challenge \(no config\.csv\); name several folders with spaces between them\./);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
