// The network bound's relaxation (docs/model.md 3.9) solved as an LP, to tell how far the
// subgradient's bound is from the relaxation's own optimum. Dantzig-Wolfe over the same pieces: a
// column per aircraft route, per journey of a seat group, and the relaxation's cancellation, missed,
// broken and not-carried variables, over the rows the Lagrangian prices (flights, capacities,
// connections, broken itineraries, seats by airport and by flight, max_swaps, max_cancellations) and
// a convexity row per aircraft. Columns come from subgradient iterations, then from each evaluation at
// the restricted master's duals (native glpsol, CPLEX LP files in a temporary directory). Every
// evaluation is a valid bound (L); the restricted master's optimum (M) is at least the relaxation's
// LP optimum, so L ≤ LP* ≤ M tells where the truth lies.
//   npx tsx benchmarks/bound-lp.ts [issue|hub] [subgradient iterations] [rounds] [target]
//   (nice -n 10 on a shared machine)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareSimulation, type SimulationRequest } from '../src/recovery/pipeline.ts';
import { resolveSolverConfig } from '../src/recovery/model/solver-config.ts';
import { DEFLECTION, NetworkRelaxation, relaxationRouteAsRoute, STALE_ITERATIONS, TARGET_SHARE, withLeastRebooking, type RelaxationRoute } from '../src/recovery/bounds/network-bound.ts';
import type { Constraint, LinearModel, Variable } from '../src/recovery/model/linear-model.ts';
import { toCplexLp } from '../solver-wasm/lp-format.ts';
import { createSolverPool } from '../solver-wasm/pool.ts';
import { RouteEvaluator, type Route } from '../src/recovery/neighbourhood/aircraft-routes.ts';
import { buildStrategyModel } from '../src/recovery/neighbourhood/rows/strategy-model.ts';
import { ScopeWalks } from '../src/recovery/network/scope-walk.ts';
import type { Flight } from '../src/domain/schedule.ts';
import { JourneyFinder, type Journey } from '../src/recovery/passengers/journeys.ts';
import { ISSUE_23_STORM } from './storm.ts';
import { loadScenarios, simulationRequest } from './lib/scenarios.ts';
import { loadSchedulesFor } from './lib/schedules.ts';

const [which = 'issue', iterationsArg = '300', roundsArg = '40', targetArg = '1305262.5'] = process.argv.slice(2);
const SEAT_ROW_SCALE = 100;
/** Cost of an artificial unit (a row's violation) in the restricted master, so that it is feasible from the start. */
const ARTIFICIAL = 1e7;

const hubStorm = loadScenarios().find((s) => s.id === 'hub-storm' && s.schedule === 'default')!;
const schedule = loadSchedulesFor([hubStorm]).get('default')!;
let request: SimulationRequest;
if (which === 'issue') {
  const resolved = resolveSolverConfig({ solver: { time_limit_ms: 10_000 } });
  if (!resolved.valid) throw new Error('configuration');
  request = { scenarioId: 'issue-23-storm', airline: 'NV', scheduleName: 'default', config: resolved.config, disruptions: [...ISSUE_23_STORM], disruptedFlightId: null };
} else {
  request = simulationRequest(hubStorm, { ...hubStorm.solverConfig, solver: { ...hubStorm.solverConfig.solver, time_limit_ms: 10_000 } });
}
const round = (x: number) => Math.round(x).toLocaleString('en');
const prepared = prepareSimulation(schedule, request);
const relaxation = new NetworkRelaxation(withLeastRebooking({ schedule, scope: prepared.scope, groups: prepared.groups, config: request.config }));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const rel = relaxation as any;
relaxation.collectRoutes = true;

// ---- Rows, named once; each priced row of the relaxation is one master row.
type Row = { name: string; sense: '=' | '<='; rhs: number; terms: Map<string, number>; set: (dual: number) => void };
const rows: Row[] = [];
const row = (sense: '=' | '<=', rhs: number, set: (dual: number) => void): Row => { const r: Row = { name: `r${rows.length}`, sense, rhs, terms: new Map(), set }; rows.push(r); return r; };
type Priced = { rhs: number; price: number };
const rowOf = new Map<Priced, Row>();
const priced = (p: Priced, scale = 1): Row => {
  let r = rowOf.get(p);
  if (!r) { r = row('<=', p.rhs * scale, (dual) => { p.price = Math.max(0, -dual) * scale; }); rowOf.set(p, r); }
  return r;
};
const flightRows = relaxation.flights.map((_, fi) => row('=', 1, (dual) => { relaxation.price[fi] = dual; }));
const convexity = relaxation.nets.map(() => row('=', 1, () => {}));
for (const c of relaxation.capacities) priced(c);
for (const cr of relaxation.connections) for (const r of cr.rows) priced(r);
for (const b of relaxation.brokenGroups) for (const r of b.rows) priced(r);
for (const r of relaxation.seatRows) priced(r, SEAT_ROW_SCALE);
for (const r of relaxation.flightSeatRows) priced(r, SEAT_ROW_SCALE);
if (relaxation.maxCancellations) priced(relaxation.maxCancellations);
if (relaxation.maxSwaps) priced(relaxation.maxSwaps);
type Group = (typeof relaxation.seatGroups)[number];
const trigger = new Map<Group, Row>(relaxation.seatGroups.map((g) => [g, row('=', 0, () => {})]));

// ---- Columns.
const variables: Variable[] = [];
const kinds: ('whole' | 'part')[] = [];
const keys: string[] = [];
const seen = new Set<string>();
const column = (key: string, cost: number, ub: number, entries: [Row, number][]): boolean => {
  if (seen.has(key) || !Number.isFinite(cost)) return false;
  seen.add(key);
  const name = `x${variables.length}`;
  variables.push({ name, kind: 'continuous', lb: 0, ub, cost });
  keys.push(key);
  kinds.push(/^(route|cancel|missed|broken) /.test(key) ? 'whole' : 'part');
  for (const [r, coef] of entries) r.terms.set(name, (r.terms.get(name) ?? 0) + coef);
  return true;
};
const countBelow = (values: readonly number[], x: number) => values.filter((v) => v < x).length;
// Each (flight, stretch)'s connection rows.
const copyRows = relaxation.flights.map((d) => d.stretches.map((): [Row, number][] => []));
relaxation.capacities.forEach((c) => { for (const [fi, si] of c.members) copyRows[fi]![si]!.push([rowOf.get(c)!, 1]); });
for (const cr of relaxation.connections) {
  if (cr.arriving !== null) {
    const d = relaxation.flights[cr.arriving]!;
    const block = d.flight.arrMinutes - d.flight.depMinutes;
    d.stretches.forEach((s, si) => { const k = countBelow(cr.instants, s.from + block + cr.connectionMinutes); for (let i = 0; i < k; i++) copyRows[cr.arriving!]![si]!.push([rowOf.get(cr.rows[i]!)!, 1]); });
  }
  if (cr.leaving !== null) {
    const d = relaxation.flights[cr.leaving]!;
    d.stretches.forEach((s, si) => { const k = countBelow(cr.instants, s.to); for (let i = k; i < cr.rows.length; i++) copyRows[cr.leaving!]![si]!.push([rowOf.get(cr.rows[i]!)!, 1]); });
  }
}
// Cancellations, missed and broken itineraries, not carried, re-accommodated without journeys.
const groupRows = (g: Group | null, x: number): [Row, number][] => (g ? [[trigger.get(g)!, -g.passengers * x]] : []);
relaxation.flights.forEach((d, fi) => {
  if (!d.mayCancel) return;
  const entries: [Row, number][] = [[flightRows[fi]!, 1], ...groupRows(d.seats, 1)];
  if (relaxation.maxCancellations) entries.push([rowOf.get(relaxation.maxCancellations)!, 1]);
  for (const cr of relaxation.connections) for (const o of cr.others) if (o === fi) for (const r of cr.rows) entries.push([rowOf.get(r)!, -1]);
  for (const b of relaxation.brokenGroups) b.legs.forEach((leg, k) => { if (leg === fi) entries.push([rowOf.get(b.rows[k]!)!, 1]); });
  column(`cancel ${fi}`, d.cancelCost, 1, entries);
});
relaxation.missedGroups.forEach((m, i) => column(`missed ${i}`, m.seats ? 0 : m.cost, 1, [...m.rows.map((r): [Row, number] => [rowOf.get(r)!, -1]), ...groupRows(m.seats, 1)]));
relaxation.brokenGroups.forEach((b, i) => column(`broken ${i}`, b.cost, 1, b.rows.map((r): [Row, number] => [rowOf.get(r)!, -1])));
relaxation.seatGroups.forEach((g, i) => {
  column(`stranded ${i}`, g.stranded, Infinity, [[trigger.get(g)!, 1]]);
  if (!g.journeys) column(`rebooked ${i}`, g.rebooked, Infinity, [[trigger.get(g)!, 1], ...g.rows.map((r): [Row, number] => [rowOf.get(r)!, 1])]);
});
// Artificial units: a flight covered twice, any inequality row exceeded.
rows.forEach((r, i) => { if (r.sense === '<=' || flightRows.includes(r)) column(`artificial ${i}`, ARTIFICIAL, Infinity, [[r, -1]]); });

// Routes and journeys, captured where the evaluation finds them; each new route column's route as the
// relaxation gives it for plans (drainRoutes: the same new routes in the same order).
const pendingKeys: string[] = [];
const routeOfColumn = new Map<string, RelaxationRoute>();
const evaluate = (): number => {
  const value = relaxation.evaluate();
  const drained = relaxation.drainRoutes();
  if (drained.length !== pendingKeys.length) throw new Error('routes and route columns differ');
  pendingKeys.forEach((key, k) => routeOfColumn.set(key, drained[k]!));
  pendingKeys.length = 0;
  return value;
};
let newColumns = 0;
const cheapestRoute = rel.cheapestRoute.bind(rel);
rel.cheapestRoute = (net: (typeof relaxation.nets)[number], swapPrice: number) => {
  const route = cheapestRoute(net, swapPrice);
  if (!route) return route;
  const a = relaxation.nets.indexOf(net);
  let intrinsic = route.value;
  const entries: [Row, number][] = [[convexity[a]!, 1]];
  for (const j of route.copies as number[]) {
    const fi = net.flight[j]!, si = net.stretch[j]!;
    const k = net.seatRow[j]!;
    intrinsic -= relaxation.flights[fi]!.adjust[si]! + (net.swap[j]! ? swapPrice : 0) - (k >= 0 ? relaxation.flightSeatRows[k]!.price * net.freeSeats[j]! : 0);
    entries.push([flightRows[fi]!, 1], ...copyRows[fi]![si]!);
    // The seats it offers the passengers re-accommodated onto its flight.
    if (k >= 0) entries.push([rowOf.get(relaxation.flightSeatRows[k]!)!, -net.freeSeats[j]! * SEAT_ROW_SCALE]);
    if (net.swap[j] && relaxation.maxSwaps) entries.push([rowOf.get(relaxation.maxSwaps)!, 1]);
  }
  if (column(`route ${a} ${route.copies.join(',')}`, intrinsic, Infinity, entries)) { newColumns++; pendingKeys.push(`route ${a} ${route.copies.join(',')}`); }
  return route;
};
const journeyColumnOf = new Map<Group, (journey: readonly unknown[], value: number, legPrices: Float64Array) => void>();
relaxation.seatGroups.forEach((g, i) => {
  if (!g.journeys) return;
  const journeyColumn = (journey: readonly unknown[], value: number, legPrices: Float64Array) => {
    const legs = journey.map((f) => rel.networkIndex.get(f) as number);
    const intrinsic = value - legs.reduce((s, k) => s + legPrices[k]!, 0);
    const entries: [Row, number][] = [[trigger.get(g)!, 1], ...g.rows.map((r): [Row, number] => [rowOf.get(r)!, 1]), ...legs.map((k): [Row, number] => [rowOf.get(relaxation.flightSeatRows[k]!)!, 1])];
    if (column(`journey ${i} ${legs.join(',')}`, Math.max(g.rebooked, intrinsic), Infinity, entries)) newColumns++;
  };
  journeyColumnOf.set(g, journeyColumn);
  // One journey at zero prices to start from (the group's finder made now).
  const zero = new Float64Array(relaxation.flightSeatRows.length);
  for (const x of (g.finder ??= g.journeys()).best(zero, Number.POSITIVE_INFINITY, 1, () => false)) journeyColumn(x.journey, x.value, zero);
});
// Each journey the evaluation finds at the seat prices becomes a column.
const bestJourney = relaxation.bestJourney.bind(relaxation);
relaxation.bestJourney = (g, threshold) => {
  const found = bestJourney(g, threshold);
  if (found) journeyColumnOf.get(g)!(found.journey, found.value, rel.flightSeatPrices);
  return found;
};

const dir = mkdtempSync(join(tmpdir(), 'bound-lp-'));
/** Solves the restricted master with glpsol; its optimum and each row's dual. */
function solveMaster(integer = false): { objective: number; duals: Float64Array; artificial: number; cpuMs: number; primal: Float64Array } {
  const constraints: Constraint[] = rows.map((r) => ({ name: r.name, sense: r.sense, rhs: r.rhs, terms: [...r.terms].map(([variable, coef]) => ({ variable, coef })) }));
  // As a MIP: routes, cancellations, missed and broken itineraries whole (the seats stay continuous).
  const model: LinearModel = { name: 'network-bound-master', variables: integer ? variables.map((v, k) => (kinds[k] === 'whole' ? { ...v, kind: 'integer' } : v)) : variables, constraints };
  writeFileSync(join(dir, 'm.lp'), toCplexLp(model));
  const before = process.hrtime.bigint();
  execFileSync('glpsol', ['--lp', join(dir, 'm.lp'), '-w', join(dir, 'm.sol'), '-o', join(dir, 'm.txt'), ...(integer ? ['--tmlim', '600'] : [])], { stdio: 'ignore' });
  const cpuMs = Number(process.hrtime.bigint() - before) / 1e6;
  const lines = readFileSync(join(dir, 'm.sol'), 'utf8').split('\n');
  const duals = new Float64Array(rows.length);
  const primal = new Float64Array(variables.length);
  let objective = Number.NaN;
  for (const line of lines) {
    const f = line.trim().split(/\s+/);
    if (f[0] === 's' && f[1] === 'mip') { console.log(`MIP status ${line}`); objective = Number(f[5]); }
    else if (f[0] === 's') { if (f[4] !== 'f' || f[5] !== 'f') throw new Error(`master not optimal: ${line}`); objective = Number(f[6]); }
    else if (f[0] === 'i') duals[Number(f[1]) - 1] = Number(f[4]);
  }
  // glpsol numbers the columns as it meets them in the file: the printed solution names them.
  const index = new Map(variables.map((v, k) => [v.name, k]));
  for (const line of readFileSync(join(dir, 'm.txt'), 'utf8').split('\n')) {
    const m = /^\s*\d+\s+(x\d+)\s+\S+\s+(\S+)/.exec(line);
    if (m) primal[index.get(m[1]!)!] = Number(m[2]);
  }
  // The solution term by term (by what each column is) and the passengers per kind of column.
  const terms = new Map<string, { cost: number; amount: number }>();
  variables.forEach((v, k) => {
    if (primal[k]! <= 1e-9) return;
    const kind = keys[k]!.split(' ')[0]!;
    const t = terms.get(kind) ?? { cost: 0, amount: 0 };
    t.cost += v.cost * primal[k]!;
    t.amount += primal[k]!;
    terms.set(kind, t);
  });
  console.log([...terms].map(([kind, t]) => `${kind} ${round(t.cost)} (${t.amount.toFixed(1)})`).join(', '));
  let artificial = 0;
  variables.forEach((v, k) => { if (v.cost === ARTIFICIAL) artificial += primal[k]!; });
  return { objective: objective + rel.constant, duals, artificial, cpuMs, primal };
}

try {
  console.log(`${which} storm: ${relaxation.nets.length} aircraft, ${relaxation.flights.length} flights, ${relaxation.copies} copies, ${rows.length} master rows`);
  relaxation.startFromFlights();
  let best = Number.NEGATIVE_INFINITY, theta = 1, stale = 0;
  const target = Number(targetArg);
  const iterations = Number(iterationsArg);
  for (let it = 1; it <= iterations; it++) {
    const value = evaluate();
    if (value > best) { best = value; stale = 0; } else if (++stale >= STALE_ITERATIONS) { theta /= 2; stale = 0; }
    const norm = relaxation.direct(DEFLECTION);
    if (relaxation.violated === 0 || norm === 0) break;
    relaxation.step(theta * (best + TARGET_SHARE * (best < target ? target - best : Math.abs(best)) - value) / norm);
  }
  console.log(`subgradient: best ${round(best)} after ${iterations} iterations; ${variables.length} columns`);
  for (let r = 1; r <= Number(roundsArg); r++) {
    const master = solveMaster();
    rows.forEach((row, i) => row.set(master.duals[i]!));
    rel.flightSeatPrices = Float64Array.from(relaxation.flightSeatRows, (x) => x.price / SEAT_ROW_SCALE);
    newColumns = 0;
    const value = evaluate();
    if (value > best) best = value;
    console.log(`round ${r}: master M ${round(master.objective)} (artificial ${master.artificial.toFixed(3)}, glpsol ${round(master.cpuMs)} ms wall), L at its duals ${round(value)}, best L ${round(best)}, ${newColumns} new columns, ${variables.length} in all`);
    if (newColumns === 0) { console.log('no column prices out: M is the relaxation\'s LP optimum'); break; }
  }
  if (process.env.MIP) {
    const mip = solveMaster(true);
    console.log(`restricted master as a MIP (routes, cancellations, missed and broken whole): ${round(mip.objective)} (glpsol ${round(mip.cpuMs)} ms wall)`);
    if (process.env.PLAN) await priceAsPlan(mip.primal);
  }
  if (process.env.OFFER) await offerRoutes();
} finally {
  if (!process.env.KEEP_LP) rmSync(dir, { recursive: true, force: true }); else console.log(dir);
}

/**
 * The MIP's routes as a plan of the service: each aircraft's flights in the order the MIP flies them,
 * walked at the first grid minute the capacities allow (scope-walk.ts, first come, first served), then
 * the integrated strategy's model over those routes alone (passengers on direct flights, which costs at
 * least what the exact stage would) on GLPK: what such a plan really costs.
 */
async function priceAsPlan(primal: Float64Array): Promise<void> {
  const sequences = new Map<string, Flight[]>(relaxation.nets.map((net) => [net.a.aircraft.tail, []]));
  const ev = new RouteEvaluator(schedule, prepared.scope, request.config);
  const timed = new Map<string, Route | null>();
  const aircraftOf = new Map(prepared.scope.aircraft.map((a) => [a.aircraft.tail, a]));
  keys.forEach((key, k) => {
    if (!key.startsWith('route ') || primal[k]! < 0.5) return;
    const r = routeOfColumn.get(key)!;
    sequences.set(r.tail, r.legs.map((l) => schedule.flightsById.get(l.flightId)!));
    timed.set(r.tail, relaxationRouteAsRoute(ev, aircraftOf.get(r.tail)!, r));
    if (!timed.get(r.tail)) console.log(`${r.tail}: its route breaks a rule`);
  });
  // The capacities, counted by hand over the timed legs.
  for (const c of prepared.scope.capacities) {
    let used = 0;
    for (const r of timed.values()) for (const l of r?.legs ?? []) {
      const at = c.kind === 'departures' ? (l.flight.origin === c.airport ? l.depMinutes : null) : (l.flight.dest === c.airport ? l.arrMinutes : null);
      if (at !== null && at >= c.hourStartMinutes && at < c.hourStartMinutes + 60) used++;
    }
    if (used > c.max - c.fixed) console.log(`capacity ${c.airport} ${c.kind} at ${c.hourStartMinutes}: ${used} > ${c.max - c.fixed}`);
  }
  const walks = new ScopeWalks(prepared.scope, ev, request.config.solver.time_step_minutes);
  const pool = createSolverPool({ threads: 1 });
  try {
    for (const [name, walked] of [['relaxation\'s MIP at its own times', timed], ['relaxation\'s MIP', walks.walk({ sequences, thresholdMinutes: Number.POSITIVE_INFINITY })], ['the 90-minute walk (the service\'s first plan at 2 s)', walks.walk({ thresholdMinutes: 90 })]] as const) {
      const missing = [...walked].filter(([, r]) => r === null).map(([tail]) => tail);
      if (missing.length > 0) { console.log(`${name}: no route for ${missing.join(', ')}`); continue; }
      const routes = new Map([...walked].map(([tail, r]): [string, Route[]] => [tail, [r!]]));
      const model = buildStrategyModel(schedule, prepared.scope, request.config, 'integrated', routes, prepared.groups);
      const outcome = await pool.solve({ model: model.model, timeLimitMs: 300_000, mipGap: 0 });
      // Every journey worth taking, as the search's exact stage (service-search.ts withAllJourneys).
      const journeys = new Map<string, Journey[]>();
      for (const source of model.journeySources) {
        const list = new JourneyFinder(prepared.groups.network, request.config, source.search, source.usable, request.config.constraints.max_reaccommodation_legs).worthTaking();
        if (list.length > 0) journeys.set(source.key, list);
      }
      const exact = await pool.solve({ model: buildStrategyModel(schedule, prepared.scope, request.config, 'integrated', routes, prepared.groups, journeys).model, timeLimitMs: 300_000, mipGap: 0 });
      const delays = [...walked.values()].reduce((sum, r) => sum + r!.legs.reduce((d, l) => d + l.delayMinutes, 0), 0);
      const routeCost = [...walked.values()].reduce((sum, r) => sum + r!.cost, 0);
      console.log(`${name} walked as a plan: ${outcome.status} ${outcome.objective === null ? '-' : round(outcome.objective)} on direct flights, ${exact.status} ${exact.objective === null ? '-' : round(exact.objective)} on every journey worth taking`
        + ` (${[...walked.values()].reduce((n, r) => n + r!.legs.length, 0)} legs flown, ${delays} minutes of delay, routes ${round(routeCost)})`);
    }
  } finally {
    await pool.close();
  }
}

/**
 * Every route column seen (the subgradient's and the rounds'), timed as above, offered to the
 * integrated strategy's model as the search solves it (direct flights, GLPK on the worker pool): the
 * plan, and the CPU it takes (this process and its worker threads).
 */
async function offerRoutes(): Promise<void> {
  const ev = new RouteEvaluator(schedule, prepared.scope, request.config);
  const routes = new Map<string, Route[]>(relaxation.nets.map((net) => [net.a.aircraft.tail, []]));
  const seenRoutes = new Set<string>();
  let broken = 0;
  const aircraftOf = new Map(prepared.scope.aircraft.map((a) => [a.aircraft.tail, a]));
  for (const r of routeOfColumn.values()) {
    const route = relaxationRouteAsRoute(ev, aircraftOf.get(r.tail)!, r);
    if (!route) { broken++; continue; }
    if (seenRoutes.has(route.key)) continue;
    seenRoutes.add(route.key);
    routes.get(r.tail)!.push(route);
  }
  // WALKS=1: the search's own first walks beside them (scope-walk.ts at its cancellation thresholds), as its pool would hold.
  if (process.env.WALKS) {
    const walks = new ScopeWalks(prepared.scope, ev, request.config.solver.time_step_minutes);
    for (const thresholdMinutes of [Number.POSITIVE_INFINITY, 240, 150, 90, 45]) {
      for (const [tail, route] of walks.walk({ thresholdMinutes })) if (route && !seenRoutes.has(route.key)) { seenRoutes.add(route.key); routes.get(tail)!.push(route); }
    }
  }
  const pool = createSolverPool({ threads: 1 });
  try {
    const cpu = process.cpuUsage();
    const model = buildStrategyModel(schedule, prepared.scope, request.config, 'integrated', routes, prepared.groups);
    const outcome = await pool.solve({ model: model.model, timeLimitMs: Number(process.env.OFFER_MS ?? 60_000), mipGap: request.config.solver.mip_gap });
    const used = process.cpuUsage(cpu);
    console.log(`${seenRoutes.size} routes offered (${broken} breaking a rule left out): ${outcome.status} ${outcome.objective === null ? '-' : round(outcome.objective)} on direct flights, ${round((used.user + used.system) / 1000)} ms of CPU`);
  } finally {
    await pool.close();
  }
}
