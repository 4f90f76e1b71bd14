// A schedule as an SSIM Chapter 7 file, in local time (time mode L): per airline a carrier record,
// one flight leg record per flight (a period of one day), and a trailer. Each leg names the next
// flight of its aircraft as its onward flight, so that an import gives the flights the same aircraft
// rotations (read-ssim.ts, rule 1). Aircraft types are the IATA codes of TYPE_BY_FLEET.
import { formatUtc, utcOffsetMinutes } from '../../domain/time.ts';
import type { ScheduleFile } from '../schedule-json/schedule-file.ts';
import { TYPE_BY_FLEET } from './read-ssim.ts';
import { writeCarrier, writeHeader, writeLeg, writeTrailer, type LegRecord } from './records.ts';

const minutesOf = (iso: string) => Date.parse(iso) / 60_000;

/** Local date (epoch days) and minutes of the day of an instant at a UTC variation. */
const localParts = (minutes: number, variation: number) => {
  const local = minutes + variation;
  return { day: Math.floor(local / 1440), clock: ((local % 1440) + 1440) % 1440 };
};

export function scheduleToSsim(file: ScheduleFile, options: { createdDay?: number } = {}): string {
  const zones = new Map(file.airports.map((a) => [a.code, a.time_zone]));
  const fleets = new Map(file.aircraft.map((a) => [a.tail, { fleet: a.fleet, seats: a.seats }]));
  const lines = [writeHeader(1)];
  let serial = 1;
  const createdDay = options.createdDay ?? Math.floor(Date.now() / 86_400_000);
  for (const airline of [...file.airlines].sort((a, b) => a.code.localeCompare(b.code))) {
    const flights = file.flights.filter((f) => f.airline === airline.code).map((f) => {
      const dep = minutesOf(f.dep);
      const arr = minutesOf(f.arr);
      const depVariation = utcOffsetMinutes(zones.get(f.origin) ?? 'UTC', dep);
      const arrVariation = utcOffsetMinutes(zones.get(f.dest) ?? 'UTC', arr);
      return { f, dep, arr, depVariation, arrVariation, depLocal: localParts(dep, depVariation), arrLocal: localParts(arr, arrVariation) };
    });
    if (flights.length === 0) continue;
    const nextOnTail = new Map<(typeof flights)[number], (typeof flights)[number]>();
    const byTail = new Map<string, typeof flights>();
    for (const x of flights) byTail.set(x.f.tail, [...(byTail.get(x.f.tail) ?? []), x]);
    for (const rotation of byTail.values()) {
      rotation.sort((a, b) => a.dep - b.dep);
      rotation.forEach((x, i) => { if (i + 1 < rotation.length) nextOnTail.set(x, rotation[i + 1]!); });
    }
    flights.sort((a, b) => a.f.flight_number.localeCompare(b.f.flight_number, 'en', { numeric: true }) || a.dep - b.dep);
    const days = flights.map((x) => x.depLocal.day);
    lines.push(writeCarrier({ timeMode: 'L', airline: airline.code, validFromDay: Math.min(...days), validToDay: Math.max(...days), title: airline.name }, ++serial, createdDay));
    const sequence = new Map<string, number>();
    for (const x of flights) {
      const key = `${x.f.flight_number}@${x.depLocal.day}`;
      const legSequence = (sequence.get(key) ?? 0) + 1;
      sequence.set(key, legSequence);
      const aircraft = fleets.get(x.f.tail);
      const next = nextOnTail.get(x);
      // Counted at the station both share: this flight's arrival date to the next one's departure date.
      const layoverDays = next ? next.depLocal.day - x.arrLocal.day : 0;
      const leg: LegRecord = {
        airline: airline.code,
        flightNumber: Number(x.f.flight_number.slice(2)),
        itineraryVariation: 1,
        legSequence,
        serviceType: 'J',
        periodFromDay: x.depLocal.day,
        periodToDay: x.depLocal.day,
        days: [((new Date(x.depLocal.day * 86_400_000).getUTCDay() + 6) % 7) + 1],
        origin: x.f.origin,
        depClock: x.depLocal.clock,
        depVariation: x.depVariation,
        dest: x.f.dest,
        arrClock: x.arrLocal.clock,
        arrVariation: x.arrVariation,
        arrDateVariation: x.arrLocal.day - x.depLocal.day,
        aircraftType: TYPE_BY_FLEET[aircraft?.fleet ?? ''] ?? (aircraft?.fleet ?? 'XXX').slice(-3).toUpperCase(),
        seats: aircraft?.seats ?? null,
        onward: next && layoverDays >= 0 && layoverDays <= 9 ? { airline: airline.code, flightNumber: Number(next.f.flight_number.slice(2)), layoverDays } : null,
      };
      if (leg.arrDateVariation < -1 || leg.arrDateVariation > 9) throw new Error(`Flight ${x.f.flight_number} of ${formatUtc(x.dep)} arrives ${leg.arrDateVariation} days after its departure date: SSIM cannot say so.`);
      lines.push(writeLeg(leg, ++serial));
    }
    lines.push(writeTrailer(airline.code, ++serial));
  }
  return `${lines.join('\n')}\n`;
}
