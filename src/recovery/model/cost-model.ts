// What a recovery plan costs, as one interface with two implementations: the service's `cost_weights`
// (ServiceCostModel) and the ROADEF 2009 objective (RoadefCostModel, docs/spec/roadef2009.md section 5).
// Every engine and bound prices a plan through it, so that a plan, its search and its bound agree on
// one cost, and the two adapters (the API and `npm run roadef`) differ only in the model they hand in.
//
// A plan is priced as a sum over facts that any engine can state without knowing the format:
//   - each planned leg: flown (by its planned aircraft or another, some minutes late) or cancelled;
//   - each new leg (a ferry, a repositioning flight): flown by an aircraft for some block minutes;
//   - each passenger of a trip (a booking, or a group of passengers of one flight or itinerary):
//     arriving some minutes after the planned arrival, on the booked legs or re-accommodated, or not
//     carried at all, and each leg travelled in a cabin below the trip's own;
//   - the aircraft missing at the end of the plan from where the next day needs them;
//   - each maintenance check missed and each crew-duty breach (Infinity where a rule forbids it).
// Amounts are in the model's currency unit, already weighted (ROADEF's α, β, γ are inside), so the sum
// of the parts is the plan's cost. Besides these facts, the interface states the terms the service's
// linear models read as coefficients (LP columns, the pricing's labels, the closed-form bounds, the
// journey searches' last departure); ServiceCostModel builds its facts' prices from them, so each
// service term is defined once, here (docs/model.md 4.0). Pure: imports the EU261 table and types only.
import { eu261CompensationEur } from '../../domain/passenger-rights.ts';
import type { SolverConfig } from './solver-config.ts';

/** Cabins in the 2009 codes: first, business, economy. */
export type CabinCode = 'F' | 'B' | 'E';
/** Haul classes in the 2009 codes: domestic, continental, intercontinental. */
export type HaulCode = 'D' | 'C' | 'I';

/** Cabin rank, E < B < F (a trip's reference cabin is its highest). */
export const CABIN_RANK: Readonly<Record<CabinCode, number>> = { E: 0, B: 1, F: 2 };

/** What the cost of an aircraft flying a leg depends on. */
export interface AircraftCostFacts {
  tail: string;
  /** Seats, all cabins. */
  seats: number;
  /** Operating cost per started block hour; 0 when the schedule does not say. */
  costPerBlockHour: number;
}

/** A planned leg as a plan flies it. */
export interface FlownLegFacts {
  /** Planned block time, minutes (a delay moves the leg, it does not stretch it). */
  blockMinutes: number;
  /** Departure delay against the schedule, minutes (≥ 0). */
  delayMinutes: number;
  /** Passengers booked on the leg. */
  bookedPassengers: number;
  planned: AircraftCostFacts;
  /** The aircraft that flies it (the planned one, or another: a swap). */
  flownBy: AircraftCostFacts;
}

/** A planned leg the plan does not fly. */
export interface CancelledLegFacts {
  blockMinutes: number;
  bookedPassengers: number;
  planned: AircraftCostFacts;
}

/** The passengers of one trip (a booking or a group), what their costs depend on. */
export interface TripFacts {
  passengers: number;
  /** The trip's reference cabin (its highest booked cabin); economy where the schedule has no cabins. */
  cabin: CabinCode;
  /** The trip's class (its longest haul); domestic where the schedule does not say. */
  haul: HaulCode;
  /** Outbound (a one-way or the first half of a return) or inbound. */
  direction: 'outbound' | 'inbound';
  /** Ticket price paid, refunded when the trip is cancelled (ROADEF); 0 where unknown. */
  fare: number;
  /** Planned duration from the first departure to the last arrival, minutes (sets ROADEF's legal amounts). */
  plannedTripMinutes: number;
  /** The legal compensation of a passenger not carried, as the service prices it (EU261 × compensation_multiplier: ServiceCostModel.compensation). */
  compensationPerPassenger: number;
  /** Whether its passengers have already flown part of it when the plan starts (a cancelled trip is then an inbound one for ROADEF). */
  begun: boolean;
}

/** Aircraft missing at the end of the plan, counted at three levels (each count includes the coarser ones' aircraft). */
export interface MissingPositions {
  /** Required aircraft for which no aircraft of the family stands there. */
  family: number;
  /** Required aircraft for which no aircraft of the model stands there. */
  model: number;
  /** Required aircraft for which no aircraft of the model and configuration stands there. */
  configuration: number;
}

export interface CostModel {
  readonly kind: 'service' | 'roadef-2009';
  /** A planned leg flown, `crewBreaches` crews ending beyond their duty limit on it. */
  flownLeg(leg: FlownLegFacts, crewBreaches?: number): number;
  /** A planned leg cancelled (before its passengers' costs, which trips carry). May be negative: ROADEF credits the operating cost. */
  cancelledLeg(leg: CancelledLegFacts): number;
  /** A new leg (no passengers booked) flown by `aircraft`; null when the model allows no new legs. */
  newLeg(aircraft: AircraftCostFacts, blockMinutes: number): number | null;
  /**
   * Per passenger of `trip` arriving `delayMinutes` after the planned arrival, `rebooked` when not on the
   * booked legs. The service charges the delay of booked passengers per flight (flownLeg), so this is
   * 0 for them; a rebooked passenger pays from the journey's scheduled arrival (docs/model.md 1.6).
   */
  arrival(trip: TripFacts, delayMinutes: number, rebooked: boolean): number;
  /** Per passenger of `trip` not carried to the destination. */
  tripCancellation(trip: TripFacts): number;
  /**
   * Per passenger of `trip` travelling a leg of class `legHaul` in `cabin`, `bookedCabin` the cabin the
   * trip booked on that very leg (null when it is not a booked leg): 0 for an upgrade or the booked cabin.
   */
  downgrade(trip: TripFacts, legHaul: HaulCode, cabin: CabinCode, bookedCabin: CabinCode | null): number;
  /** The end-of-plan position penalty. */
  positions(missing: MissingPositions): number;
  /** One maintenance check missed; Infinity where the checks are hard rules. */
  missedCheck(): number;

  // The terms as coefficients. RoadefCostModel implements those its objective has in this form and
  // refuses (throws: a programmer error) those whose amount depends on facts these do not carry.
  /** Per minute a planned leg with `bookedPassengers` booked leaves late: flownLeg's delay part is delayMinutes × this. */
  legDelayPerMinute(bookedPassengers: number): number;
  /** A planned leg flown by another aircraft than planned, whichever aircraft: flownLeg's swap part. */
  swapPerLeg(): number;
  /** Booked passengers a leg's aircraft of `seats` seats has no seat for: flownLeg's spill part. */
  spill(bookedPassengers: number, seats: number): number;
  /** `breaches` crews ending beyond their duty limit on a leg: flownLeg's crew part (0 for none, Infinity where the rule is hard). */
  crewDuty(breaches: number): number;
  /** A planned leg cancelled, whichever leg: cancelledLeg's amount. */
  cancellationPerLeg(): number;
  /** The legal compensation of `passengers` (default 1) not carried on a trip of `distanceKm`: what TripFacts.compensationPerPassenger states. */
  compensation(distanceKm: number, passengers?: number): number;
  /** Per passenger of `trip` rebooked, per minute of later arrival: the slope of arrival(trip, ·, true), which is a line from arrival(trip, 0, true). */
  rebookedPerMinute(trip: TripFacts): number;
}

/** Whole started hours of a block of `minutes` (operating costs bill them). */
export function startedHours(minutes: number): number {
  return Math.max(0, Math.ceil(minutes / 60));
}

/** The service's weights (a subset of SolverConfig['cost_weights'] and ['constraints']). */
export interface ServiceCostWeights {
  delay_per_minute: number;
  delay_per_passenger_minute: number;
  cancellation_per_flight: number;
  swap_per_flight: number;
  spill_per_passenger: number;
  reaccommodation_per_passenger: number;
  reaccommodation_delay_per_passenger_minute: number;
  compensation_multiplier: number;
  crew_duty_violation: number;
  maintenance_violation: number;
  aircraft_out_of_position: number;
}

const serviceModels = new WeakMap<SolverConfig, ServiceCostModel>();

/**
 * The service's cost model of a request's configuration: built once per configuration object (a solve
 * hands one down to all its engines and bounds), so that every service path prices through it.
 */
export function serviceCostModel(config: SolverConfig): ServiceCostModel {
  let model = serviceModels.get(config);
  if (!model) {
    model = new ServiceCostModel(config.cost_weights, { crewDuty: config.constraints.crew_duty === 'hard', maintenance: config.constraints.maintenance === 'hard' });
    serviceModels.set(config, model);
  }
  return model;
}

/** A service passenger group as a trip of the cost model: no cabins, fares or classes (the service's model reads none of them), its compensation stated. */
export function serviceTrip(passengers: number, compensationPerPassenger: number, plannedTripMinutes = 0): TripFacts {
  return { passengers, cabin: 'E', haul: 'D', direction: 'outbound', fare: 0, plannedTripMinutes, compensationPerPassenger, begun: false };
}

/**
 * The service's cost (docs/model.md 1.4-1.6): departure delay per flight (per minute, and per booked
 * passenger-minute), a fixed cost per cancelled or swapped flight, spill of booked passengers over a
 * smaller aircraft's seats, re-accommodation per passenger and per minute of later scheduled arrival,
 * the compensation of a passenger not carried, crew-duty and maintenance penalties (or Infinity when
 * `hard`), and each aircraft out of position. New legs are not part of the service's plans.
 */
export class ServiceCostModel implements CostModel {
  readonly kind = 'service';
  constructor(private readonly w: ServiceCostWeights, private readonly hard: { crewDuty: boolean; maintenance: boolean } = { crewDuty: false, maintenance: false }) {}

  flownLeg(leg: FlownLegFacts, crewBreaches = 0): number {
    const delay = leg.delayMinutes * this.legDelayPerMinute(leg.bookedPassengers);
    const swap = leg.flownBy.tail === leg.planned.tail ? 0 : this.swapPerLeg();
    return delay + swap + this.spill(leg.bookedPassengers, leg.flownBy.seats) + this.crewDuty(crewBreaches);
  }

  cancelledLeg(): number {
    return this.cancellationPerLeg();
  }

  newLeg(): null {
    return null;
  }

  arrival(trip: TripFacts, delayMinutes: number, rebooked: boolean): number {
    if (!rebooked) return 0;
    return this.w.reaccommodation_per_passenger + this.rebookedPerMinute(trip) * Math.max(0, delayMinutes);
  }

  tripCancellation(trip: TripFacts): number {
    return trip.compensationPerPassenger;
  }

  downgrade(): number {
    return 0;
  }

  /** The service requires one end station per aircraft: every aircraft missing is a family-level miss. */
  positions(missing: MissingPositions): number {
    return missing.family * this.w.aircraft_out_of_position;
  }

  missedCheck(): number {
    return this.hard.maintenance ? Number.POSITIVE_INFINITY : this.w.maintenance_violation;
  }

  legDelayPerMinute(bookedPassengers: number): number {
    return this.w.delay_per_minute + this.w.delay_per_passenger_minute * bookedPassengers;
  }

  swapPerLeg(): number {
    return this.w.swap_per_flight;
  }

  spill(bookedPassengers: number, seats: number): number {
    return Math.max(0, bookedPassengers - seats) * this.w.spill_per_passenger;
  }

  crewDuty(breaches: number): number {
    return breaches === 0 ? 0 : this.hard.crewDuty ? Number.POSITIVE_INFINITY : breaches * this.w.crew_duty_violation;
  }

  cancellationPerLeg(): number {
    return this.w.cancellation_per_flight;
  }

  /** EU261 by distance (domain/passenger-rights.ts) × compensation_multiplier. */
  compensation(distanceKm: number, passengers = 1): number {
    return passengers * this.w.compensation_multiplier * eu261CompensationEur(distanceKm);
  }

  rebookedPerMinute(_trip: TripFacts): number {
    return this.w.reaccommodation_delay_per_passenger_minute;
  }
}

type ByCabinAndHaul = Readonly<Record<CabinCode, Readonly<Record<HaulCode, number>>>>;

/** The cost parameters of a ROADEF 2009 instance (config.csv, spec 2.2); RoadefConfig has this shape. */
export interface RoadefCostParameters {
  delayCost: ByCabinAndHaul;
  outboundCancellationCost: ByCabinAndHaul;
  inboundCancellationCost: ByCabinAndHaul;
  downgradingCost: Readonly<Record<'FB' | 'FE' | 'BE', Readonly<Record<HaulCode, number>>>>;
  positionPenalty: { family: number; model: number; configuration: number };
  weights: { alpha: number; beta: number; gamma: number };
}

/** Delay compensation per passenger (spec 5.2): beyond the band's threshold, and beyond five hours. */
const DELAY_COMPENSATION = 15;
const LONG_DELAY_COMPENSATION = 60;
const LONG_DELAY_MINUTES = 300;

/** The legal amounts that depend on the planned trip duration (spec 5.1). */
export function compensationBand(plannedTripMinutes: number): { cancellation: number; delayThresholdMinutes: number } {
  if (plannedTripMinutes < 120) return { cancellation: 250, delayThresholdMinutes: 120 };
  if (plannedTripMinutes < 270) return { cancellation: 400, delayThresholdMinutes: 180 };
  return { cancellation: 600, delayThresholdMinutes: 240 };
}

/**
 * The ROADEF 2009 objective (spec section 5): α × operating cost (a cancelled leg credits its
 * planned aircraft's hours, a swapped leg pays the difference of hourly costs, a new leg its hours;
 * the legal compensations, refund included, are the airline's and weigh α too) + β × passenger cost
 * (delay per minute by cabin and class, trip cancellation, downgrading) + γ × position penalty.
 * Maintenance is a hard rule there, and the challenge has no crew.
 */
export class RoadefCostModel implements CostModel {
  readonly kind = 'roadef-2009';
  constructor(private readonly p: RoadefCostParameters) {}

  flownLeg(leg: FlownLegFacts): number {
    if (leg.flownBy.tail === leg.planned.tail) return 0;
    return this.p.weights.alpha * startedHours(leg.blockMinutes) * (leg.flownBy.costPerBlockHour - leg.planned.costPerBlockHour);
  }

  cancelledLeg(leg: CancelledLegFacts): number {
    return -this.p.weights.alpha * startedHours(leg.blockMinutes) * leg.planned.costPerBlockHour;
  }

  newLeg(aircraft: AircraftCostFacts, blockMinutes: number): number {
    return this.p.weights.alpha * startedHours(blockMinutes) * aircraft.costPerBlockHour;
  }

  arrival(trip: TripFacts, delayMinutes: number): number {
    const delay = Math.max(0, delayMinutes);
    const band = compensationBand(trip.plannedTripMinutes);
    const legal = (delay > band.delayThresholdMinutes ? DELAY_COMPENSATION : 0) + (delay > LONG_DELAY_MINUTES ? LONG_DELAY_COMPENSATION : 0);
    return this.p.weights.beta * this.p.delayCost[trip.cabin][trip.haul] * delay + this.p.weights.alpha * legal;
  }

  tripCancellation(trip: TripFacts): number {
    const table = !trip.begun && trip.direction === 'outbound' ? this.p.outboundCancellationCost : this.p.inboundCancellationCost;
    return this.p.weights.beta * table[trip.cabin][trip.haul] + this.p.weights.alpha * (trip.fare + compensationBand(trip.plannedTripMinutes).cancellation);
  }

  downgrade(trip: TripFacts, legHaul: HaulCode, cabin: CabinCode, bookedCabin: CabinCode | null): number {
    if (CABIN_RANK[cabin] >= CABIN_RANK[trip.cabin] || cabin === bookedCabin) return 0;
    return this.p.weights.beta * this.p.downgradingCost[`${trip.cabin}${cabin}` as 'FB' | 'FE' | 'BE'][legHaul];
  }

  positions(missing: MissingPositions): number {
    const { family, model, configuration } = this.p.positionPenalty;
    return this.p.weights.gamma * (missing.family * family + (missing.model - missing.family) * model + (missing.configuration - missing.model) * configuration);
  }

  missedCheck(): number {
    return Number.POSITIVE_INFINITY;
  }

  /** None: a delay costs by the passengers' arrivals (arrival). */
  legDelayPerMinute(): number {
    return 0;
  }

  swapPerLeg(): never {
    return refused('a swap cost per leg', 'it is the difference of the two aircraft\'s hourly costs (flownLeg)');
  }

  /** None: passengers over the seats are not carried on the leg, which their trips price. */
  spill(): number {
    return 0;
  }

  /** None: the challenge has no crew. */
  crewDuty(): number {
    return 0;
  }

  cancellationPerLeg(): never {
    return refused('a cancellation cost per leg', 'it credits the planned aircraft\'s block hours (cancelledLeg)');
  }

  compensation(): never {
    return refused('a compensation by distance', 'it goes by the planned trip duration (tripCancellation, arrival)');
  }

  rebookedPerMinute(): never {
    return refused('a rebooking cost linear in the delay', 'its legal compensations are steps (arrival)');
  }
}

/** A term the ROADEF 2009 objective cannot state in the form asked: a service path was handed the ROADEF model. */
function refused(term: string, why: string): never {
  throw new Error(`The ROADEF 2009 objective has no ${term}: ${why}.`);
}
