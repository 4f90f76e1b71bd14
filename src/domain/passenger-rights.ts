// Passenger-rights figures used to cost passengers who cannot be re-accommodated.
import { HAULS, type Airport, type Flight, type Haul } from './schedule.ts';

const EARTH_RADIUS_KM = 6371;

/** Great-circle (haversine) distance between two points given in degrees, kilometres. */
export function greatCircleKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h))); // min: rounding can push h above 1
}

/**
 * Compensation per passenger under Regulation (EC) No 261/2004, Art. 7(1), euros: 250 up to
 * 1,500 km, 400 up to 3,500 km, 600 beyond (the 3,500+ km intra-EU case, also 400, does not arise
 * on a European network of this size and is not distinguished).
 */
export function eu261CompensationEur(distanceKm: number): number {
  if (distanceKm <= 1500) return 250;
  if (distanceKm <= 3500) return 400;
  return 600;
}

/**
 * A distance standing for the EU261 band of a haul class (only its band matters): domestic up to
 * 1,500 km, continental up to 3,500 km, intercontinental beyond (docs/model.md 1.6). ROADEF 2009's
 * classes are the only distances an imported instance states, and its three classes map one to one
 * onto the regulation's three bands.
 */
const HAUL_BAND_KM: Readonly<Record<Haul, number>> = { domestic: 1500, continental: 3500, intercontinental: Number.POSITIVE_INFINITY };

/**
 * The distance, km, that a passenger's compensation goes by for a trip over `legs` (in travel order):
 * the great-circle distance from the first origin to the last destination when both airports have
 * coordinates, else the band of the highest haul class among the legs (the class ROADEF 2009 gives a
 * booking). Throws when neither is known: a schedule that allows it is refused before any simulation
 * (schedule.ts, unpricedTrips).
 */
export function tripDistanceKm(airports: ReadonlyMap<string, Airport>, legs: readonly Flight[]): number {
  const from = airports.get(legs[0]!.origin)!;
  const to = airports.get(legs[legs.length - 1]!.dest)!;
  if (from.lat !== null && from.lon !== null && to.lat !== null && to.lon !== null) return greatCircleKm(from.lat, from.lon, to.lat, to.lon);
  let highest = -1;
  for (const leg of legs) {
    if (leg.haul === null) throw new Error(`Trip over ${leg.id}: no coordinates at ${from.code} or ${to.code} and no haul class on the flight`);
    highest = Math.max(highest, HAULS.indexOf(leg.haul));
  }
  return HAUL_BAND_KM[HAULS[highest]!];
}
