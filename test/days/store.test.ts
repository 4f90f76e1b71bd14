// The day store on both databases it runs on, the embedded PGlite and a PostgreSQL server: the same
// migrations, environments kept apart, revisions written whole and in order, and two writers racing
// on one revision: exactly one wins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/database.ts';
import { createDayStore, type DayStore, type NewRevision } from '../../src/store/day-store.ts';
import { migrate } from '../../src/store/migrations.ts';
import { freshPgliteDir, freshPostgresDatabase } from '../support/databases.ts';

const author = { keyId: '0123456789abcdef', operator: 'Anna' };
const movement = (n: number): NewRevision => ({
  kind: 'movements', ...author, simulationId: null, optionId: null, revertedTo: null,
  delta: { flights: [{ id: `F${n}`, tail: 'T', depMinutes: n, arrMinutes: n + 60, cancelled: false, actual: { offBlock: n, airborne: null, landed: null, onBlock: null } }], bookings: [], removedBookingIds: [] },
});

for (const backend of ['pglite', 'postgres'] as const) {
  describe(`day store on ${backend}`, () => {
    let db: Database;
    let store: DayStore;
    let cleanup: () => Promise<void> | void;

    beforeAll(async () => {
      if (backend === 'pglite') {
        const fresh = await freshPgliteDir();
        db = await openDatabase({ databaseUrl: null, pgliteDir: fresh.dir });
        cleanup = fresh.remove;
      } else {
        const fresh = await freshPostgresDatabase();
        db = await openDatabase({ databaseUrl: fresh.url, pgliteDir: '' });
        cleanup = fresh.drop;
      }
      await migrate(db);
      store = createDayStore(db);
    }, 120_000);
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    it('unit: migrations are applied once (a second run applies none)', async () => {
      expect(await migrate(db)).toEqual([]);
      const { rows } = await db.query<{ version: number }>('select version from schema_migrations order by version');
      expect(rows.map((r) => r.version)).toEqual([1]);
    });

    it('unit: a day is opened at revision 1 and seen only in its environment', async () => {
      const day = await store.createDay('staging', { scheduleName: 'default', window: { fromMinutes: 10, toMinutes: 20 } }, author);
      expect(day.revision).toBe(1);
      expect(await store.getDay('staging', day.id)).toMatchObject({ id: day.id, scheduleName: 'default', window: { fromMinutes: 10, toMinutes: 20 }, revision: 1 });
      expect(await store.getDay('production', day.id)).toBeNull();
      expect(await store.getRevision('production', day.id, 1)).toBeNull();
      expect(await store.listRevisions('production', day.id)).toBeNull();
      expect((await store.listDays('production', 10)).map((d) => d.id)).not.toContain(day.id);
      expect((await store.getRevision('staging', day.id, 1))!.kind).toBe('open');
      expect(await store.getDay('staging', 'not-a-uuid')).toBeNull();
    });

    it('unit: revisions are written in order; a writer that read an old revision writes nothing', async () => {
      const day = await store.createDay('staging', { scheduleName: 'default', window: { fromMinutes: 0, toMinutes: 1 } }, author);
      const second = await store.writeRevision('staging', day.id, 1, movement(2));
      expect(second).toMatchObject({ written: true, revision: { number: 2, kind: 'movements', keyId: author.keyId, operator: 'Anna' } });
      expect(await store.writeRevision('staging', day.id, 1, movement(3))).toEqual({ written: false, currentRevision: 2 });
      expect(await store.writeRevision('production', day.id, 2, movement(3))).toBeNull();
      const revisions = await store.listRevisions('staging', day.id);
      expect(revisions!.map((r) => r.number)).toEqual([1, 2]);
      expect(revisions![1]!.delta).toEqual(movement(2).delta);
    });

    it('property: twenty writers racing on the same revision: exactly one wins, the others see its number', async () => {
      const day = await store.createDay('staging', { scheduleName: 'default', window: { fromMinutes: 0, toMinutes: 1 } }, author);
      const writes = await Promise.all(Array.from({ length: 20 }, (_, i) => store.writeRevision('staging', day.id, 1, movement(i))));
      expect(writes.filter((w) => w?.written)).toHaveLength(1);
      expect(writes.filter((w) => w && !w.written).every((w) => w && !w.written && w.currentRevision === 2)).toBe(true);
      expect((await store.listRevisions('staging', day.id))!.map((r) => r.number)).toEqual([1, 2]);
      expect((await store.getDay('staging', day.id))!.revision).toBe(2);
    });

    it('unit: a simulation is kept with its day, in its environment only', async () => {
      const day = await store.createDay('staging', { scheduleName: 'default', window: { fromMinutes: 0, toMinutes: 1 } }, author);
      const id = crypto.randomUUID();
      const request = { scenarioId: 's', airline: 'NV', scheduleName: 'default', disruptions: [], disruptedFlightId: null } as never;
      await store.saveSimulation({ id, dayId: day.id, revision: 1, owner: 'ab'.repeat(32), request, result: null, job: true });
      expect(await store.getSimulation('staging', id)).toMatchObject({ id, dayId: day.id, revision: 1, job: true, result: null, request });
      expect(await store.getSimulation('production', id)).toBeNull();
    });
  });
}
