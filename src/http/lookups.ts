// Lookups every route shares, each turning "not there" into the 404 sentence of contract.md.
import type { CatalogEntry, ScheduleCatalog } from '../formats/schedule-json/schedule-catalog.ts';
import type { Flight } from '../domain/schedule.ts';
import { HttpError, quote } from './errors.ts';

/** The loaded schedule called `name` (with or without .json; default schedule when absent), else 404. */
export function scheduleOr404(catalog: ScheduleCatalog, name: string | undefined): CatalogEntry {
  const entry = catalog.resolve(name ?? catalog.defaultName);
  if (!entry) throw new HttpError(404, `Schedule ${quote(name ?? catalog.defaultName)} not found`);
  return entry;
}

/** The airline's flights in departure order; 404 when the schedule has none for it. */
export function airlineFlightsOr404(entry: CatalogEntry, airline: string): readonly Flight[] {
  const flights = entry.schedule.flightsByAirline.get(airline);
  if (!flights || flights.length === 0) {
    throw new HttpError(404, `Airline ${quote(airline)} has no flights in schedule ${quote(entry.name)}`);
  }
  return flights;
}
