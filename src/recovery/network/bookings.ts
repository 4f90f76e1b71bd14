// What the ROADEF 2009 rules and costs derive from a booking (spec 2.8, 4.8, 5.1), engine side: the
// reference plan and the passenger re-accommodation read them here. The scorer keeps its own copy on
// purpose: it must judge the engine, so the two share no code.
import {
  CABIN_RANK, CABINS, HAUL_RANK, routeKey,
  type BookedLeg, type Cabin, type HaulClass, type Itinerary, type RoadefInstance,
} from '../../formats/roadef-2009/instance.ts';
import { legKey } from '../../formats/roadef-2009/text.ts';
import { compensationBand, type AircraftCostFacts, type TripFacts } from '../model/cost-model.ts';

/** Shortest passenger connection the challenge accepts, minutes (spec 4.8, R43). */
export const MIN_CONNECTION_MINUTES = 30;
/** Longest arrival delay of an outbound booking (spec R50), minutes, by its class. */
export const MAX_OUTBOUND_DELAY_MINUTES: Readonly<Record<HaulClass, number>> = { D: 1080, C: 1080, I: 2160 };

/** The haul class of a leg between two airports (dist.csv). */
export function legClass(instance: RoadefInstance, origin: string, dest: string): HaulClass {
  return instance.routes.get(routeKey(origin, dest))?.haulClass ?? 'D';
}

/** The class of a booking: the highest haul class among its legs. */
export function bookingClass(instance: RoadefInstance, itinerary: Itinerary): HaulClass {
  let best: HaulClass = 'D';
  for (const l of itinerary.legs) {
    const f = instance.flights.get(l.flight)!;
    const haul = legClass(instance, f.origin, f.dest);
    if (HAUL_RANK[haul] > HAUL_RANK[best]) best = haul;
  }
  return best;
}

/** The reference cabin of a booking: the highest cabin among its legs. */
export function referenceCabin(itinerary: Itinerary): Cabin {
  let best: Cabin = 'E';
  for (const l of itinerary.legs) if (CABIN_RANK[l.cabin] > CABIN_RANK[best]) best = l.cabin;
  return best;
}

/**
 * The fixed part of a booking (spec 4.8): the booked legs already boarded or flown at the window start,
 * after the disruptions. Every solution line of the booking starts with it.
 */
export function fixedPart(instance: RoadefInstance, itinerary: Itinerary, delays: ReadonlyMap<string, number>): BookedLeg[] {
  const S = instance.config.windowStartMinutes;
  const part: BookedLeg[] = [];
  let previousArr: number | null = null;
  for (const booked of itinerary.legs) {
    const key = legKey(booked.flight, booked.day);
    const leg = instance.legsByKey.get(key)!;
    const d = delays.get(key) ?? 0;
    if (d === -1 || leg.depMinutes + d >= S) break;
    if (previousArr !== null && leg.depMinutes + d - previousArr < MIN_CONNECTION_MINUTES) break;
    part.push(booked);
    previousArr = leg.arrMinutes + d;
  }
  return part;
}

/** The disruption delays of alt_flights.csv by leg key (-1 for a cancelled leg). */
export function disruptionDelays(instance: RoadefInstance): Map<string, number> {
  return new Map(instance.flightDisruptions.map((d) => [legKey(d.flight, d.day), d.delayMinutes]));
}

/** A price as the instance writes it: one decimal (`200.0`), two when it has them. */
export function priceText(price: number): string {
  return Number.isInteger(Math.round(price * 100) / 10) ? price.toFixed(1) : price.toFixed(2);
}

/** Passengers booked per leg key. */
export function legPassengers(instance: RoadefInstance): Map<string, number> {
  const booked = new Map<string, number>();
  for (const it of instance.itineraries) for (const l of it.legs) booked.set(legKey(l.flight, l.day), (booked.get(legKey(l.flight, l.day)) ?? 0) + it.passengers);
  return booked;
}

/** What the cost model needs to know of an aircraft. */
export function aircraftFacts(instance: RoadefInstance, id: string): AircraftCostFacts {
  const a = instance.aircraft.get(id);
  if (!a) return { tail: id, seats: 0, costPerBlockHour: 0 };
  return { tail: id, seats: CABINS.reduce((sum, c) => sum + Math.max(0, a.seats[c]), 0), costPerBlockHour: a.costPerHour };
}

/** What the cost model needs to know of a booking; `begun` when its fixed part is not empty. */
export function tripFacts(instance: RoadefInstance, itinerary: Itinerary, begun: boolean): TripFacts {
  let minutes = 0;
  for (const l of itinerary.legs) {
    const leg = instance.legsByKey.get(legKey(l.flight, l.day))!;
    minutes += leg.arrMinutes - leg.depMinutes;
  }
  return {
    passengers: itinerary.passengers, cabin: referenceCabin(itinerary), haul: bookingClass(instance, itinerary),
    direction: itinerary.direction === 'A' ? 'outbound' : 'inbound', fare: itinerary.price, plannedTripMinutes: minutes,
    compensationPerPassenger: compensationBand(minutes).cancellation, begun,
  };
}
