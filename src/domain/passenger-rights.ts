// Passenger-rights figures used to cost passengers who cannot be re-accommodated.

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
