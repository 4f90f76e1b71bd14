// Disruptions: what has gone wrong, as facts the recovery must respect (contract.md, "Several
// disruptions at once"). Instants are epoch minutes; flights and aircraft are referenced by id.

/** The flight cannot leave earlier than its scheduled departure plus `minDelayMinutes` (or it is cancelled). */
export interface FlightDelay { type: 'flight_delay'; flightId: string; minDelayMinutes: number }
/** The flight is cancelled in every option. */
export interface FlightCancellation { type: 'flight_cancellation'; flightId: string }
/** The aircraft flies nothing that overlaps [fromMinutes, toMinutes) and stays where it is at fromMinutes. */
export interface AircraftUnavailable { type: 'aircraft_unavailable'; tail: string; fromMinutes: number; toMinutes: number }
/**
 * In every clock hour (UTC) that overlaps [fromMinutes, toMinutes), at most `maxDeparturesPerHour`
 * departures and `maxArrivalsPerHour` arrivals of the airline at the airport, counted by the times of
 * the plan.
 */
export interface AirportCapacity {
  type: 'airport_capacity'; airport: string; fromMinutes: number; toMinutes: number;
  maxDeparturesPerHour: number; maxArrivalsPerHour: number;
}

export type Disruption = FlightDelay | FlightCancellation | AircraftUnavailable | AirportCapacity;
export type DisruptionType = Disruption['type'];

/** The instant a disruption takes effect: a flight's scheduled departure, else the start of its period. */
export function disruptionStart(disruption: Disruption, scheduledDepartureOf: (flightId: string) => number): number {
  return disruption.type === 'flight_delay' || disruption.type === 'flight_cancellation'
    ? scheduledDepartureOf(disruption.flightId)
    : disruption.fromMinutes;
}

/** Start minute of every UTC clock hour that overlaps [fromMinutes, toMinutes). */
export function clockHoursOverlapping(fromMinutes: number, toMinutes: number): number[] {
  const hours: number[] = [];
  for (let hour = Math.floor(fromMinutes / 60) * 60; hour < toMinutes; hour += 60) hours.push(hour);
  return hours;
}

/**
 * A sentence naming the first contradiction of a list of disruptions (the same flight delayed twice,
 * a flight both delayed and cancelled, an empty period, the same airport capped twice in overlapping
 * periods, the same aircraft out of service in overlapping periods), or null when there is none.
 */
export function contradiction(disruptions: readonly Disruption[]): string | null {
  const flights = new Map<string, Disruption['type']>();
  for (const [i, d] of disruptions.entries()) {
    if (d.type === 'flight_delay' || d.type === 'flight_cancellation') {
      const earlier = flights.get(d.flightId);
      if (earlier === d.type) return `disruptions[${i}] ${d.type === 'flight_delay' ? 'delays' : 'cancels'} flight '${d.flightId}' a second time.`;
      if (earlier) return `disruptions[${i}] both delays and cancels flight '${d.flightId}'.`;
      flights.set(d.flightId, d.type);
      continue;
    }
    if (d.toMinutes <= d.fromMinutes) return `disruptions[${i}] has 'to' at or before 'from'.`;
    const key = d.type === 'aircraft_unavailable' ? d.tail : d.airport;
    const overlapping = disruptions.slice(0, i).findIndex((e) => e.type === d.type
      && (e.type === 'aircraft_unavailable' ? e.tail : (e as AirportCapacity).airport) === key
      && (e as AircraftUnavailable | AirportCapacity).fromMinutes < d.toMinutes && d.fromMinutes < (e as AircraftUnavailable | AirportCapacity).toMinutes);
    if (overlapping >= 0) {
      return d.type === 'aircraft_unavailable'
        ? `disruptions[${overlapping}] and disruptions[${i}] take aircraft '${key}' out of service in overlapping periods; give one period.`
        : `disruptions[${overlapping}] and disruptions[${i}] cap airport '${key}' in overlapping periods; give one capacity per period.`;
    }
  }
  return null;
}
