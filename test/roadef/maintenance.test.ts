// B-like cases (B01 had three aircraft away from their maintenance airport when the check started):
// aircraft whose planned rotations end away from a check the instance gives them, on A01 and on a
// synthetic network of the size where the passenger model is restricted (over 5,000 bookings, like
// set B). Every plan the network engine reports is feasible by our scorer (which shares no code with
// it): the aircraft are flown to the check (a repositioning flight) or their legs cancelled, never
// left elsewhere.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticInstance } from '../../benchmarks/lib/roadef-synthetic.ts';
import { readInstance } from '../../src/formats/roadef-2009/read-instance.ts';
import type { Maintenance, RoadefInstance } from '../../src/formats/roadef-2009/instance.ts';
import { formatSolution, parseSolution, type RoadefSolution } from '../../src/formats/roadef-2009/solution.ts';
import { scoreSolution } from '../../src/formats/roadef-2009/score/score.ts';
import { parseDate } from '../../src/formats/roadef-2009/text.ts';
import { ROADEF_SOLVERS, roadefReferencePlan, runSolver } from '../../src/recovery/roadef-adapter.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { instance } from './support.ts';

let pool: SolverPool;
beforeAll(async () => {
  pool = createSolverPool({ threads: 1 });
  await pool.ready();
});
afterAll(async () => { await pool.close(); });

const at = (date: string, clock: string) => parseDate(date)! * 1440 + Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3));

/** A01 with checks the planned rotations would miss (hand-picked from rotations.csv; the window is 07/01/06 12:00 to 08/01/06 04:00). */
function withChecksToMiss(): RoadefInstance {
  const base = instance('A01');
  const checks: Record<string, Maintenance> = {
    // Flies AJA-ORY, last landing at ORY about 21:00: the check is at CDG.
    'A319#4': { airport: 'CDG', startMinutes: at('07/01/06', '23:00'), endMinutes: at('08/01/06', '03:00'), maxFlyingMinutes: 900 },
    // Ends the day at CFE after BES-ORY and ORY-CFE: the check is at ORY.
    'A318#1': { airport: 'ORY', startMinutes: at('07/01/06', '21:00'), endMinutes: at('07/01/06', '23:30'), maxFlyingMinutes: 900 },
    // Its last leg (ORY-RDZ) lands at 08:30, before the window: no leg is left to bring it to its check at ORY.
    'BAE200#1': { airport: 'ORY', startMinutes: at('07/01/06', '18:00'), endMinutes: at('07/01/06', '23:00'), maxFlyingMinutes: 900 },
    // A check the planned legs reach too late: TLS-ORY-TLS all afternoon, the check at ORY at 15:30.
    'A320#10': { airport: 'ORY', startMinutes: at('07/01/06', '15:30'), endMinutes: at('07/01/06', '18:00'), maxFlyingMinutes: 900 },
  };
  const aircraft = new Map([...base.aircraft].map(([id, a]) => [id, checks[id] ? { ...a, maintenance: checks[id]! } : a]));
  return { ...base, name: 'A01-checks', aircraft };
}

const judge = (inst: RoadefInstance, solution: RoadefSolution) => scoreSolution(inst, parseSolution(formatSolution(solution)));

/** The instance's legs flown by their planned aircraft at their planned times, no passengers. */
function asPlanned(inst: RoadefInstance): RoadefSolution {
  return {
    rotations: inst.legs.map((l) => {
      const f = inst.flights.get(l.flight)!;
      return { flight: l.flight, origin: f.origin, dest: f.dest, depMinutes: l.depMinutes, arrMinutes: l.arrMinutes, previous: f.previous, day: l.day, aircraft: l.aircraft };
    }),
    itineraries: [],
  };
}

/** The network engine keeping its flights: at least one incumbent, each feasible by our scorer and cheaper than the last. */
async function expectFeasibleIncumbentsEachCheaper(inst: RoadefInstance, timeLimitMs: number): Promise<void> {
  const run = await runSolver(ROADEF_SOLVERS.get('engine-keeps-flights')!, inst, { timeLimitMs, glpk: pool });
  expect(run.incumbents.length).toBeGreaterThan(0);
  const costs = run.incumbents.map((incumbent) => {
    const report = judge(inst, incumbent.solution);
    expect(report.violations).toEqual([]);
    return report.totals.weightedTotal;
  });
  for (let i = 1; i < costs.length; i++) expect(costs[i]!).toBeLessThan(costs[i - 1]!);
}

describe('checks the planned rotations would miss (B-like, on A01)', () => {
  const inst = withChecksToMiss();

  it('the planned rotations do miss them: the scorer rejects the plan flown as planned', () => {
    expect(judge(inst, asPlanned(inst)).violations.map((v) => v.rule)).toContain('rotation.maint-position');
  });

  it('the reference plan (the engine\'s first incumbent) is feasible: each aircraft reaches its check', () => {
    const report = judge(inst, roadefReferencePlan(inst));
    expect(report.violations).toEqual([]);
  });

  it('the network engine (keeping its flights) at a short limit: every incumbent feasible, each cheaper than the last', async () => {
    await expectFeasibleIncumbentsEachCheaper(inst, 8_000);
  }, 60_000);
});

/**
 * A synthetic network of 120 aircraft and 6,000 bookings over two days whose night checks (about one
 * aircraft in twelve, at its hub after day 1) are moved to the far end of the aircraft's first leg: its
 * out-and-back rotation brings it home to the hub, away from the check.
 */
function syntheticWithChecksAway(): { inst: RoadefInstance; moved: string[] } {
  const base = readInstance(writeSyntheticInstance(join(mkdtempSync(join(tmpdir(), 'roadef-checks-')), 'SYN-B'), { aircraft: 120, flightNumbers: 400, days: 2, itineraries: 6_000, seed: 7 }));
  const moved: string[] = [];
  const aircraft = new Map([...base.aircraft].map(([id, a]) => {
    const first = base.legs.find((l) => l.aircraft === id);
    const away = first && base.flights.get(first.flight)!.dest;
    if (!a.maintenance || !away || away === a.maintenance.airport) return [id, a];
    moved.push(id);
    return [id, { ...a, maintenance: { ...a.maintenance, airport: away } }];
  }));
  return { inst: { ...base, name: 'SYN-B-checks', aircraft }, moved };
}

describe('checks the planned rotations would miss on a B-like synthetic network (6,000 bookings)', () => {
  const { inst, moved } = syntheticWithChecksAway();

  it('several checks are moved, and the plan flown as planned misses them', () => {
    expect(moved.length).toBeGreaterThanOrEqual(3);
    expect(judge(inst, asPlanned(inst)).violations.map((v) => v.rule)).toContain('rotation.maint-position');
  });

  it('the network engine (keeping its flights) at a short limit: every incumbent feasible, each cheaper than the last', async () => {
    await expectFeasibleIncumbentsEachCheaper(inst, 15_000);
  }, 90_000);
});
