// Unit: the distance a passenger's compensation goes by (docs/model.md 1.6): great-circle where both
// ends of the trip have coordinates, else the EU261 band of the trip's highest haul class.
import { describe, expect, it } from 'vitest';
import { eu261CompensationEur, tripDistanceKm } from '../../src/domain/passenger-rights.ts';
import type { Airport, Flight, Haul } from '../../src/domain/schedule.ts';

const airport = (code: string, lat: number | null, lon: number | null): Airport => ({
  code, name: code, timeZone: 'UTC', lat, lon, hub: false, maintenanceStation: false, minConnectionMinutes: 30, hourlyCapacity: [],
});
const flight = (origin: string, dest: string, haul: Haul | null): Flight => ({
  id: `XX1_${origin}${dest}`, flightNumber: 'XX1', airline: 'XX', tail: 'T1', origin, dest, depMinutes: 0, arrMinutes: 60,
  distanceKm: null, haul, bookedPassengers: 0, crewIds: [],
});
// Vienna and Lisbon (2,300 km apart, the 400 band); CDG and AMS as A01 has them, without coordinates.
const airports = new Map([
  ['VIE', airport('VIE', 48.11, 16.57)], ['LIS', airport('LIS', 38.77, -9.13)],
  ['CDG', airport('CDG', null, null)], ['AMS', airport('AMS', null, null)], ['NCE', airport('NCE', null, null)],
]);
const euros = (legs: Flight[]) => eu261CompensationEur(tripDistanceKm(airports, legs));

describe('tripDistanceKm', () => {
  it('unit: both ends with coordinates, the great-circle distance, whatever the flights\' classes say', () => {
    expect(tripDistanceKm(airports, [flight('VIE', 'LIS', 'domestic')])).toBeCloseTo(2300, -2);
    expect(euros([flight('VIE', 'LIS', 'domestic')])).toBe(400);
  });

  it('unit: an end without coordinates, each haul class in its own EU261 band: 250, 400, 600', () => {
    expect(euros([flight('CDG', 'NCE', 'domestic')])).toBe(250);
    expect(euros([flight('CDG', 'AMS', 'continental')])).toBe(400);
    expect(euros([flight('CDG', 'AMS', 'intercontinental')])).toBe(600);
  });

  it('unit: a trip of several flights goes by the highest class among them, in any order', () => {
    expect(euros([flight('NCE', 'CDG', 'domestic'), flight('CDG', 'AMS', 'continental')])).toBe(400);
    expect(euros([flight('NCE', 'CDG', 'continental'), flight('CDG', 'AMS', 'domestic')])).toBe(400);
  });

  it('unit: neither coordinates nor a class throws (such a schedule is refused before any simulation)', () => {
    expect(() => tripDistanceKm(airports, [flight('CDG', 'AMS', null)])).toThrow(/no haul class/);
  });
});
