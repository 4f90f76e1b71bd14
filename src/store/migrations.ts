// Versioned migrations: `migrations/NNN_name.sql`, applied in order, each in its own transaction with
// its row in schema_migrations, under an advisory lock so that several instances starting on one
// PostgreSQL server apply each exactly once. The same files run on PGlite and on a server.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** Any fixed number: the key of the advisory lock migrations hold. */
const MIGRATION_LOCK = 250_025;

export interface Migration { version: number; name: string; sql: string }

/** The migration files, in version order. Throws on a file name without its NNN_ version. */
export function migrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir).filter((name) => name.endsWith('.sql')).sort().map((file) => {
    const match = /^(\d{3})_([a-z0-9_]+)\.sql$/.exec(file);
    if (!match) throw new Error(`Migration file ${file} is not named NNN_name.sql`);
    return { version: Number(match[1]), name: match[2]!, sql: readFileSync(`${dir}${file}`, 'utf8') };
  });
}

/** Applies the migrations `db` has not had yet; resolves with the versions applied now. */
export async function migrate(db: Database, all: readonly Migration[] = migrations()): Promise<number[]> {
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.exec('create table if not exists schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())');
  });
  const applied: number[] = [];
  for (const migration of all) {
    const done = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const seen = await tx.query('select 1 from schema_migrations where version = $1', [migration.version]);
      if (seen.rowCount > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}
