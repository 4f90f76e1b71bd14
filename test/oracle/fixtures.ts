// Hand-written tiny schedules whose optimum is computed BY HAND (in the comments) from docs/model.md
// section 1, to test the oracle itself. Default weights unless stated: delay 100/min + 0.5/pax/min,
// cancellation 8000, swap 400, reaccommodation 120 + 0.5/pax/min, EU261 250 (all distances here are
// below 1500 km), maintenance 50000, crew 15000, out of position 20000. Turnaround A320 40, E190 30.
import type { ScheduleFile } from '../../src/formats/schedule-json/schedule-file.ts';
import type { OracleDisruption } from './model.ts';

export const DAY = '2026-11-21';
export const at = (hhmm: string): string => `${DAY}T${hhmm}:00Z`;
export const fid = (number: string, hhmm: string): string => `${number}_${at(hhmm)}`;

/** The four disruptions of docs/model.md 1.1, as the request writes them (times "HH:MM" UTC on DAY). */
export const delay = (flight: string, minutes: number): OracleDisruption => ({ type: 'flight_delay', flight, min_delay_minutes: minutes });
export const cancel = (flight: string): OracleDisruption => ({ type: 'flight_cancellation', flight });
export const unavailable = (tail: string, from: string, to: string): OracleDisruption => ({ type: 'aircraft_unavailable', tail, from: at(from), to: at(to) });
export const capacity = (airport: string, from: string, to: string, maxDepartures: number, maxArrivals: number): OracleDisruption => ({
  type: 'airport_capacity', airport, from: at(from), to: at(to), max_departures_per_hour: maxDepartures, max_arrivals_per_hour: maxArrivals,
});

const AIRPORTS: ScheduleFile['airports'] = [
  { code: 'VIE', name: 'Vienna International', time_zone: 'Europe/Vienna', lat: 48.1103, lon: 16.5697, hub: true, maintenance_station: true, min_connection_minutes: 45 },
  { code: 'FRA', name: 'Frankfurt am Main', time_zone: 'Europe/Berlin', lat: 50.0379, lon: 8.5622, hub: false, maintenance_station: false, min_connection_minutes: 45 },
  { code: 'ZRH', name: 'Zurich', time_zone: 'Europe/Zurich', lat: 47.4582, lon: 8.5555, hub: false, maintenance_station: false, min_connection_minutes: 45 },
  { code: 'PRG', name: 'Prague Vaclav Havel', time_zone: 'Europe/Prague', lat: 50.1008, lon: 14.26, hub: false, maintenance_station: false, min_connection_minutes: 45 },
];
const FLEETS: ScheduleFile['fleets'] = [
  { code: 'A320', family: 'A320', seats: 180, cruise_speed_kmh: 800 },
  { code: 'E190', family: 'E-JET', seats: 100, cruise_speed_kmh: 760 },
];

type FlightRow = [number: string, tail: string, origin: string, dest: string, dep: string, arr: string, booked: number];

export function makeSchedule(spec: {
  name: string;
  aircraft: { tail: string; fleet: 'A320' | 'E190'; base: string }[];
  flights: FlightRow[];
  maintenance?: ScheduleFile['maintenance'];
  crew?: ScheduleFile['crew'];
  itineraries?: ScheduleFile['itineraries'];
}): ScheduleFile {
  return {
    format_version: 1,
    name: spec.name,
    description: 'hand-checked oracle fixture',
    operating_date: DAY,
    generator: { seed: 0, version: 'hand' },
    airlines: [{ code: 'NV', name: 'Novair' }],
    airports: AIRPORTS,
    fleets: FLEETS,
    aircraft: spec.aircraft.map((a) => ({ tail: a.tail, airline: 'NV', fleet: a.fleet, seats: a.fleet === 'A320' ? 180 : 100, base: a.base })),
    flights: spec.flights.map(([number, tail, origin, dest, dep, arr, booked]) => ({
      flight_number: number, airline: 'NV', tail, origin, dest, dep: at(dep), arr: at(arr), distance_km: 500, booked_passengers: booked,
    })),
    maintenance: spec.maintenance ?? [],
    crew: spec.crew ?? [],
    itineraries: spec.itineraries ?? [],
  };
}

/**
 * F1 - pure delay propagation. OE-AAA (A320): NV101 VIE-FRA 08:00-09:30, NV102 FRA-VIE 10:15-11:45,
 * 100 booked each. NV101 disrupted by 60 min.
 * NV101 09:00-10:30 (delay 60); NV102 ready 10:30+40 = 11:10, delay 55, 11:10-12:40.
 * delay = (60 + 55) x (100 + 0.5 x 100) = 115 x 150 = 17250. Cancelling is far worse (cancelling NV102
 * leaves the aircraft out of position: 20000 + 8000 + 25000; cancelling both: 16000 + 2 x 100 x 250).
 * Optimum 17250 (= the delay_propagation plan).
 * F1 + crew: crew C1 on both flights, duty start 07:15, max 300 min -> limit 12:15; NV102 arrives 12:40:
 * one violation, 17250 + 15000 = 32250. With crew_duty hard: fly NV101 only (9000 delay + 8000 cancel +
 * 100 x 250 compensation + 20000 out of position = 62000) beats cancelling both (16000 + 50000 = 66000).
 */
export const F1 = makeSchedule({
  name: 'f1-delay',
  aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }],
  flights: [
    ['NV101', 'OE-AAA', 'VIE', 'FRA', '08:00', '09:30', 100],
    ['NV102', 'OE-AAA', 'FRA', 'VIE', '10:15', '11:45', 100],
  ],
});
export const F1_CREW = makeSchedule({
  name: 'f1-crew',
  aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }],
  flights: [
    ['NV101', 'OE-AAA', 'VIE', 'FRA', '08:00', '09:30', 100],
    ['NV102', 'OE-AAA', 'FRA', 'VIE', '10:15', '11:45', 100],
  ],
  crew: [{
    crew_id: 'C1', airline: 'NV', role: 'cockpit', base: 'VIE', duty_start: at('07:15'), duty_end: at('12:15'), max_duty_minutes: 300,
    flights: [fid('NV101', '08:00'), fid('NV102', '10:15')],
  }],
});

/**
 * F2 - a swap beats the delay. OE-AAA (A320): NV101 VIE-FRA 08:00-09:30, NV102 FRA-VIE 10:15-11:45,
 * NV103 VIE-ZRH 12:30-13:45, NV104 ZRH-VIE 14:30-15:45, 100 booked each; OE-AAB (A320) idle at VIE.
 * NV102 disrupted by 120 min: t0 = 10:15, NV101 has departed.
 * Scope: OE-AAB is on the ground at VIE all day, where OE-AAA departs at 12:30 -> distance 0 -> in K.
 * Delay all: NV102 12:15 (120), NV103 ready 13:45+40 = 14:25 (115), NV104 ready 15:40+40 = 16:20 (110):
 *   345 x 150 = 51750.
 * Swap: OE-AAB flies NV103 and NV104 on time: 120 x 150 + 2 x 400 = 18800 (both end at VIE). Optimum 18800.
 * With max_swaps = 1 the spare cannot take the round trip (2 swaps): 51750 (cancelling NV103+NV104
 * costs 16000 + 2 x 100 x 250 + 18000 = 84000).
 * Window 3 h (W = 13:15, NV104 after it, L(OE-AAA) = ZRH, ready by 14:30): OE-AAA must fly NV102 then
 * NV103. D0 = 10: NV102 10:25-11:55 (10), NV103 ready 12:35 (5) arr 13:50, ready 14:30 <= 14:30: 15 x 150
 * = 2250. D0 = 30: NV103 arrives 14:10, ready 14:50 > 14:30: no feasible plan.
 */
export const F2 = makeSchedule({
  name: 'f2-swap',
  aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }, { tail: 'OE-AAB', fleet: 'A320', base: 'VIE' }],
  flights: [
    ['NV101', 'OE-AAA', 'VIE', 'FRA', '08:00', '09:30', 100],
    ['NV102', 'OE-AAA', 'FRA', 'VIE', '10:15', '11:45', 100],
    ['NV103', 'OE-AAA', 'VIE', 'ZRH', '12:30', '13:45', 100],
    ['NV104', 'OE-AAA', 'ZRH', 'VIE', '14:30', '15:45', 100],
  ],
});

/**
 * F3 - cancelling a round trip beats a long delay; re-accommodation limited by seats.
 * reaccommodation_delay_per_passenger_minute = 0.1.
 * OE-AAA (A320): NV101 VIE-PRG 08:00-08:50 (10 booked), NV102 PRG-VIE 09:30-10:20 (10), NV103 VIE-FRA
 * 11:00-12:30 (150), NV104 FRA-VIE 13:15-14:45 (150). OE-AAB (E190, other family: not in scope):
 * NV301 VIE-PRG 15:00-15:50 (95 booked: 5 free), NV302 PRG-VIE 16:30-17:20 (98: 2 free).
 * NV101 disrupted by 240 min.
 * Delay all: 240 x 105 + 240 x 105 + 240 x 175 + 235 x 175 = 25200 + 25200 + 42000 + 41125 = 133525.
 * Cancel NV101+NV102: 16000; NV101's 10 passengers: 5 onto NV301 at 120 + 0.1 x (15:50 - 08:50 = 420)
 * = 162 each (< 250 compensation), 5 compensated: 810 + 1250 = 2060; NV102's 10: 2 onto NV302 at 162,
 * 8 compensated: 324 + 2000 = 2324. Total 20384 = optimum. Without cancellations: 133525.
 */
export const F3 = makeSchedule({
  name: 'f3-cancel',
  aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }, { tail: 'OE-AAB', fleet: 'E190', base: 'VIE' }],
  flights: [
    ['NV101', 'OE-AAA', 'VIE', 'PRG', '08:00', '08:50', 10],
    ['NV102', 'OE-AAA', 'PRG', 'VIE', '09:30', '10:20', 10],
    ['NV103', 'OE-AAA', 'VIE', 'FRA', '11:00', '12:30', 150],
    ['NV104', 'OE-AAA', 'FRA', 'VIE', '13:15', '14:45', 150],
    ['NV301', 'OE-AAB', 'VIE', 'PRG', '15:00', '15:50', 95],
    ['NV302', 'OE-AAB', 'PRG', 'VIE', '16:30', '17:20', 98],
  ],
});

/**
 * F4 - a misconnection re-accommodated on a later flight. OE-AAA (A320, base FRA): NV101 FRA-VIE
 * 08:00-09:15, NV102 VIE-FRA 10:00-11:15 (100 each). OE-AAB (E190, not in scope): NV201 VIE-ZRH
 * 10:00-11:15 (80), NV202 ZRH-VIE 12:00-13:15 (50), NV203 VIE-ZRH 14:00-15:15 (60). Itinerary IT1:
 * NV101 -> NV201, 20 passengers; VIE connection time 45. NV101 disrupted by 60 min.
 * NV101 09:00-10:15, NV102 10:55 (55). 10:15 + 45 = 11:00 > 10:00: IT1 misconnects; eligible: NV203
 * (14:00 >= 11:00; 40 free seats) at 120 + 0.5 x (15:15 - 11:15 = 240) = 240 < 250 (FRA-ZRH 287 km).
 * 115 x 150 + 20 x 240 = 17250 + 4800 = 22050 = optimum.
 * With reaccommodation_delay_per_passenger_minute = 1: 360 > 250, compensate: 17250 + 5000 = 22250.
 */
export const F4 = makeSchedule({
  name: 'f4-misconnection',
  aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'FRA' }, { tail: 'OE-AAB', fleet: 'E190', base: 'VIE' }],
  flights: [
    ['NV101', 'OE-AAA', 'FRA', 'VIE', '08:00', '09:15', 100],
    ['NV102', 'OE-AAA', 'VIE', 'FRA', '10:00', '11:15', 100],
    ['NV201', 'OE-AAB', 'VIE', 'ZRH', '10:00', '11:15', 80],
    ['NV202', 'OE-AAB', 'ZRH', 'VIE', '12:00', '13:15', 50],
    ['NV203', 'OE-AAB', 'VIE', 'ZRH', '14:00', '15:15', 60],
  ],
  itineraries: [{ itinerary_id: 'IT1', passengers: 20, flights: [fid('NV101', '08:00'), fid('NV201', '10:00')] }],
});

/**
 * F5 - a missed maintenance check. OE-AAA (A320): NV101 VIE-FRA 08:00-09:30, NV102 FRA-VIE 10:15-11:45,
 * daily check at VIE 12:30-14:00, NV103 VIE-ZRH 14:30-15:45, NV104 ZRH-VIE 16:30-17:45 (100 each).
 * NV101 disrupted by 60 min.
 * Fly all: NV102 arrives 12:40 > 12:30: check missed (violation on NV102, the last flight departing
 * before 12:30); NV103 ready 13:20, leaves 14:30 on time: 17250 + 50000 = 67250.
 * Cancel NV101+NV102: check done at the start; 16000 + 2 x 100 x 250 = 66000 = optimum (soft).
 * Without cancellations (soft): 67250 with the violation. Hard maintenance without cancellations: the
 * only way is to hold NV101 for the check at the start: NV101 14:00 (360), NV102 16:10 (355), NV103
 * 18:20 (230), NV104 20:15 (225): 1170 x 150 = 175500. delay_propagation: 67250; hard: infeasible.
 */
export const F5 = makeSchedule({
  name: 'f5-maintenance',
  aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }],
  flights: [
    ['NV101', 'OE-AAA', 'VIE', 'FRA', '08:00', '09:30', 100],
    ['NV102', 'OE-AAA', 'FRA', 'VIE', '10:15', '11:45', 100],
    ['NV103', 'OE-AAA', 'VIE', 'ZRH', '14:30', '15:45', 100],
    ['NV104', 'OE-AAA', 'ZRH', 'VIE', '16:30', '17:45', 100],
  ],
  maintenance: [{ tail: 'OE-AAA', type: 'daily_check', station: 'VIE', start: at('12:30'), end: at('14:00') }],
});

/**
 * F1 + a standing capacity (docs/model.md 1.1) at FRA: no departures in the window 12:00-13:00 on
 * FRA's clock (UTC+1 in November: the UTC hour 11:00-12:00), arrivals free (9). NV101 delayed 60 (as
 * F1): NV102, ready at FRA at 11:10, may not leave before 12:00: delay 105, (60 + 105) x 150 = 24750
 * in every strategy but delay_propagation, whose NV102 at 11:10 breaks it (no plan). Cancelling
 * NV102 instead: 9000 + 8000 + 100 x 250 + 20000 = 62000. As scheduled (NV102 at 10:15 UTC, 11:15 on
 * FRA's clock) the schedule keeps the window.
 * The window from 12:30 instead: no clock hour starts inside it (FRA's hours start at :00), nothing
 * is capped: 17250 as F1. OE-AAA a ground shuttle (cabin_seats null): its flights do not count: 17250.
 */
export const F1_STANDING: ScheduleFile = {
  ...F1,
  name: 'f1-standing-capacity',
  airports: F1.airports.map((a) => (a.code === 'FRA' ? { ...a, hourly_capacity: [{ from: '12:00', to: '13:00', max_departures_per_hour: 0, max_arrivals_per_hour: 9 }] } : a)),
};

/**
 * F6 - a capacity met by a hold. OE-AAA (A320): NV101 VIE-FRA 10:10-11:40; OE-AAB (A320): NV201
 * VIE-ZRH 10:20-11:35; OE-AAC (A320, base ZRH): NV301 ZRH-VIE 09:20-10:35 (100 booked each).
 * Capacity VIE 09:00-11:00 (hours 09 and 10): 1 departure, 0 arrivals per hour. t0 = 09:00, K0 = the
 * three aircraft (each moves at VIE in a capped hour).
 * NV301 must land at 11:00 or later: held to 09:45 (25 min, 3750). One of NV101 / NV201 must leave at
 * 11:00 or later: NV201 held 40 min (6000) beats NV101 held 50 min (7500). Optimum 9750 (every strategy
 * but delay_propagation, which cannot hold: no plan). Cancelling instead costs 8000 + 100 x 250 + 20000
 * (the aircraft ends away from where its day was planned to end).
 * On a 15-minute grid: NV301 at 09:50 (30 min, 4500), NV201 at 11:05 (45 min, 6750): 11250.
 * With max_delay_minutes 30: NV201 and NV101 cannot wait for 11:00, NV301 can (25): one of them is
 * cancelled: 3750 + 8000 + 25000 + 20000 = 56750 (integrated and cancellation); aircraft_swap: no plan.
 */
export const F6 = makeSchedule({
  name: 'f6-capacity',
  aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }, { tail: 'OE-AAB', fleet: 'A320', base: 'VIE' }, { tail: 'OE-AAC', fleet: 'A320', base: 'ZRH' }],
  flights: [
    ['NV101', 'OE-AAA', 'VIE', 'FRA', '10:10', '11:40', 100],
    ['NV201', 'OE-AAB', 'VIE', 'ZRH', '10:20', '11:35', 100],
    ['NV301', 'OE-AAC', 'ZRH', 'VIE', '09:20', '10:35', 100],
  ],
});

/**
 * F7 - an aircraft out of service: F2's schedule (OE-AAB idle at VIE), OE-AAA unavailable 12:00-14:00
 * (at VIE after NV102). t0 = 12:00: NV101, NV102 have departed; F = NV103, NV104; OE-AAB is in scope
 * (on the ground at VIE where OE-AAA leaves at 12:30).
 * delay_propagation: NV103 at 12:30 overlaps the period, pushed to 14:00 (90), lands 15:15; NV104 ready
 * 15:55 (85): 175 x 150 = 26250. The spare flies both on time: 2 x 400 = 800 (aircraft_swap, integrated).
 * cancellation (no swaps): the same delays on the 5-minute grid, 26250 (cancelling the round trip:
 * 16000 + 200 x 250 = 66000). On a 15-minute grid NV104 leaves 16:00 (90): 27000, while the propagated
 * plan keeps 15:55.
 */
export const F7 = F2;

/**
 * F8 - a disrupted cancellation. F2's schedule plus OE-AAC (E190, another family: never in scope)
 * NV305 ZRH-VIE 18:00-19:15 with 60 booked (40 free seats).
 * Cancelling NV104 (the last flight of OE-AAA; t0 = 14:30, K = OE-AAA only: OE-AAB is never at ZRH):
 * every strategy, delay_propagation included, cancels it; 40 of its passengers onto NV305 at 120 + 0.5 x
 * (19:15 - 15:45 = 210) = 225 each, 60 compensated at 250; OE-AAA ends at ZRH instead of VIE:
 * 8000 + 9000 + 15000 + 20000 = 52000, with or without allow_cancellations or max_cancellations 0.
 * Cancelling NV103 instead (t0 = 12:30; OE-AAB in scope) breaks the rotation: NV104 leaves ZRH where
 * nobody is. delay_propagation and aircraft_swap have no plan; cancellation and integrated also cancel
 * NV104: 16000 + 100 x 250 (NV103: no other VIE-ZRH flight) + 40 x 225 + 60 x 250 (NV104's) = 65000;
 * with max_cancellations 0 nothing is feasible.
 */
export const F8 = makeSchedule({
  name: 'f8-cancelled',
  aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'VIE' }, { tail: 'OE-AAB', fleet: 'A320', base: 'VIE' }, { tail: 'OE-AAC', fleet: 'E190', base: 'ZRH' }],
  flights: [
    ['NV101', 'OE-AAA', 'VIE', 'FRA', '08:00', '09:30', 100],
    ['NV102', 'OE-AAA', 'FRA', 'VIE', '10:15', '11:45', 100],
    ['NV103', 'OE-AAA', 'VIE', 'ZRH', '12:30', '13:45', 100],
    ['NV104', 'OE-AAA', 'ZRH', 'VIE', '14:30', '15:45', 100],
    ['NV305', 'OE-AAC', 'ZRH', 'VIE', '18:00', '19:15', 60],
  ],
});

/**
 * F9 - a hold protects a connection. OE-AAA (A320, base FRA): NV101 FRA-VIE 08:00-09:15, NV102 VIE-FRA
 * 10:00-11:15 (100 each). OE-AAB (A320, base VIE): NV201 VIE-ZRH 10:00-11:15 (80), NV202 ZRH-VIE
 * 12:30-13:45 (50), NV203 VIE-ZRH 14:30-15:45 (60). IT1: NV101 -> NV201, 20 passengers, VIE connection
 * 45 min. NV101 delayed 20; max_swaps 0. OE-AAB is in scope (at VIE when OE-AAA leaves at 10:00).
 * NV101 08:20-09:35 (3000), NV102 ready 10:15 (15 min, 2250). Without a hold IT1 breaks (09:35 + 45 >
 * 10:00); NV203 would cost 120 + 0.5 x (15:45 - 11:15 = 270) = 255 > 250: 20 x 250 = 5000, total 10250
 * (delay_propagation). Holding NV201 to 10:20 keeps IT1 (20 x (100 + 0.5 x 80) = 2800; NV202 stays on
 * time, ready 12:15): 8050, the optimum of the other three strategies.
 */
export const F9 = makeSchedule({
  name: 'f9-connection-hold',
  aircraft: [{ tail: 'OE-AAA', fleet: 'A320', base: 'FRA' }, { tail: 'OE-AAB', fleet: 'A320', base: 'VIE' }],
  flights: [
    ['NV101', 'OE-AAA', 'FRA', 'VIE', '08:00', '09:15', 100],
    ['NV102', 'OE-AAA', 'VIE', 'FRA', '10:00', '11:15', 100],
    ['NV201', 'OE-AAB', 'VIE', 'ZRH', '10:00', '11:15', 80],
    ['NV202', 'OE-AAB', 'ZRH', 'VIE', '12:30', '13:45', 50],
    ['NV203', 'OE-AAB', 'VIE', 'ZRH', '14:30', '15:45', 60],
  ],
  itineraries: [{ itinerary_id: 'IT1', passengers: 20, flights: [fid('NV101', '08:00'), fid('NV201', '10:00')] }],
});

/**
 * F10 - an itinerary of three flights. OE-AAA (A320, base FRA): NV101 FRA-VIE 08:00-09:15, NV102 VIE-FRA
 * 10:00-11:15 (100 each). OE-AAB (E190, base VIE, the only E-JET: never joined by a candidate): NV201
 * VIE-ZRH 10:30-11:45 (50). OE-AAC (A320, base ZRH): NV301 ZRH-PRG 12:45-13:50, NV302 PRG-ZRH
 * 14:30-15:35, NV303 ZRH-PRG 17:00-18:05 (60 each: 120 free seats). OE-AAD (A320, base VIE): NV401
 * VIE-PRG 13:00-13:50 (100: 80 free). IT3: NV101 -> NV201 -> NV301, 10 passengers; connection time 45
 * at VIE and ZRH. FRA-PRG is 407 km: 250 per passenger not re-accommodated.
 * NV201 delayed 45 (t0 10:30, K = OE-AAB, F = NV201): 45 x (100 + 0.5 x 50) = 5625; it lands 12:30,
 * 12:30 + 45 > 12:45: IT3 breaks at ZRH (at VIE it holds: 09:15 + 45 <= 11:15). From ZRH: NV303 at
 * 120 + 0.5 x (18:05 - 13:50 = 255) = 247.5; from VIE, the earlier hub, where they also are: NV401
 * (13:00 >= 10:00) at 120 + 0 = 120. 5625 + 10 x 120 = 6825, every strategy.
 * Without NV401: 5625 + 10 x 247.5 = 8100 (from ZRH, NV301 not taken). With
 * reaccommodation_delay_per_passenger_minute 1 as well: 375 > 250, compensated: 5625 + 2500 = 8125.
 * NV201 delayed 15: it lands 12:00, 12:00 + 45 = 12:45: the connection holds, 15 x 125 = 1875.
 */
export const F10 = makeSchedule({
  name: 'f10-three-flight-itinerary',
  aircraft: [
    { tail: 'OE-AAA', fleet: 'A320', base: 'FRA' }, { tail: 'OE-AAB', fleet: 'E190', base: 'VIE' },
    { tail: 'OE-AAC', fleet: 'A320', base: 'ZRH' }, { tail: 'OE-AAD', fleet: 'A320', base: 'VIE' },
  ],
  flights: [
    ['NV101', 'OE-AAA', 'FRA', 'VIE', '08:00', '09:15', 100],
    ['NV102', 'OE-AAA', 'VIE', 'FRA', '10:00', '11:15', 100],
    ['NV201', 'OE-AAB', 'VIE', 'ZRH', '10:30', '11:45', 50],
    ['NV301', 'OE-AAC', 'ZRH', 'PRG', '12:45', '13:50', 60],
    ['NV302', 'OE-AAC', 'PRG', 'ZRH', '14:30', '15:35', 60],
    ['NV303', 'OE-AAC', 'ZRH', 'PRG', '17:00', '18:05', 60],
    ['NV401', 'OE-AAD', 'VIE', 'PRG', '13:00', '13:50', 100],
  ],
  itineraries: [{ itinerary_id: 'IT3', passengers: 10, flights: [fid('NV101', '08:00'), fid('NV201', '10:30'), fid('NV301', '12:45')] }],
});

/**
 * F11 - an itinerary whose first leg is cancelled (docs/model.md 1.6). OE-AAA (A320, base FRA, the only
 * A320: no candidate ever joins it): NV101 FRA-VIE 08:00-09:15, 100 booked, of whom IT4's 10 continue
 * on NV201 VIE-ZRH 10:30-11:45 (OE-AAC, E190, 50 booked) and 90 go no further. E190s (100 seats each):
 * OE-AAB NV301 FRA-VIE 12:00-13:15 (70 booked: 30 free); OE-AAD NV401 FRA-ZRH 12:00-13:15 (95: 5 free);
 * OE-AAE NV203 VIE-ZRH 14:00-15:15 (90: 10 free). FRA-VIE 621 km, FRA-ZRH 287 km: 250 per passenger not
 * re-accommodated.
 * NV101 cancelled (t0 08:00, K = OE-AAA, F = NV101), in every strategy: 8000, and OE-AAA ends at FRA,
 * not VIE where its day was planned to end: 20000.
 * - NV101's own 90 passengers (FRA to VIE, planned 09:15): NV301 at 120 + 0.5 x (13:15 - 09:15 = 240)
 *   = 240 each, saving 10 on the compensation.
 * - IT4's 10 (at FRA, the origin, bound for ZRH, planned 11:45): NV401 at 120 + 0.5 x (13:15 - 11:45 =
 *   90) = 165 (saving 85; 5 seats), or NV301 then NV203 (13:15 + 45 = 14:00: it connects) at 120 + 0.5 x
 *   (15:15 - 11:45 = 210) = 225 (saving 25: an NV301 seat is worth more to them than to NV101's own).
 * So 5 on NV401 (825), 5 on NV301 then NV203 (1125), 25 of NV101's own on NV301 (6000), 65 compensated
 * (16250): 8000 + 20000 + 7950 + 16250 = 52200, every strategy. (Re-accommodated only to VIE, as
 * before this fix, IT4's passengers would have been 10 of 100 for NV301's 30 seats: 8000 + 20000 +
 * 30 x 240 + 70 x 250 = 52700, and would have missed NV201 besides.)
 */
export const F11 = makeSchedule({
  name: 'f11-itinerary-first-leg-cancelled',
  aircraft: [
    { tail: 'OE-AAA', fleet: 'A320', base: 'FRA' }, { tail: 'OE-AAB', fleet: 'E190', base: 'FRA' }, { tail: 'OE-AAC', fleet: 'E190', base: 'VIE' },
    { tail: 'OE-AAD', fleet: 'E190', base: 'FRA' }, { tail: 'OE-AAE', fleet: 'E190', base: 'VIE' },
  ],
  flights: [
    ['NV101', 'OE-AAA', 'FRA', 'VIE', '08:00', '09:15', 100],
    ['NV201', 'OE-AAC', 'VIE', 'ZRH', '10:30', '11:45', 50],
    ['NV301', 'OE-AAB', 'FRA', 'VIE', '12:00', '13:15', 70],
    ['NV401', 'OE-AAD', 'FRA', 'ZRH', '12:00', '13:15', 95],
    ['NV203', 'OE-AAE', 'VIE', 'ZRH', '14:00', '15:15', 90],
  ],
  itineraries: [{ itinerary_id: 'IT4', passengers: 10, flights: [fid('NV101', '08:00'), fid('NV201', '10:30')] }],
});
