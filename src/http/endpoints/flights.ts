// GET /flights and GET /flights/{schedule_file}: the first 50 flights of an airline, for discovering
// flight ids before simulating. A listing changes only with its schedule, so each one (per schedule
// and airline) is prepared once, serialized, gzipped and tagged (prepared-json.ts), and a request
// costs its lookup: the listing stays fast while the same thread presents simulations.
import type { CatalogEntry } from '../../formats/schedule-json/schedule-catalog.ts';
import type { ApiBuilder } from '../api-builder.ts';
import type { EndpointDeps } from '../deps.ts';
import { airlineFlightsOr404, scheduleOr404 } from '../lookups.ts';
import { PreparedJson } from '../prepared-json.ts';
import { flightSummary } from '../presenters.ts';
import { FLIGHT_LIST_LIMIT, FlightListResponseSchema, FlightsParamsSchema, FlightsQuerySchema } from '../schemas.ts';

const DESCRIPTION = `Flights of the airline in the schedule, ordered by scheduled departure (UTC) then flight number, cut to the first ${FLIGHT_LIST_LIMIT}. \`flight_count\` is the airline's total in the schedule. \`dep\`/\`arr\` are local times of the origin/destination airport with their numeric offsets; \`id\` carries the departure in UTC.`;

export function flightEndpoints(api: ApiBuilder, deps: EndpointDeps): void {
  // By catalog entry (a reloaded schedule is a new entry), then airline: only airlines with flights
  // in the schedule get one, so the map is as small as the schedule's airlines.
  const prepared = new WeakMap<CatalogEntry, Map<string, PreparedJson>>();
  const list = (scheduleName: string | undefined, airline: string | undefined): PreparedJson => {
    const entry = scheduleOr404(deps.schedules, scheduleName);
    const code = airline ?? deps.config.defaultAirline;
    let byAirline = prepared.get(entry);
    if (!byAirline) prepared.set(entry, byAirline = new Map());
    let answer = byAirline.get(code);
    if (!answer) {
      const flights = airlineFlightsOr404(entry, code);
      answer = new PreparedJson({
        airline: code,
        schedule_file: entry.name,
        flight_count: flights.length,
        flights: flights.slice(0, FLIGHT_LIST_LIMIT).map((f) => flightSummary(entry.schedule, f)),
      });
      byAirline.set(code, answer);
    }
    return answer;
  };

  api.route({
    method: 'get',
    path: '/flights',
    operationId: 'listFlights',
    tags: ['Flights'],
    summary: 'Flights of the default schedule',
    description: `${DESCRIPTION} Reads the default schedule (DEFAULT_SCHEDULE).`,
    request: { query: FlightsQuerySchema },
    response: { etag: true, description: 'The flight list.', schema: FlightListResponseSchema },
    errors: { 404: 'The airline has no flights in the schedule.' },
    handler: ({ query }) => list(undefined, query.airline),
  });

  api.route({
    method: 'get',
    path: '/flights/{schedule_file}',
    operationId: 'listScheduleFlights',
    tags: ['Flights'],
    summary: 'Flights of a named schedule',
    description: `${DESCRIPTION} Same as GET /flights for the named schedule.`,
    request: { params: FlightsParamsSchema, query: FlightsQuerySchema },
    response: { etag: true, description: 'The flight list.', schema: FlightListResponseSchema },
    errors: { 404: 'Unknown schedule, or the airline has no flights in it.' },
    handler: ({ params, query }) => list(params.schedule_file, query.airline),
  });
}
