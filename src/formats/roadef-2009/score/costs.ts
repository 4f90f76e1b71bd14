// The cost function of spec section 5: ten components, three groups, one weighted total. Amounts are
// summed in integer cents (every input has at most two decimals and every multiplier is an integer),
// so the figures are exact; only the weighted total is rounded to the cent, once.
import { CABIN_RANK, routeKey, type Downgrade } from '../instance.ts';
import type { ReadSolutionLeg, ReadSolutionLine } from '../solution.ts';
import { legKey } from '../text.ts';
import { recordsOfLine, tripKey, type Booking, type ScoringContext } from './context.ts';

export interface CostComponents {
  passengerDelay: number;
  outboundCancellation: number;
  inboundCancellation: number;
  downgrading: number;
  cancellationCompensation: number;
  delayCompensation: number;
  /** Printed positive, subtracted in the operating group. */
  operatingDecrease: number;
  operatingIncrease: number;
  swappedOperating: number;
  positionPenalty: number;
}

export interface CostTotals { operatingTotal: number; passengerTotal: number; positionTotal: number; weightedTotal: number }

/** The labels of the official cost checker, in its order (spec 5.6). */
export const COST_LABELS: readonly [keyof CostComponents, string][] = [
  ['passengerDelay', 'Passenger Delay Cost'],
  ['outboundCancellation', 'Outbound Trip Cancellation Cost'],
  ['inboundCancellation', 'Inbound Trip Cancellation Cost'],
  ['downgrading', 'Downgrading cost'],
  ['cancellationCompensation', 'Cancellation Legal Compensation Cost'],
  ['delayCompensation', 'Delay Legal Compensation Cost'],
  ['operatingDecrease', 'Flight Operating Cost Decrease'],
  ['operatingIncrease', 'Flight Operating Cost Increase'],
  ['swappedOperating', 'Swapped Aircraft Flight Operating Cost'],
  ['positionPenalty', 'Penalties for non-compliant location of aircraft'],
];
export const TOTAL_LABEL = 'Total Cost';

/** Delay compensation per passenger (spec 5.2): beyond the band's threshold, and beyond five hours. */
const DELAY_COMPENSATION = 15;
const LONG_DELAY_COMPENSATION = 60;
const LONG_DELAY_MINUTES = 300;

const cents = (amount: number) => Math.round(amount * 100);
/** Whole started hours of a duration in minutes (spec 5.3). */
const startedHours = (minutes: number) => Math.max(0, Math.ceil(minutes / 60));

type Cents = Record<keyof CostComponents, number>;

function zero(): Cents {
  return { passengerDelay: 0, outboundCancellation: 0, inboundCancellation: 0, downgrading: 0, cancellationCompensation: 0, delayCompensation: 0, operatingDecrease: 0, operatingIncrease: 0, swappedOperating: 0, positionPenalty: 0 };
}

/** Whether a line reaches its booking's destination (spec 5.2): judged only by where its last leg lands. */
export function reaches(records: ReadSolutionLeg[] | null, booking: Booking): boolean {
  return records !== null && records.length > 0 && records.at(-1)!.dest === booking.dest;
}

function lineCosts(ctx: ScoringContext, s: ReadSolutionLine, booking: Booking, sum: Cents): void {
  const { config } = ctx.instance;
  const c = booking.referenceCabin;
  const t = booking.haulClass;
  const pax = s.passengers;
  const records = s.legs.length > 0 ? recordsOfLine(ctx, s) : null;
  if (!reaches(records, booking)) {
    if (s.legs.length === 0 && booking.itinerary.direction === 'A') sum.outboundCancellation += pax * cents(config.outboundCancellationCost[c][t]);
    else sum.inboundCancellation += pax * cents(config.inboundCancellationCost[c][t]);
    sum.cancellationCompensation += pax * (cents(booking.itinerary.price) + cents(booking.compensation));
    return;
  }
  const delay = Math.max(0, records!.at(-1)!.arrMinutes - booking.plannedArrMinutes);
  sum.passengerDelay += pax * cents(config.delayCost[c][t]) * delay;
  sum.delayCompensation += pax * cents((delay > booking.delayLimitMinutes ? DELAY_COMPENSATION : 0) + (delay > LONG_DELAY_MINUTES ? LONG_DELAY_COMPENSATION : 0));
  s.legs.forEach((l, i) => {
    if (booking.bookedTriples.has(tripKey(l)) || CABIN_RANK[l.cabin] >= CABIN_RANK[c]) return;
    const r = records![i]!;
    const route = ctx.instance.routes.get(routeKey(r.origin, r.dest));
    // A leg between airports dist.csv does not know has no class; R4/R9 already reject such a record.
    if (route) sum.downgrading += pax * cents(config.downgradingCost[`${c}${l.cabin}` as Downgrade][route.haulClass]);
  });
}

function operatingCosts(ctx: ScoringContext, sum: Cents): void {
  const { instance } = ctx;
  for (const leg of instance.legs) {
    const r = ctx.recordByKey.get(leg.key);
    const planned = instance.aircraft.get(leg.aircraft)!;
    const hours = startedHours(leg.arrMinutes - leg.depMinutes);
    if ((r && r.aircraft === null) || ctx.disruption.get(leg.key) === -1) sum.operatingDecrease += hours * cents(planned.costPerHour);
    else if (r && r.aircraft !== leg.aircraft) {
      const plane = instance.aircraft.get(r.aircraft!);
      if (plane) sum.swappedOperating += hours * (cents(plane.costPerHour) - cents(planned.costPerHour));
    }
  }
  for (const r of ctx.recordByKey.values()) {
    if (instance.legsByKey.has(legKey(r.flight, r.day))) continue;
    const plane = r.aircraft === null ? undefined : instance.aircraft.get(r.aircraft);
    if (plane) sum.operatingIncrease += startedHours(r.arrMinutes - r.depMinutes) * cents(plane.costPerHour);
  }
}

/** Where each aircraft is at the window end (spec 5.4): null while still in the air. */
export function endPositions(ctx: ScoringContext): Map<string, string | null> {
  const E = ctx.instance.config.windowEndMinutes;
  const where = new Map<string, string | null>();
  for (const plane of ctx.instance.aircraft.values()) {
    const last = ctx.rotations.get(plane.id)?.at(-1);
    where.set(plane.id, !last ? plane.origin : last.arrMinutes <= E ? last.dest : null);
  }
  return where;
}

function positionPenalty(ctx: ScoringContext): number {
  const { instance } = ctx;
  const { positionPenalty: p } = instance.config;
  const familyOfModel = new Map<string, string>();
  for (const a of instance.aircraft.values()) if (!familyOfModel.has(a.model)) familyOfModel.set(a.model, a.family);
  const levels = ['family', 'model', 'configuration'] as const;
  const keyAt = (level: (typeof levels)[number], family: string, model: string, configuration: string) =>
    level === 'family' ? family : level === 'model' ? `${family}|${model}` : `${family}|${model}|${configuration}`;
  const have = new Map<string, number>();
  for (const [id, airport] of endPositions(ctx)) {
    if (airport === null) continue;
    const a = instance.aircraft.get(id)!;
    for (const level of levels) {
      const key = `${airport} ${level} ${keyAt(level, a.family, a.model, a.configuration)}`;
      have.set(key, (have.get(key) ?? 0) + 1);
    }
  }
  const need = new Map<string, { airport: string; level: (typeof levels)[number]; count: number; key: string }>();
  for (const req of instance.positions) {
    const family = familyOfModel.get(req.model)!;
    for (const level of levels) {
      const key = `${req.airport} ${level} ${keyAt(level, family, req.model, req.configuration)}`;
      const entry = need.get(key);
      if (entry) entry.count += req.count; else need.set(key, { airport: req.airport, level, count: req.count, key });
    }
  }
  const missing = new Map<string, Record<(typeof levels)[number], number>>();
  for (const n of need.values()) {
    const m = missing.get(n.airport) ?? { family: 0, model: 0, configuration: 0 };
    m[n.level] += Math.max(0, n.count - (have.get(n.key) ?? 0));
    missing.set(n.airport, m);
  }
  let total = 0;
  for (const m of missing.values()) {
    total += m.family * cents(p.family) + (m.model - m.family) * cents(p.model) + (m.configuration - m.model) * cents(p.configuration);
  }
  return total;
}

export interface CostResult {
  costs: CostComponents;
  totals: CostTotals;
  /**
   * The total the official cost checker prints when it differs (spec 5.7: it prices an outbound line
   * without legs with the inbound coefficient after a line with legs that missed its destination).
   */
  officialCheckerTotal: number | null;
}

function combine(sum: Cents, weights: { alpha: number; beta: number; gamma: number }): CostTotals {
  const operating = sum.cancellationCompensation + sum.delayCompensation - sum.operatingDecrease + sum.operatingIncrease + sum.swappedOperating;
  const passenger = sum.passengerDelay + sum.outboundCancellation + sum.inboundCancellation + sum.downgrading;
  const position = sum.positionPenalty;
  const weighted = Math.round(weights.alpha * operating + weights.beta * passenger + weights.gamma * position);
  return { operatingTotal: operating / 100, passengerTotal: passenger / 100, positionTotal: position / 100, weightedTotal: weighted / 100 };
}

export function computeCosts(ctx: ScoringContext): CostResult {
  const sum = zero();
  // The official checker's flag (spec 5.7), reproduced only to say when its figure differs.
  let lastWithLegsMissed = false;
  let repriced = 0;
  for (const s of ctx.solution.itineraries) {
    const booking = ctx.bookings.get(s.itinerary);
    if (!booking) continue;
    lineCosts(ctx, s, booking, sum);
    if (s.legs.length > 0) lastWithLegsMissed = !reaches(recordsOfLine(ctx, s), booking);
    else if (booking.itinerary.direction === 'A' && lastWithLegsMissed) {
      const { config } = ctx.instance;
      const [c, t] = [booking.referenceCabin, booking.haulClass];
      repriced += s.passengers * (cents(config.inboundCancellationCost[c][t]) - cents(config.outboundCancellationCost[c][t]));
    }
  }
  operatingCosts(ctx, sum);
  sum.positionPenalty = positionPenalty(ctx);
  const totals = combine(sum, ctx.instance.config.weights);
  const costs = Object.fromEntries(Object.entries(sum).map(([k, v]) => [k, v / 100])) as unknown as CostComponents;
  const officialCheckerTotal = repriced === 0 ? null : Math.round(totals.weightedTotal * 100 + ctx.instance.config.weights.beta * repriced) / 100;
  return { costs, totals, officialCheckerTotal };
}

