// The service's handle on its day store: opened at the first request that needs it (the embedded
// database takes seconds to open, and most processes, a job worker or a test of another feature,
// never need it), migrated before first use, and opened again by the next request after a failure.
import { openDatabase, type DatabaseOptions } from './database.ts';
import { createDayStore, type DayStore, type DayStoreOptions } from './day-store.ts';
import { migrate } from './migrations.ts';

export interface DayStoreHandle {
  /** The store, opened and migrated; rejects with DatabaseError while the database cannot be opened. */
  get(): Promise<DayStore>;
  /** Closes the store if it was opened. */
  close(): Promise<void>;
}

export function dayStoreHandle(options: DatabaseOptions & DayStoreOptions): DayStoreHandle {
  let opening: Promise<DayStore> | null = null;
  const open = async (): Promise<DayStore> => {
    const db = await openDatabase(options);
    try {
      await migrate(db);
    } catch (error) {
      await db.close().catch(() => undefined);
      throw error;
    }
    return createDayStore(db, options);
  };
  return {
    get() {
      if (!opening) {
        opening = open();
        opening.catch(() => { opening = null; });
      }
      return opening;
    },
    async close() {
      const store = await opening?.catch(() => null);
      await store?.close();
    },
  };
}

/** A handle on a store already open (tests). */
export function openedDayStore(store: DayStore): DayStoreHandle {
  return { get: async () => store, close: () => store.close() };
}
