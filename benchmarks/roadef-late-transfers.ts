// How much of a ROADEF plan's gap to its bound is the search's (docs/model.md 3.9, "The gap by part"):
// from a solution (`npm run roadef -- solve ... --out <dir>`), give a round trip of two or three legs
// of a dearer aircraft to a cheaper one of its family that stands at the trip's airport later, in a
// gap of its rotation there or after its last leg (a late transfer: the trip leaves at its planned
// minute or when the taker is ready after its turnaround, and lands back before the taker's next leg
// and by the window's end; the giver stays on the ground, so neither rotation breaks and nothing is
// cancelled). Each transfer is priced exactly (operating cost plus the GLPK passenger plan, as the
// engine prices a plan) and kept when our scorer finds the plan feasible and cheaper: first
// improvement, dearest saving first, until no transfer pays or `max-tries` plans are priced. The
// round-trip transfers of the engine (docs/model.md 4.4) need the taker idle at the trip's planned
// minutes; these do not. A measurement, not a move of the engine.
//
//   npx tsx benchmarks/roadef-late-transfers.ts <instance dir> <solution dir> [max-tries] [out dir]
import { readInstance } from '../src/formats/roadef-2009/read-instance.ts';
import { formatSolution, parseSolution, readSolution, writeSolution } from '../src/formats/roadef-2009/solution.ts';
import { scoreSolution } from '../src/formats/roadef-2009/score/score.ts';
import { RoadefCostModel } from '../src/recovery/model/cost-model.ts';
import { disruptionDelays } from '../src/recovery/network/bookings.ts';
import { planPassengers } from '../src/recovery/network/passenger-plan.ts';
import { operatingCost } from '../src/recovery/network/plan-cost.ts';
import type { PlanLeg } from '../src/recovery/network/problem.ts';
import { RoadefTranslation } from '../src/recovery/roadef-adapter.ts';
import { createSolverPool } from '../solver-wasm/pool.ts';

/** Longest round trip given, legs. */
const MAX_TRIP_LEGS = 3;

interface Transfer { giver: string; taker: string; trip: PlanLeg[]; moved: PlanLeg[]; saving: number; heldMinutes: number }

const [instanceDir, solutionDir, maxTriesText, outDir] = process.argv.slice(2);
if (!instanceDir || !solutionDir) {
  console.error('usage: npx tsx benchmarks/roadef-late-transfers.ts <instance dir> <solution dir> [max-tries] [out dir]');
  process.exit(2);
}
const instance = readInstance(instanceDir);
const translation = new RoadefTranslation(instance);
const problem = translation.problem;
const cost = new RoadefCostModel(instance.config);
const delays = disruptionDelays(problem);
const S = problem.window.startMinutes;
const E = problem.window.endMinutes;
const maxTries = Number(maxTriesText ?? 150);

const pool = createSolverPool({ threads: 1 });
await pool.ready();
try {
  const price = async (legs: PlanLeg[]) => {
    const passengers = (await planPassengers(problem, legs, cost, pool, { timeLimitMs: 120_000 }))!;
    return { legs, total: operatingCost(problem, legs, cost) + passengers.objective, lines: passengers.lines };
  };
  let current = await price(translation.toPlan(readSolution(solutionDir)).legs);
  const start = current.total;
  console.log(`plan ${start.toFixed(2)}`);
  const refused = new Set<string>();
  let tries = 0;
  let kept = 0;
  search: while (tries < maxTries) {
    for (const t of lateTransfers(current.legs)) {
      const key = `${t.taker} ${t.moved.map((l) => `${l.flightId}@${l.depMinutes}`).join(',')}`;
      if (refused.has(key)) continue;
      if (tries++ >= maxTries) break search;
      const moved = new Map(t.moved.map((l) => [l.flightId, l]));
      const trial = await price(current.legs.map((l) => moved.get(l.flightId) ?? l));
      const report = scoreSolution(instance, parseSolution(formatSolution(translation.toSolution({ legs: trial.legs, passengers: trial.lines }))));
      const pays = trial.total < current.total - 0.005 && report.violations.length === 0;
      console.log(`${pays ? 'kept   ' : 'refused'} ${t.giver} -> ${t.taker} ${t.trip.map((l) => `${l.origin}-${l.dest}`).join(' ')}, held ${t.heldMinutes} min: ${(trial.total - current.total).toFixed(2)} (scorer ${report.totals.weightedTotal.toFixed(2)}, ${report.violations.length} violations)`);
      if (pays) { current = trial; kept++; continue search; }
      refused.add(key);
    }
    break;
  }
  console.log(`${kept} transfers kept of ${tries} priced: ${start.toFixed(2)} -> ${current.total.toFixed(2)}`);
  if (outDir) writeSolution(outDir, translation.toSolution({ legs: current.legs, passengers: current.lines }));
} finally {
  await pool.close();
}

/** Every late transfer of `legs` to a cheaper aircraft, the dearest saving first (then the shortest hold). */
function lateTransfers(legs: readonly PlanLeg[]): Transfer[] {
  const movable = (l: PlanLeg) => !l.isNew && !delays.has(l.flightId) && l.depMinutes >= S && !problem.aircraft.get(l.tail!)!.shuttle;
  const byTail = new Map<string, PlanLeg[]>();
  for (const l of legs) if (l.tail) (byTail.get(l.tail) ?? byTail.set(l.tail, []).get(l.tail)!).push(l);
  for (const list of byTail.values()) list.sort((a, b) => a.depMinutes - b.depMinutes);
  const transfers: Transfer[] = [];
  for (const [giver, rotation] of byTail) {
    const from = problem.aircraft.get(giver)!;
    for (let i = 0; i < rotation.length; i++) {
      if (!movable(rotation[i]!)) continue;
      for (let j = i + 1; j < Math.min(rotation.length, i + MAX_TRIP_LEGS); j++) {
        if (!movable(rotation[j]!) || rotation[j]!.origin !== rotation[j - 1]!.dest) break;
        if (rotation[j]!.dest !== rotation[i]!.origin) continue;
        const trip = rotation.slice(i, j + 1);
        const airport = trip[0]!.origin;
        const hours = trip.reduce((n, l) => n + Math.ceil((l.arrMinutes - l.depMinutes) / 60), 0);
        for (const [taker, theirs] of byTail) {
          const to = problem.aircraft.get(taker)!;
          if (taker === giver || to.family !== from.family || to.shuttle || to.costPerBlockHour >= from.costPerBlockHour) continue;
          if (trip.some((l) => l.arrMinutes - l.depMinutes > to.rangeMinutes)) continue;
          // The first gap of the taker's rotation at the trip's airport that holds the trip.
          for (let k = 0; k < theirs.length; k++) {
            if (theirs[k]!.dest !== airport) continue;
            const last = k + 1 < theirs.length ? theirs[k + 1]!.depMinutes - to.turnaroundMinutes : E;
            let ready = theirs[k]!.arrMinutes + to.turnaroundMinutes;
            const moved = trip.map((l) => {
              const dep = Math.max(l.depMinutes, ready);
              const leg = { ...l, depMinutes: dep, arrMinutes: dep + l.arrMinutes - l.depMinutes, tail: taker };
              ready = leg.arrMinutes + to.turnaroundMinutes;
              return leg;
            });
            if (moved.at(-1)!.arrMinutes > Math.min(last, E)) continue;
            transfers.push({ giver, taker, trip, moved, saving: hours * (from.costPerBlockHour - to.costPerBlockHour), heldMinutes: moved[0]!.depMinutes - trip[0]!.depMinutes });
            break;
          }
        }
      }
    }
  }
  return transfers.sort((a, b) => b.saving - a.saving || a.heldMinutes - b.heldMinutes);
}
