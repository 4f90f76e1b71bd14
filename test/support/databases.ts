// Databases of the day-store tests: a PGlite data directory of their own (copied from a migrated
// template made once per machine, since creating one takes seconds of CPU), or a database of their
// own with a random name on the PostgreSQL server of this machine (PG_TEST_URL, default
// postgres://postgres@127.0.0.1:5432/postgres), dropped afterwards.
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../../src/store/database.ts';
import { createDayStore } from '../../src/store/day-store.ts';
import { openedDayStore, type DayStoreHandle } from '../../src/store/day-store-handle.ts';
import { migrate } from '../../src/store/migrations.ts';

const TEMPLATE = fileURLToPath(new URL('../../node_modules/.cache/days-pglite-template', import.meta.url));
export const PG_TEST_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function template(): Promise<string> {
  if (existsSync(join(TEMPLATE, 'PG_VERSION'))) return TEMPLATE;
  // Made in a directory of its own and renamed into place, so that two test files never share a half-made one.
  const making = `${TEMPLATE}.${process.pid}.${randomBytes(4).toString('hex')}`;
  mkdirSync(making, { recursive: true });
  const db = await openDatabase({ databaseUrl: null, pgliteDir: making });
  await migrate(db);
  await db.close();
  try {
    renameSync(making, TEMPLATE);
  } catch {
    rmSync(making, { recursive: true, force: true }); // another file made it first
  }
  return TEMPLATE;
}

/** A fresh, migrated PGlite directory; `remove` deletes it. */
export async function freshPgliteDir(): Promise<{ dir: string; remove: () => void }> {
  const root = mkdtempSync(join(tmpdir(), 'days-pglite-'));
  const dir = join(root, 'pglite');
  cpSync(await template(), dir, { recursive: true });
  return { dir, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A day store open on a fresh, migrated PGlite directory; `remove` deletes the directory (after `days.close()`). */
export async function freshPgliteDayStore(): Promise<{ days: DayStoreHandle; remove: () => void }> {
  const fresh = await freshPgliteDir();
  const db = await openDatabase({ databaseUrl: null, pgliteDir: fresh.dir });
  return { days: openedDayStore(createDayStore(db)), remove: fresh.remove };
}

/** A new empty database on the PostgreSQL server; `drop` removes it (closing its connections). */
export async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `days_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_TEST_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_TEST_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_TEST_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
