// GET /snapshot: everything of one airline that overlaps a time window, as contract.md defines it.
import { parseZonedInstant } from '../../domain/time.ts';
import type { ApiBuilder } from '../api-builder.ts';
import type { EndpointDeps } from '../deps.ts';
import { HttpError } from '../errors.ts';
import { airlineFlightsOr404, scheduleOr404 } from '../lookups.ts';
import { snapshotView } from '../presenters.ts';
import {
  DEFAULT_SNAPSHOT_WINDOW_MINUTES, MAX_SNAPSHOT_WINDOW_MINUTES, SnapshotQuerySchema, SnapshotResponseSchema,
} from '../schemas.ts';

export function snapshotEndpoints(api: ApiBuilder, deps: EndpointDeps): void {
  api.route({
    method: 'get',
    path: '/snapshot',
    operationId: 'getSnapshot',
    tags: ['Flights'],
    summary: 'Operational snapshot of a time window',
    description: [
      'Flights, aircraft, crew duties and maintenance of the airline that overlap the window [from, to); no 50 cut.',
      'A flight overlaps when dep < to and arr > from (likewise duties and checks with their start and end).',
      'The window must be positive and at most 72 hours; by default it starts at the earliest scheduled departure of any airline in the schedule and lasts 24 hours.',
      'Timestamps: the window in UTC with +00:00; flight dep/arr, check start/end and duty start/end in the local time of the airport where they happen, with numeric offsets.',
    ].join(' '),
    request: { query: SnapshotQuerySchema },
    response: { etag: true, description: 'The snapshot.', schema: SnapshotResponseSchema },
    errors: { 404: 'Unknown schedule, or the airline has no flights in it.' },
    handler: ({ query }) => {
      const entry = scheduleOr404(deps.schedules, query.schedule_file);
      const airline = query.airline ?? deps.config.defaultAirline;
      airlineFlightsOr404(entry, airline);
      // The schemas have already checked that both parse.
      const fromMinutes = query.from !== undefined ? parseZonedInstant(query.from)! : entry.schedule.flights[0]!.depMinutes;
      const toMinutes = query.to !== undefined ? parseZonedInstant(query.to)! : fromMinutes + DEFAULT_SNAPSHOT_WINDOW_MINUTES;
      if (toMinutes <= fromMinutes) {
        throw new HttpError(400, "Query parameter 'to' must be later than 'from' (the window must be positive).");
      }
      if (toMinutes - fromMinutes > MAX_SNAPSHOT_WINDOW_MINUTES) {
        throw new HttpError(400, "The window from 'from' to 'to' must be at most 72 hours long.");
      }
      return snapshotView(entry.schedule, entry.name, airline, fromMinutes, toMinutes);
    },
  });
}
