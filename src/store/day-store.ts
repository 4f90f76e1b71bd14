// Where operational days live: the days, their revisions and the simulations run on them, in
// PostgreSQL (embedded PGlite or a server: database.ts). Every read and write names the environment
// (APP_ENV) of the caller's key: a day of another environment is null, exactly as one that does not
// exist.
//
// How a revision is written (writeRevision): one transaction moves days.revision from the revision
// the writer read to the next one, guarded by `where revision = <expected>`, and inserts the
// revision's row. Two writers racing on one day both try that update; the second finds the revision
// moved and writes nothing (on a server it waits for the first to commit, then sees the new value).
// A process killed mid-write leaves the transaction uncommitted: the revision is there whole or not
// at all.
import { randomUUID } from 'node:crypto';
import type { DayDelta } from '../domain/day/delta.ts';
import type { DayWindow } from '../domain/day/day.ts';
import type { SimulationResult } from '../recovery/model/result.ts';
import type { SimulationRequest } from '../recovery/pipeline.ts';
import type { Database, Queryable } from './database.ts';

export const REVISION_KINDS = ['open', 'apply', 'movements', 'revert'] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];

export interface DayRecord {
  id: string;
  environment: string;
  scheduleName: string;
  window: DayWindow;
  /** The current revision's number (the first is 1, the day as opened). */
  revision: number;
  createdAtMs: number;
  updatedAtMs: number;
}

/** Who wrote a revision, and why. */
export interface RevisionAuthor {
  /** The first 16 hex digits of the SHA-256 of the writer's API key. */
  keyId: string;
  /** The X-Operator name the writer gave, if any. */
  operator: string | null;
}

export interface RevisionRecord extends RevisionAuthor {
  dayId: string;
  number: number;
  kind: RevisionKind;
  createdAtMs: number;
  /** For an applied option: the simulation and the option. */
  simulationId: string | null;
  optionId: string | null;
  /** For a revert: the revision restored. */
  revertedTo: number | null;
  delta: DayDelta;
}

export type NewRevision = Pick<RevisionRecord, 'kind' | 'keyId' | 'operator' | 'simulationId' | 'optionId' | 'revertedTo' | 'delta'>;

export interface SimulationRecord {
  id: string;
  dayId: string;
  /** The revision it was computed on. */
  revision: number;
  createdAtMs: number;
  /** The SHA-256 (hex) of the key that ran it: a job's owner in the job store. */
  owner: string;
  request: SimulationRequest;
  /** Null while it runs as a job (then `job` is true and the job store has its progress and result). */
  result: SimulationResult | null;
  job: boolean;
}

export type RevisionWrite = { written: true; revision: RevisionRecord } | { written: false; currentRevision: number };

export interface DayStore {
  /** Opens a day: the day and its revision 1 (kind 'open', an empty delta). */
  createDay(environment: string, day: { scheduleName: string; window: DayWindow }, author: RevisionAuthor): Promise<DayRecord>;
  getDay(environment: string, id: string): Promise<DayRecord | null>;
  /** The environment's days, newest first. */
  listDays(environment: string, limit: number): Promise<DayRecord[]>;
  getRevision(environment: string, dayId: string, number: number): Promise<RevisionRecord | null>;
  /** Every revision of the day, oldest first; null when there is no such day. */
  listRevisions(environment: string, dayId: string): Promise<RevisionRecord[] | null>;
  /**
   * Writes the next revision after `expectedRevision`, atomically; `{written: false}` with the
   * current number when the day has moved on (or null when there is no such day).
   */
  writeRevision(environment: string, dayId: string, expectedRevision: number, revision: NewRevision): Promise<RevisionWrite | null>;
  /** Keeps a simulation with its day (the caller has read the day, in the caller's environment). */
  saveSimulation(simulation: Omit<SimulationRecord, 'createdAtMs'>): Promise<void>;
  getSimulation(environment: string, id: string): Promise<SimulationRecord | null>;
  close(): Promise<void>;
}

export interface DayStoreOptions {
  /**
   * FAULT INJECTION FOR TESTS ONLY (FAULT_DAY_WRITE_PAUSE_MS): a revision write waits this long
   * inside its transaction, after moving days.revision and before inserting the revision, and calls
   * `onPause` first, so that a test can kill the process mid-write. 0 in production.
   */
  writePauseMs?: number;
  onPause?: () => void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const DAY_COLUMNS = `id, environment, schedule_name, window_from_minutes, window_to_minutes, revision,
  (extract(epoch from created_at) * 1000)::float8 as created_ms, (extract(epoch from updated_at) * 1000)::float8 as updated_ms`;
const REVISION_COLUMNS = `day_id, number, kind, (extract(epoch from created_at) * 1000)::float8 as created_ms, key_id, operator,
  simulation_id, option_id, reverted_to, delta`;

interface DayRow { id: string; environment: string; schedule_name: string; window_from_minutes: number; window_to_minutes: number; revision: number; created_ms: number; updated_ms: number }
interface RevisionRow {
  day_id: string; number: number; kind: RevisionKind; created_ms: number; key_id: string; operator: string | null;
  simulation_id: string | null; option_id: string | null; reverted_to: number | null; delta: DayDelta;
}
interface SimulationRow { id: string; day_id: string; revision: number; created_ms: number; key_id: string; request: SimulationRequest; result: SimulationResult | null; job: boolean }

const dayOf = (r: DayRow): DayRecord => ({
  id: r.id, environment: r.environment, scheduleName: r.schedule_name, window: { fromMinutes: r.window_from_minutes, toMinutes: r.window_to_minutes },
  revision: r.revision, createdAtMs: r.created_ms, updatedAtMs: r.updated_ms,
});
const revisionOf = (r: RevisionRow): RevisionRecord => ({
  dayId: r.day_id, number: r.number, kind: r.kind, createdAtMs: r.created_ms, keyId: r.key_id, operator: r.operator,
  simulationId: r.simulation_id, optionId: r.option_id, revertedTo: r.reverted_to, delta: r.delta,
});

export function createDayStore(db: Database, options: DayStoreOptions = {}): DayStore {
  const insertRevision = (tx: Queryable, dayId: string, number: number, at: Date, r: NewRevision) => tx.query(
    `insert into day_revisions (day_id, number, kind, created_at, key_id, operator, simulation_id, option_id, reverted_to, delta)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)`,
    [dayId, number, r.kind, at.toISOString(), r.keyId, r.operator, r.simulationId, r.optionId, r.revertedTo, JSON.stringify(r.delta)],
  );

  return {
    async createDay(environment, day, author) {
      const id = randomUUID();
      const at = new Date();
      await db.transaction(async (tx) => {
        await tx.query(
          `insert into days (id, environment, schedule_name, window_from_minutes, window_to_minutes, revision, created_at, updated_at)
           values ($1, $2, $3, $4, $5, 1, $6, $6)`,
          [id, environment, day.scheduleName, day.window.fromMinutes, day.window.toMinutes, at.toISOString()],
        );
        await insertRevision(tx, id, 1, at, { kind: 'open', ...author, simulationId: null, optionId: null, revertedTo: null, delta: { flights: [], bookings: [], removedBookingIds: [] } });
      });
      return { id, environment, scheduleName: day.scheduleName, window: day.window, revision: 1, createdAtMs: at.getTime(), updatedAtMs: at.getTime() };
    },

    async getDay(environment, id) {
      if (!UUID.test(id)) return null;
      const { rows } = await db.query<DayRow>(`select ${DAY_COLUMNS} from days where id = $1 and environment = $2`, [id, environment]);
      return rows[0] ? dayOf(rows[0]) : null;
    },

    async listDays(environment, limit) {
      const { rows } = await db.query<DayRow>(`select ${DAY_COLUMNS} from days where environment = $1 order by created_at desc, id limit $2`, [environment, limit]);
      return rows.map(dayOf);
    },

    async getRevision(environment, dayId, number) {
      if (!UUID.test(dayId)) return null;
      const { rows } = await db.query<RevisionRow>(
        `select ${REVISION_COLUMNS} from day_revisions r where r.day_id = $1 and r.number = $2
           and exists (select 1 from days d where d.id = r.day_id and d.environment = $3)`,
        [dayId, number, environment],
      );
      return rows[0] ? revisionOf(rows[0]) : null;
    },

    async listRevisions(environment, dayId) {
      if (!(await this.getDay(environment, dayId))) return null;
      const { rows } = await db.query<RevisionRow>(`select ${REVISION_COLUMNS} from day_revisions where day_id = $1 order by number`, [dayId]);
      return rows.map(revisionOf);
    },

    async writeRevision(environment, dayId, expectedRevision, revision) {
      if (!UUID.test(dayId)) return null;
      const at = new Date();
      const number = expectedRevision + 1;
      return db.transaction(async (tx): Promise<RevisionWrite | null> => {
        const moved = await tx.query('update days set revision = $1, updated_at = $2 where id = $3 and environment = $4 and revision = $5', [number, at.toISOString(), dayId, environment, expectedRevision]);
        if (moved.rowCount === 0) {
          const { rows } = await tx.query<{ revision: number }>('select revision from days where id = $1 and environment = $2', [dayId, environment]);
          return rows[0] ? { written: false, currentRevision: rows[0].revision } : null;
        }
        if (options.writePauseMs) {
          options.onPause?.();
          await new Promise((resolve) => setTimeout(resolve, options.writePauseMs));
        }
        await insertRevision(tx, dayId, number, at, revision);
        return { written: true, revision: { ...revision, dayId, number, createdAtMs: at.getTime() } };
      });
    },

    async saveSimulation(s) {
      await db.query(
        `insert into day_simulations (id, day_id, revision, created_at, key_id, request, result, job) values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8)`,
        [s.id, s.dayId, s.revision, new Date().toISOString(), s.owner, JSON.stringify(s.request), s.result === null ? null : JSON.stringify(s.result), s.job],
      );
    },

    async getSimulation(environment, id) {
      if (!UUID.test(id)) return null;
      const { rows } = await db.query<SimulationRow>(
        `select s.id, s.day_id, s.revision, (extract(epoch from s.created_at) * 1000)::float8 as created_ms, s.key_id, s.request, s.result, s.job
           from day_simulations s join days d on d.id = s.day_id where s.id = $1 and d.environment = $2`,
        [id, environment],
      );
      const r = rows[0];
      return r ? { id: r.id, dayId: r.day_id, revision: r.revision, createdAtMs: r.created_ms, owner: r.key_id, request: r.request, result: r.result, job: r.job } : null;
    },

    close: () => db.close(),
  };
}
