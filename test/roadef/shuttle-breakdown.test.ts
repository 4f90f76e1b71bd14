// A ground shuttle out of service (alt_aircraft.csv lists a TranspCom): the synthetic generator's tiny
// instance (seed 1) takes TranspCom#1 out of service on day 2, 08:00-20:00. The shuttle's legs cannot
// then run as planned (spec 4.3, R19a-c lifted for it): every solver gives the legs it cannot fly to
// another aircraft, delays or cancels them, as for any aircraft, and never flies it during the
// breakdown. Judged by our scorer, which shares no code with the engine.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticInstance } from '../../benchmarks/lib/roadef-synthetic.ts';
import { SHUTTLE_FAMILY, type RoadefInstance } from '../../src/formats/roadef-2009/instance.ts';
import { readInstance } from '../../src/formats/roadef-2009/read-instance.ts';
import { formatSolution, parseSolution, type RoadefSolution } from '../../src/formats/roadef-2009/solution.ts';
import { scoreSolution } from '../../src/formats/roadef-2009/score/score.ts';
import { ROADEF_SOLVERS, roadefReferencePlan, runSolver } from '../../src/recovery/roadef-adapter.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';

let pool: SolverPool;
beforeAll(async () => {
  pool = createSolverPool({ threads: 1 });
  await pool.ready();
});
afterAll(async () => { await pool.close(); });

const judge = (inst: RoadefInstance, solution: RoadefSolution) => scoreSolution(inst, parseSolution(formatSolution(solution)));

describe('a ground shuttle out of service (synthetic, 16 aircraft, seed 1)', () => {
  const dir = writeSyntheticInstance(join(mkdtempSync(join(tmpdir(), 'shuttle-breakdown-')), 'SYN-TINY'), { aircraft: 16, flightNumbers: 70, days: 2, itineraries: 300, seed: 1 });
  const inst = readInstance(dir);
  const broken = inst.aircraftUnavailability.find((u) => inst.aircraft.get(u.aircraft)!.family === SHUTTLE_FAMILY)!;
  const legsInBreakdown = inst.legs.filter((l) => l.aircraft === broken.aircraft && l.depMinutes < broken.endMinutes && l.arrMinutes > broken.startMinutes);

  it('the instance takes a shuttle out of service while it has planned legs', () => {
    expect(broken.aircraft).toBe('TranspCom#1');
    expect(legsInBreakdown.length).toBe(18);
  });

  it('the scorer still holds the shuttles in service to their planned times (R19b)', () => {
    const plan = roadefReferencePlan(inst);
    const healthy = plan.rotations.find((r) => r.aircraft !== broken.aircraft && inst.aircraft.get(r.aircraft ?? '')?.family === SHUTTLE_FAMILY && r.depMinutes >= inst.config.windowStartMinutes)!;
    const late = { ...plan, rotations: plan.rotations.map((r) => (r === healthy ? { ...r, depMinutes: r.depMinutes + 1, arrMinutes: r.arrMinutes + 1 } : r)) };
    expect(judge(inst, late).violations.map((v) => v.rule)).toContain('fixed.shuttle-time');
  });

  for (const name of ROADEF_SOLVERS.keys()) {
    it(`${name}: every incumbent is feasible, the shuttle idle during its breakdown`, async () => {
      const run = await runSolver(ROADEF_SOLVERS.get(name)!, inst, { timeLimitMs: 5_000, glpk: pool });
      expect(run.incumbents.length).toBeGreaterThan(0);
      for (const { solution } of run.incumbents) {
        expect(judge(inst, solution).violations).toEqual([]);
        const flownInBreakdown = solution.rotations.filter((r) => r.aircraft === broken.aircraft && r.depMinutes < broken.endMinutes && r.arrMinutes > broken.startMinutes);
        expect(flownInBreakdown).toEqual([]);
      }
    }, 60_000);
  }
});
