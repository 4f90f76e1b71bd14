// EASA crew flight-time limitation rules. The schedule generator sets each duty's maximum flight-duty
// period with them; the recovery engine then reads that maximum from the schedule (max_duty_minutes)
// and never recomputes it, so a schedule may carry limits of another regime.

/** Each sector beyond the second takes this much off the maximum daily FDP (EASA Table 2 columns). */
export const EASA_SECTOR_REDUCTION_MINUTES = 30;
/** EASA Table 2 never goes below 9:00, whatever the number of sectors. */
export const EASA_MIN_FDP_MINUTES = 9 * 60;

const hm = (h: number, m: number): number => h * 60 + m;

/**
 * Rows of EASA Table 2 for 1-2 sectors, keyed by the start of the FDP (local time of the reference
 * point, i.e. the crew base): [first minute, last minute, maximum FDP in minutes]. 17:00-04:59
 * wraps past midnight and is split into two rows.
 */
const TABLE_2_ONE_TWO_SECTORS: ReadonlyArray<readonly [number, number, number]> = [
  [hm(0, 0), hm(4, 59), hm(11, 0)],
  [hm(5, 0), hm(5, 14), hm(12, 0)],
  [hm(5, 15), hm(5, 29), hm(12, 15)],
  [hm(5, 30), hm(5, 44), hm(12, 30)],
  [hm(5, 45), hm(5, 59), hm(12, 45)],
  [hm(6, 0), hm(13, 29), hm(13, 0)],
  [hm(13, 30), hm(13, 59), hm(12, 45)],
  [hm(14, 0), hm(14, 29), hm(12, 30)],
  [hm(14, 30), hm(14, 59), hm(12, 15)],
  [hm(15, 0), hm(15, 29), hm(12, 0)],
  [hm(15, 30), hm(15, 59), hm(11, 45)],
  [hm(16, 0), hm(16, 29), hm(11, 30)],
  [hm(16, 30), hm(16, 59), hm(11, 15)],
  [hm(17, 0), hm(23, 59), hm(11, 0)],
];

/**
 * Maximum daily flight-duty period in minutes for an acclimatised crew member, from
 * EASA Commission Regulation (EU) No 965/2012 as amended by (EU) No 83/2014,
 * Annex III (Part-ORO), ORO.FTL.205(b)(1), Table 2 "Maximum daily FDP — Acclimatised crew members".
 *
 * `reportLocalMinuteOfDay` is the start of the FDP (the crew's report time) as a wall-clock minute
 * of the day (0..1439) in the local time of the crew's reference point (their base); `sectors` is
 * the number of flights in the duty. The base value for 1-2 sectors depends on the start time:
 *
 *   06:00-13:29 13:00 | 13:30-13:59 12:45 | 14:00-14:29 12:30 | 14:30-14:59 12:15 | 15:00-15:29 12:00
 *   15:30-15:59 11:45 | 16:00-16:29 11:30 | 16:30-16:59 11:15 | 17:00-04:59 11:00 | 05:00-05:14 12:00
 *   05:15-05:29 12:15 | 05:30-05:44 12:30 | 05:45-05:59 12:45
 *
 * and each sector beyond the second takes 30 minutes off, never below 9:00. Extensions
 * (ORO.FTL.205(d)), in-flight rest and split duty are not modelled.
 * Throws RangeError for a minute outside 0..1439 or a sector count that is not a positive integer.
 */
export function easaMaxFdpMinutes(reportLocalMinuteOfDay: number, sectors: number): number {
  if (!Number.isInteger(reportLocalMinuteOfDay) || reportLocalMinuteOfDay < 0 || reportLocalMinuteOfDay > 1439) {
    throw new RangeError(`report time must be a whole minute of the day 0..1439, got ${reportLocalMinuteOfDay}`);
  }
  if (!Number.isInteger(sectors) || sectors < 1) throw new RangeError(`sectors must be a positive integer, got ${sectors}`);
  const row = TABLE_2_ONE_TWO_SECTORS.find(([from, to]) => reportLocalMinuteOfDay >= from && reportLocalMinuteOfDay <= to)!;
  const reduced = row[2] - Math.max(0, sectors - 2) * EASA_SECTOR_REDUCTION_MINUTES;
  return Math.max(EASA_MIN_FDP_MINUTES, reduced);
}
