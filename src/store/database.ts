// The one way the service talks to PostgreSQL: a small port (query, transaction) over either the
// embedded PGlite (Postgres compiled to WebAssembly, a data directory on disk; the default, so that
// `npm start` needs nothing installed) or a PostgreSQL server through node-postgres (`pg`) when
// DATABASE_URL is set. Both run the same SQL and the same migrations.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface QueryResult<Row> { rows: Row[]; rowCount: number }

export interface Queryable {
  /** One statement with $1, $2 … parameters. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  /** Several statements without parameters (a migration's script). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The database cannot be opened or reached; the message names the cause (never a password). */
export class DatabaseError extends Error {}

export interface DatabaseOptions {
  /** postgres://… of a PostgreSQL server, or null for the embedded PGlite. */
  databaseUrl: string | null;
  /** PGlite's data directory (created when missing). */
  pgliteDir: string;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl === null ? openPglite(options.pgliteDir) : openPostgres(options.databaseUrl);
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client losing its server is reported here; the next query gets a fresh one.
  pool.on('error', () => undefined);
  try {
    (await pool.connect()).release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseError(`cannot connect to the PostgreSQL server of DATABASE_URL (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const run = async <Row>(client: pg.Pool | pg.PoolClient, sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> => {
    const result = await client.query(sql, params as unknown[]);
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
  };
  return {
    kind: 'postgres',
    query: (sql, params) => run(pool, sql, params),
    exec: async (sql) => { await pool.query(sql); },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const value = await work({ query: (sql, params) => run(client, sql, params), exec: async (sql) => { await client.query(sql); } });
        await client.query('commit');
        return value;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * PGlite is one Postgres in this process: a second process opening the same directory would corrupt
 * it. A lock file beside the directory names the owner's pid; a lock whose process is gone is taken over.
 */
function lockDirectory(dir: string): () => void {
  const lock = `${dir}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new DatabaseError(`cannot create the lock file ${lock} (${(error as NodeJS.ErrnoException).code})`);
      const owner = Number(readFileSync(lock, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && processExists(owner)) {
        throw new DatabaseError(`the embedded database ${dir} is in use by process ${owner}; run one instance per PGLITE_DIR, or set DATABASE_URL to share a PostgreSQL server`);
      }
      rmSync(lock, { force: true });
    }
  }
  throw new DatabaseError(`cannot take the lock file ${lock}`);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function openPglite(dir: string): Promise<Database> {
  mkdirSync(dir, { recursive: true });
  const unlock = lockDirectory(dir);
  let db: PGlite;
  try {
    db = await PGlite.create(join(dir));
  } catch (error) {
    unlock();
    throw new DatabaseError(`cannot open the embedded database in ${dir} (${(error as Error).message})`);
  }
  const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await target.query<Row>(sql, params as unknown[]);
      // PGlite reports affectedRows 0 for a select: a statement that returns rows counts them.
      return { rows: result.rows, rowCount: result.rows.length || (result.affectedRows ?? 0) };
    },
    exec: async (sql) => { await target.exec(sql); },
  });
  return {
    kind: 'pglite',
    ...wrap(db),
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    async close() {
      await db.close();
      unlock();
    },
  };
}
