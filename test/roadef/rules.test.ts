// Unit: one broken-on-purpose solution per feasibility rule of spec section 4, each built from a
// feasible solution by one small edit, must raise exactly that rule and no other. The A01-A04
// calibration solutions serve wherever their data allow it; the few rules they cannot raise alone
// (swaps onto spare aircraft, night maintenance, shuttle reassignment, class I delays over several
// days) use the reference plan of a small synthetic instance (support.ts).
import { describe, expect, it } from 'vitest';
import { RULES, type RuleId } from '../../src/formats/roadef-2009/score/rules.ts';
import type { ScoreReport } from '../../src/formats/roadef-2009/score/score.ts';
import { calibration, syntheticBaseline, type SolutionEdit } from './support.ts';

const D = '07/01/06';
/** Days of the synthetic instance. */
const DAY1 = '01/03/09';
const DAY2 = '02/03/09';
const DAY3 = '03/03/09';

const CASES: Record<RuleId, { edit: string; build: () => SolutionEdit }> = {
  'format': { edit: 'A01: a sol_rotations.csv record with 4 fields', build: () => calibration('A01').addRotation(`9001 CFE CLY 18:20`) },
  'flight.missing': { edit: 'A02: the record of the cancelled 4651 is dropped', build: () => calibration('A02').removeRotation(`4651 ${D}`) },
  'flight.duplicate': { edit: 'A01: the record of 4344 written twice', build: () => { const e = calibration('A01'); return e.addRotation(e.rotation(`4344 ${D}`)); } },
  'flight.od-changed': { edit: 'A02: the cancelled 4651 written from ORY instead of CDG', build: () => calibration('A02').set(`4651 ${D}`, { orig: 'ORY' }) },
  'flight.duration-changed': { edit: 'A02: the cancelled 4651 written 17:25-18:51 (86 min, planned 85)', build: () => calibration('A02').set(`4651 ${D}`, { arr: '18:51' }) },
  'flight.linked-changed': { edit: 'A02: the cancelled 4651 written with PREV 4650', build: () => calibration('A02').set(`4651 ${D}`, { prev: '4650' }) },
  'flight.departs-early': {
    edit: 'A01: 4337 (ERJ145#1, last leg) leaves at 12:15 instead of 12:20; the passengers boarding there are not carried',
    build: () => calibration('A01').set(`4337 ${D}`, { dep: '12:15', arr: shift(calibration('A01').rotation(`4337 ${D}`), 4, -5) }).dropPassengersBoarding(`4337 ${D}`),
  },
  'flight.new-linked': {
    edit: 'A01: probe P4 (a new CFE-CLY-CFE round trip) with PREV 4344 on its first flight',
    build: () => calibration('A01').addRotation(`9001 CFE CLY 18:20 19:35 4344 ${D} A318#1`).addRotation(`9002 CLY CFE 20:05 21:20 0 ${D} A318#1`),
  },
  'flight.new-duration': {
    edit: 'A01: probe P4 with its first flight 74 min long (dist.csv: 75)',
    build: () => calibration('A01').addRotation(`9001 CFE CLY 18:20 19:34 0 ${D} A318#1`).addRotation(`9002 CLY CFE 20:05 21:20 0 ${D} A318#1`),
  },
  'flight.new-before-recovery': {
    edit: 'A01: A318#2, idle at ETZ from 10:14 to 14:30, flies a new ETZ-LYS-ETZ round trip leaving at 10:50 (S = 12:00)',
    build: () => calibration('A01').addRotation(`9001 ETZ LYS 10:50 11:55 0 ${D} A318#2`).addRotation(`9002 LYS ETZ 12:30 13:35 0 ${D} A318#2`),
  },
  'created.cancelled': { edit: 'A01: a new flight written as cancelled', build: () => calibration('A01').addRotation(`9001 CFE CLY 18:20 19:35 0 ${D} cancelled`) },
  'aircraft.unknown': { edit: 'A01: a new flight on aircraft A318#99', build: () => calibration('A01').addRotation(`9001 CFE CLY 18:20 19:35 0 ${D} A318#99`) },
  'fixed.cancellation-not-respected': {
    edit: 'A03: 2988 (cancelled by alt_flights.csv) flown by A320#7 at 21:40 after its last leg',
    build: () => calibration('A03').set(`2988 ${D}`, { dep: '21:40', arr: '23:00', aircraft: 'A320#7' }),
  },
  'fixed.disrupted-cancelled': {
    edit: 'A03: 4349 (delayed to 15:40, the last leg of ERJ145#2) cancelled, its passengers stopped where they are',
    build: () => calibration('A03').cancelFlights(`4349 ${D}`),
  },
  'fixed.disrupted-time': { edit: 'A01: 4344 (delayed 18 min) leaves one minute later still', build: () => calibration('A01').set(`4344 ${D}`, { dep: '06:09', arr: '07:29' }) },
  'fixed.disrupted-aircraft': {
    edit: 'synthetic: the spare CRJ700#45 flies CRJ700#5\'s legs from its delayed 1010 on',
    build: () => syntheticBaseline().reassign('CRJ700#5', 'CRJ700#45', `1010 ${DAY1}`),
  },
  'fixed.cancelled': {
    edit: 'A01: the first round trip of shuttle TranspCom#1 (1 and 75, before the window) cancelled',
    build: () => calibration('A01').cancelFlights(`1 ${D}`, `75 ${D}`),
  },
  'fixed.time': { edit: 'A01: 1363 (A320#2, 08:25, before the window, undisrupted) leaves one minute late', build: () => calibration('A01').set(`1363 ${D}`, { dep: '08:26', arr: shift(calibration('A01').rotation(`1363 ${D}`), 4, 1) }) },
  'fixed.aircraft': {
    edit: 'synthetic: the spare A320#41 flies A320#21\'s legs from its 1074 (09:15, before the window) on',
    build: () => syntheticBaseline().reassign('A320#21', 'A320#41', `1074 ${DAY1}`),
  },
  'fixed.shuttle-cancelled': {
    edit: 'A01: the last round trip of shuttle TranspCom#4 (142 and 72) cancelled',
    build: () => calibration('A01').cancelFlights(`142 ${D}`, `72 ${D}`),
  },
  'fixed.shuttle-time': { edit: 'A01: the last shuttle leg 72 leaves at 23:45 instead of 23:40', build: () => calibration('A01').set(`72 ${D}`, { dep: '23:45', arr: '00:15+1' }) },
  'fixed.shuttle-aircraft': {
    edit: 'synthetic: the spare shuttle TranspCom#3 runs TranspCom#1\'s last round trip (legs 23 and 24 of the third day)',
    build: () => syntheticBaseline().set(`23 ${DAY3}`, { aircraft: 'TranspCom#3' }).set(`24 ${DAY3}`, { aircraft: 'TranspCom#3' }),
  },
  'swap.family': {
    edit: 'synthetic: the spare E190#44 flies CRJ700#5\'s last round trip (1012 and 1013 of the third day)',
    build: () => syntheticBaseline().set(`1012 ${DAY3}`, { aircraft: 'E190#44' }).set(`1013 ${DAY3}`, { aircraft: 'E190#44' }),
  },
  'aircraft.breakdown': {
    edit: 'A03: A321#2, out of service from 13:00, flies its cancelled evening round trip 4274/4275',
    build: () => calibration('A03').set(`4274 ${D}`, { aircraft: 'A321#2' }).set(`4275 ${D}`, { aircraft: 'A321#2' }),
  },
  'rotation.initial-position': {
    edit: 'synthetic: the spare A320#41 (at ZAA) flies a new flight from ZAB to ZAA',
    build: () => syntheticBaseline().addRotation(`9001 ZAB ZAA 12:00 13:30 0 ${DAY3} A320#41`),
  },
  'rotation.range': {
    edit: 'A01: CRJ100#2 (range 120 min) flies new flights ORY-FSC and FSC-AMS (125 min) after its last leg',
    build: () => calibration('A01').addRotation(`9001 ORY FSC 15:00 16:45 0 ${D} CRJ100#2`).addRotation(`9002 FSC AMS 20:00 22:05 0 ${D} CRJ100#2`),
  },
  'rotation.continuity': {
    edit: 'A01: A318#1, which ends at CFE, flies a new flight from CLY',
    build: () => calibration('A01').addRotation(`9001 CLY CFE 18:20 19:35 0 ${D} A318#1`),
  },
  'rotation.turn-round': {
    edit: 'A01: probe P4 leaving 25 min after A318#1 lands (turn-round 30)',
    build: () => calibration('A01').addRotation(`9001 CFE CLY 18:15 19:30 0 ${D} A318#1`).addRotation(`9002 CLY CFE 20:00 21:15 0 ${D} A318#1`),
  },
  'rotation.transit': {
    edit: 'A01: 2601 (ERJ135#2) one minute late, leaving 19 min before its linked 2602 (transit 20)',
    build: () => calibration('A01').set(`2601 ${D}`, { dep: '15:01', arr: '15:21' }),
  },
  'rotation.after-recovery-end': {
    edit: 'A01: A319#4, at ORY, flies a new ORY-CDG flight landing at 04:05 the next day (window end 04:00)',
    build: () => calibration('A01').addRotation(`9001 ORY CDG 03:30+1 04:05+1 0 ${D} A319#4`),
  },
  'rotation.maint-arrival': {
    edit: 'synthetic: A320#6\'s last leg of day 1 (1017) leaves at 21:10 and lands at 23:40, after its maintenance starts at 23:30',
    build: () => syntheticBaseline().set(`1017 ${DAY1}`, { dep: '21:10', arr: '23:40' }),
  },
  'rotation.maint-position': {
    edit: 'synthetic: B737#18 flies to ZAD in the evening before its night maintenance at ZAB and back the next morning',
    build: () => syntheticBaseline().addRotation(`9001 ZAB ZAD 19:00 20:30 0 ${DAY1} B737#18`).addRotation(`9002 ZAD ZAB 06:00 07:30 0 ${DAY2} B737#18`),
  },
  'rotation.maint-flying-time': {
    edit: 'synthetic: CRJ700#30 flies a new ZAB-ZAX-ZAB round trip (140 min) before its maintenance (budget 230, 140 flown)',
    build: () => syntheticBaseline().addRotation(`9001 ZAB ZAX 18:00 19:10 0 ${DAY1} CRJ700#30`).addRotation(`9002 ZAX ZAB 19:40 20:50 0 ${DAY1} CRJ700#30`),
  },
  'rotation.maint-leaves-early': {
    edit: 'A01: A319#15, in maintenance at CDG from 10:00 to 15:00, flies a new CDG-LYS-CDG round trip from 12:30',
    build: () => calibration('A01').addRotation(`9001 CDG LYS 12:30 13:45 0 ${D} A319#15`).addRotation(`9002 LYS CDG 14:20 15:35 0 ${D} A319#15`),
  },
  'airport.departures': {
    edit: 'A01: F100#2, idle at SXB, flies a new SXB-LYS flight at 18:10, when SXB\'s one departure of the hour is taken',
    build: () => calibration('A01').addRotation(`9001 SXB LYS 18:10 19:10 0 ${D} F100#2`),
  },
  'airport.arrivals': {
    edit: 'A01: A318#1 flies a new CFE-LYS-CFE round trip back at 20:40, when CFE\'s one arrival of the hour is taken',
    build: () => calibration('A01').addRotation(`9001 CFE LYS 18:20 19:00 0 ${D} A318#1`).addRotation(`9002 LYS CFE 20:00 20:40 0 ${D} A318#1`),
  },
  'capacity.first': { edit: 'A01: itinerary 1048 travels First on 2603 (ERJ135, no First cabin)', build: () => calibration('A01').retrip(1048, `2603 ${D} F`) },
  'capacity.business': { edit: 'A01: itinerary 1048 travels Business on 2603 (no Business cabin)', build: () => calibration('A01').retrip(1048, `2603 ${D} B`) },
  'capacity.eco': {
    edit: 'A01: the five Business passengers of itinerary 125 travel Economy on 4595 (A319#1, Economy already full: 51 of 51)',
    build: () => calibration('A01').retrip(125, `4595 ${D} E`),
  },
  'itinerary.empty': {
    edit: 'A01: itinerary 14 split: one passenger as booked, one on a line with neither legs nor cancelled',
    build: () => calibration('A01').replaceLines(14, `14 A 312.5 1 4502 ${D} E 4601 ${D} E`, '14 A 312.5 1'),
  },
  'itinerary.flight-after-cancellation': {
    edit: 'A01: itinerary 48 (stopped after 4225) writes 4596 after cancelled',
    build: () => calibration('A01').replaceLines(48, `48 A 325.0 12 4225 ${D} E cancelled 4596 ${D} E`),
  },
  'itinerary.fixed-part-missing': { edit: 'A01: itinerary 48 cancelled without the 4225 its passengers had flown', build: () => calibration('A01').replaceLines(48, '48 A 325.0 12 cancelled') },
  'itinerary.unknown-flight': { edit: 'A01: itinerary 1048 on 2603 of the next day, which has no record', build: () => calibration('A01').retrip(1048, `2603 08/01/06 E`) },
  'itinerary.cancelled-flight-taken': { edit: 'A02: the passengers of itinerary 656 put back on the cancelled 4651', build: () => calibration('A02').replaceLines(656, `656 A 212.5 89 4651 ${D} E`) },
  'itinerary.airports-differ': {
    edit: 'A01: itinerary 110 (BES-CDG-MLH) continues from ORY on 4203 after landing at CDG',
    build: () => calibration('A01').retrip(110, `4602 ${D} B`, `4203 ${D} E`),
  },
  'itinerary.connection-time': {
    edit: 'A01: itinerary 905 connects at NCE from 3075 (lands 13:35) onto 3112 (leaves 13:35)',
    build: () => calibration('A01').retrip(905, `3075 ${D} E`, `3112 ${D} E`),
  },
  'pax.unknown-itinerary': { edit: 'A01: a line for itinerary 99999', build: () => calibration('A01').addLine('99999 A 100.0 1 cancelled') },
  'pax.count': { edit: 'A01: itinerary 232 written with 4 passengers instead of 3', build: () => calibration('A01').replaceLines(232, '232 A 337.5 4 cancelled') },
  'pax.wrong-type': { edit: 'A01: itinerary 232 written inbound (R)', build: () => calibration('A01').replaceLines(232, '232 R 337.5 3 cancelled') },
  'pax.origin': { edit: 'A01: itinerary 110 (BES-CDG-MLH) travels only CDG-MLH', build: () => calibration('A01').retrip(110, `149 ${D} E`) },
  'pax.departs-early': { edit: 'A01: itinerary 20 (4352 BIQ-ORY at 16:20) flies 4348 at 12:50 instead', build: () => calibration('A01').retrip(20, `4348 ${D} E`) },
  'pax.final-destination': { edit: 'A01: itinerary 110 (BES-CDG-MLH) stops at CDG without cancelled', build: () => calibration('A01').retrip(110, `4602 ${D} B`) },
  'pax.cancelled-after-recovery-start': {
    edit: 'A01: itinerary 18 flies 4501 (13:30, after S) and is marked cancelled (spec 4.9)',
    build: () => calibration('A01').replaceLines(18, `18 A 212.5 8 4501 ${D} E cancelled`),
  },
  'pax.max-delay-18h': {
    edit: 'synthetic: outbound itinerary 380 (class D) flies its 1099 a day later',
    build: () => syntheticBaseline().retrip(380, `1099 ${DAY2} E`),
  },
  'pax.max-delay-36h': {
    edit: 'synthetic: outbound itinerary 216 (class I) flies its 1001 two days later',
    build: () => syntheticBaseline().retrip(216, `1001 ${DAY3} E`),
  },
};

/** The ARR field of a record shifted by `minutes` (same-day times only). */
function shift(record: string, field: number, minutes: number): string {
  const text = record.split(' ')[field]!;
  const total = Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5)) + minutes;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

function described(report: ScoreReport): string {
  return report.violations.map((v) => `${v.rule} ×${v.count}: ${v.examples.join(' | ')}`).join('\n') || 'no violation';
}

describe('the baselines the edits start from are feasible', () => {
  it('the four calibration solutions and the reference plan of the synthetic instance', () => {
    for (const name of ['A01', 'A02', 'A03', 'A04'] as const) expect(described(calibration(name).score()), name).toBe('no violation');
    expect(described(syntheticBaseline().score())).toBe('no violation');
  });
});

describe('each rule, broken on purpose, raises exactly that rule', () => {
  for (const rule of RULES) {
    const c = CASES[rule.id];
    it(`${rule.id} (${rule.ref}): ${c.edit}`, () => {
      const report = c.build().score();
      expect(report.feasible).toBe(false);
      expect(report.violations.map((v) => v.rule), described(report)).toEqual([rule.id]);
      expect(report.violations[0]!.count).toBeGreaterThan(0);
      expect(report.violations[0]!.examples.length).toBeGreaterThan(0);
    });
  }

  it('every rule of the catalogue has its case, and no case names an unknown rule', () => {
    expect(Object.keys(CASES).sort()).toEqual(RULES.map((r) => r.id).sort());
  });
});
