// Scenario: `npm run bench -- --parts roadef` on a bundled instance and on another folder of the
// challenge's format (a small synthetic instance): the table and the JSON report.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSyntheticInstance } from '../../benchmarks/lib/roadef-synthetic.ts';
import { roadefPartRequested } from '../../benchmarks/roadef.ts';
import { REPO_DIR, RULE_TEST_SIZE, instanceDir } from './support.ts';

describe('npm run bench -- --parts roadef', () => {
  it('prints one row per instance folder given and writes the report with the cost-versus-time curve', () => {
    const dir = mkdtempSync(join(tmpdir(), 'roadef-bench-'));
    const synthetic = writeSyntheticInstance(join(dir, 'SYN-SMALL'), RULE_TEST_SIZE);
    const out = join(dir, 'report.json');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'benchmarks/run.ts', '--parts', 'roadef', '--instances', instanceDir('A01'), synthetic, '--time-limit-s', '15', '--out', out], {
      cwd: REPO_DIR, encoding: 'utf8', timeout: 120_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const header = run.stdout.split('\n').find((l) => l.startsWith('instance'))!;
    expect(header.split(/\s{2,}/)).toEqual(['instance', 'aircraft', 'flights', 'itineraries', 'disruptions', 'feasible', 'cost', 'best published', 'ratio', 'bound', 'gap', 'first feasible s', 'within 5% s', 'within 1% s', 'peak MiB']);
    const a01 = run.stdout.split('\n').find((l) => l.startsWith('A01'))!.split(/\s+/);
    expect(a01.slice(0, 6)).toEqual(['A01', '85', '608', '1943', '63', 'yes']);
    expect(a01[7]).toBe('28,155.60');
    const a01Cost = Number(a01[6]!.replace(/,/g, ''));
    expect(a01Cost).toBeLessThan(515_253.7); // the engine improves on the reference plan
    expect(Number(a01[8])).toBeCloseTo(a01Cost / 28_155.6, 2);
    expect(run.stdout.split('\n').find((l) => l.startsWith('SYN-SMALL'))!.split(/\s+/).slice(0, 9)).toEqual(['SYN-SMALL', '49', '504', '1500', '10', 'yes', expect.any(String), '-', '-']);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { instances: { instance: string; curve: { cost: number; feasible: boolean }[]; peak_rss_mib: number; ratio_to_best: number | null; time_to_within_1pct_ms: number | null; time_to_within_5pct_ms: number | null }[] };
    expect(report.instances.map((i) => i.instance)).toEqual(['A01', 'SYN-SMALL']);
    // The curve starts with the reference plan and ends with the reported cost, every point feasible.
    const curve = report.instances[0]!.curve;
    expect(curve[0]).toEqual(expect.objectContaining({ cost: 515253.7, feasible: true }));
    expect(curve.at(-1)!.cost).toBe(a01Cost);
    expect(curve.every((p) => p.feasible)).toBe(true);
    expect(report.instances[0]!.ratio_to_best).toBeCloseTo(a01Cost / 28155.6, 6);
    expect(report.instances[0]!.peak_rss_mib).toBeGreaterThan(0);
    // Within 1 % of the final cost comes no sooner than within 5 %.
    expect(report.instances[0]!.time_to_within_1pct_ms!).toBeGreaterThanOrEqual(report.instances[0]!.time_to_within_5pct_ms!);
  }, 150_000);

  it('the part is asked for with --parts roadef and runs on its own', () => {
    expect(roadefPartRequested(['--parts', 'roadef', '--time-limit-s', '5'])).toBe(true);
    expect(roadefPartRequested(['--parts=roadef'])).toBe(true);
    expect(roadefPartRequested(['--parts', 'stages,http'])).toBe(false);
    expect(roadefPartRequested(['--quick'])).toBe(false);
    expect(() => roadefPartRequested(['--parts', 'stages,roadef'])).toThrow('--parts roadef runs on its own');
  });
});
