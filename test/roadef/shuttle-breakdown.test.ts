// A ground shuttle out of service (alt_aircraft.csv lists a TranspCom). The spec's rules contradict each
// other then: a shuttle leg runs as planned (R19a-c) and nothing flies out of service (R21), so no plan
// is feasible by the spec. No challenge instance does it, and the synthetic generator never does (it
// once took TranspCom#1 of its tiny instance out of service, and every solver flew it through the
// breakdown). Here the case is made on purpose: every solver keeps R21 (the shuttle idle during the
// breakdown, its legs delayed, given to another aircraft or cancelled), and the scorer (which shares no
// code with the engine) finds nothing else wrong: its only findings are R19a-c on that shuttle's legs.
// The service side: A01 imported (`npm run roadef -- import`) and a shuttle out of service posted to
// POST /simulate over real HTTP; no option flies it then, by the independent checker (the service never
// pinned shuttles' legs: this part passed before the engine's change too, and keeps it so).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticInstance } from '../../benchmarks/lib/roadef-synthetic.ts';
import { SHUTTLE_FAMILY, type RoadefInstance } from '../../src/formats/roadef-2009/instance.ts';
import { loadScheduleCatalog } from '../../src/formats/schedule-json/schedule-catalog.ts';
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type { SimulationResponse } from '../../src/http/recovery-schemas.ts';
import { readInstance } from '../../src/formats/roadef-2009/read-instance.ts';
import { formatSolution, parseSolution, type RoadefSolution } from '../../src/formats/roadef-2009/solution.ts';
import { legKey } from '../../src/formats/roadef-2009/text.ts';
import { scoreSolution } from '../../src/formats/roadef-2009/score/score.ts';
import { ROADEF_SOLVERS, roadefReferencePlan, runSolver } from '../../src/recovery/roadef-adapter.ts';
import { createSolverPool, type SolverPool } from '../../solver-wasm/pool.ts';
import { checkOption } from '../oracle/checker.ts';
import { oracleConfig } from '../oracle/config.ts';
import { STAGING_KEY, startTestServer, type TestServer } from '../support/server.ts';
import { importedA01 } from './support.ts';

let pool: SolverPool;
beforeAll(async () => {
  pool = createSolverPool({ threads: 1 });
  await pool.ready();
});
afterAll(async () => { await pool.close(); });

const judge = (inst: RoadefInstance, solution: RoadefSolution) => scoreSolution(inst, parseSolution(formatSolution(solution)));

describe('a ground shuttle out of service (the synthetic tiny instance, TranspCom#1 out of service on its second day, 08:00-20:00)', () => {
  const dir = writeSyntheticInstance(join(mkdtempSync(join(tmpdir(), 'shuttle-breakdown-')), 'SYN-TINY'), { aircraft: 16, flightNumbers: 70, days: 2, itineraries: 300, seed: 1 });
  const altAircraft = join(dir, 'alt_aircraft.csv');
  // The generator takes no shuttle out of service (checked below); its first day is the window's (config.csv).
  const generated = readFileSync(altAircraft, 'utf8');
  const firstDay = readFileSync(join(dir, 'config.csv'), 'utf8').split(/\s+/).find((t) => /^\d\d\/\d\d\/\d\d$/.test(t))!;
  const [dd, mm, yy] = firstDay.split('/').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(2000 + yy, mm - 1, dd + 1));
  const day2 = [next.getUTCDate(), next.getUTCMonth() + 1, next.getUTCFullYear() % 100].map((n) => String(n).padStart(2, '0')).join('/');
  writeFileSync(altAircraft, `TranspCom#1 ${day2} 08:00 ${day2} 20:00\n#\n`);
  const inst = readInstance(dir);
  const broken = inst.aircraftUnavailability.find((u) => inst.aircraft.get(u.aircraft)!.family === SHUTTLE_FAMILY)!;
  const legsInBreakdown = inst.legs.filter((l) => l.aircraft === broken.aircraft && l.depMinutes < broken.endMinutes && l.arrMinutes > broken.startMinutes);
  const healthyShuttleLegs = inst.legs.filter((l) => l.aircraft !== broken.aircraft && inst.aircraft.get(l.aircraft)!.family === SHUTTLE_FAMILY);

  it('the generator took no aircraft of this size out of service; the case adds the shuttle, which has planned legs then', () => {
    expect(generated).toBe('#\n');
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
    it(`${name}: every incumbent leaves the shuttle idle during its breakdown, and breaks no rule but R19a-c on its legs`, async () => {
      const run = await runSolver(ROADEF_SOLVERS.get(name)!, inst, { timeLimitMs: 5_000, glpk: pool });
      expect(run.incumbents.length).toBeGreaterThan(0);
      for (const { solution } of run.incumbents) {
        const flownInBreakdown = solution.rotations.filter((r) => r.aircraft === broken.aircraft && r.depMinutes < broken.endMinutes && r.arrMinutes > broken.startMinutes);
        expect(flownInBreakdown).toEqual([]);
        // The shuttles in service run exactly as planned (R19a-c hold for them) ...
        const flown = new Map(solution.rotations.map((r) => [legKey(r.flight, r.day), r]));
        for (const leg of healthyShuttleLegs) {
          const r = flown.get(leg.key);
          expect([r?.aircraft, r?.depMinutes, r?.arrMinutes], leg.key).toEqual([leg.aircraft, leg.depMinutes, leg.arrMinutes]);
        }
        // ... so every finding is R19a-c, on the broken shuttle's legs: nothing else is wrong.
        const rules = new Set(judge(inst, solution).violations.map((v) => v.rule));
        for (const rule of rules) expect(['fixed.shuttle-cancelled', 'fixed.shuttle-time', 'fixed.shuttle-aircraft']).toContain(rule);
      }
    }, 60_000);
  }
});

describe('POST /simulate: a ground shuttle of an imported schedule out of service (A01)', () => {
  let dir: string;
  let file: ScheduleFile;
  let server: TestServer;
  beforeAll(async () => {
    ({ dir, file } = await importedA01());
    server = await startTestServer({ solver: pool, schedules: loadScheduleCatalog(dir, 'a01') });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scenario: TranspCom#1 out of service 14:00-18:00 (six of its legs); 200, and every option passes the checker, none flying it then', async () => {
    const tail = file.aircraft.find((a) => a.fleet === SHUTTLE_FAMILY)!.tail;
    expect(file.flights.filter((f) => f.tail === tail && f.dep >= '2006-01-07T14:00' && f.dep < '2006-01-07T18:00').length).toBe(6);
    const disruptions = [{ type: 'aircraft_unavailable' as const, tail, from: '2006-01-07T14:00:00Z', to: '2006-01-07T18:00:00Z' }];
    const response = await fetch(`${server.baseUrl}/simulate`, {
      method: 'POST', headers: { 'X-API-Key': STAGING_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ scenario_id: 'shuttle-breakdown', schedule_file: 'a01', airline: 'RX', disruptions }),
    });
    const result = await response.json() as SimulationResponse;
    expect(response.status, JSON.stringify(result)).toBe(200);
    expect(result.options.length).toBeGreaterThan(0);
    // The checker's turnaround rule, read from the file: each fleet's shortest ground time (as test/http/simulate-imported.test.ts).
    const byFleet: Record<string, number> = {};
    for (const a of file.aircraft) byFleet[a.fleet] = Math.min(byFleet[a.fleet] ?? Infinity, a.min_turnaround_minutes!, a.min_transit_minutes!);
    const config = oracleConfig({ turnaround: { default_minutes: 35, by_fleet: byFleet, by_airport: {}, by_airport_fleet: {} } });
    for (const option of result.options) {
      expect(checkOption({ schedule: file, disruptions, airline: 'RX', config, option }), option.strategy).toEqual([]);
    }
  }, 120_000);
});
