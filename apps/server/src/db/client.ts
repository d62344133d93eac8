import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type pg from 'pg';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Runs raw SQL and answers its rows; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * A query built once per database handle, for the hot paths (every authenticated request, every
 * purchase): drizzle builds its SQL once, and PostgreSQL parses and plans a named statement once per
 * connection instead of on every call. Only for the app's long-lived handle, not a transaction's.
 */
export function preparedOnce<T>(build: (db: Db) => T): (db: Db) => T {
  const prepared = new WeakMap<Db, T>();
  return (db) => {
    let query = prepared.get(db);
    if (query === undefined) prepared.set(db, (query = build(db)));
    return query;
  };
}

/** Advisory lock keys: one per job that must run once per cluster. */
export const LOCKS = { migrate: 7_301_001, supplierSync: 7_301_002, orderExpiry: 7_301_010, orderAllocationRetry: 7_301_011 } as const;

/** The database the app runs on, with the few PostgreSQL features the app needs beyond queries. */
export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs `fn` for each NOTIFY on `channel`; answers a function that stops listening. */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** Runs `fn` holding a session advisory lock; answers `{ ran: false }` when another session holds it. */
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
  close(): Promise<void>;
}

const migrationsFolder = path.join(import.meta.dirname, '../../drizzle');

export interface DatabaseOptions {
  /** A PostgreSQL URL; without it the embedded database is used. */
  url?: string | undefined;
  /** Where the embedded database keeps its files; without it, it lives in memory. */
  dataDir?: string | undefined;
  /** Called when a LISTEN connection drops and reconnects. */
  onError?: (error: unknown) => void;
}

/** Opens the database and applies the committed migrations under an advisory lock. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.url ? await openPostgres(options.url, options.onError) : await openPglite(options.dataDir);
  await database.withAdvisoryLock(LOCKS.migrate, () => database.migrate(), true);
  return database;
}

type OpenDatabase = Database & {
  migrate(): Promise<void>;
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>, wait?: boolean): Promise<{ ran: true; value: T } | { ran: false }>;
};

/**
 * PGlite's own start parameters, with a smaller buffer cache: the store reads the catalogue from
 * its in-memory index, so 128 MB of shared buffers would only add to the process's memory.
 */
const PGLITE_START_PARAMS = [
  '--single', '-F', '-O', '-j',
  '-c', 'search_path=public', '-c', 'exit_on_error=false', '-c', 'log_checkpoints=false',
  '-c', 'max_worker_processes=0', '-c', 'max_parallel_workers=0', '-c', 'max_parallel_workers_per_gather=0',
  '-c', 'io_method=sync', '-c', 'max_parallel_maintenance_workers=0',
  '-c', 'shared_buffers=16MB', '-c', 'work_mem=4MB',
];

// Each driver is loaded only when used: a store on PostgreSQL never loads the embedded database.
async function openPglite(dataDir: string | undefined): Promise<OpenDatabase> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir ? path.join(dataDir, 'pglite') : undefined, { startParams: PGLITE_START_PARAMS });
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  // Session locks are re-entrant and every caller shares PGlite's one session, so held keys are also tracked here.
  const held = new Set<number>();
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder }),
    async listen(channel, fn) {
      const stop = await client.listen(channel, fn);
      return stop;
    },
    async notify(channel, payload) {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    // One process owns an embedded database, so a lock only has to order the jobs of this process.
    async withAdvisoryLock(key, fn, wait: boolean = false) {
      if (held.has(key) && !wait) return { ran: false };
      held.add(key);
      try {
        await acquireLock((text, values) => client.query(text, values), key, true);
      } catch (error) {
        held.delete(key);
        throw error;
      }
      try {
        return { ran: true, value: await fn() };
      } finally {
        held.delete(key);
        await client.query('select pg_advisory_unlock($1)', [key]);
      }
    },
    close: () => client.close(),
  };
}

async function openPostgres(url: string, onError?: (error: unknown) => void): Promise<OpenDatabase> {
  const { default: pg } = await import('pg');
  const { drizzle: drizzlePg } = await import('drizzle-orm/node-postgres');
  const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', (error) => onError?.(error));
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  const listeners = new Set<pg.Client>();
  return {
    db,
    kind: 'postgres',
    migrate: () => migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder }),
    async listen(channel, fn) {
      let stopped = false;
      let client: pg.Client | undefined;
      const connect = async (): Promise<void> => {
        const next = new pg.Client({ connectionString: url });
        next.on('notification', (message) => {
          if (message.channel === channel) fn(message.payload ?? '');
        });
        // A dropped LISTEN connection is reopened, so other instances' notices keep arriving.
        next.on('error', (error) => {
          onError?.(error);
          listeners.delete(next);
          if (!stopped) setTimeout(() => void connect().catch(onError), 1000).unref();
        });
        await next.connect();
        await next.query(`LISTEN "${channel.replaceAll('"', '')}"`);
        client = next;
        listeners.add(next);
      };
      await connect();
      return async () => {
        stopped = true;
        if (client) {
          listeners.delete(client);
          await client.end();
        }
      };
    },
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async withAdvisoryLock(key, fn, wait: boolean = false) {
      const client = await pool.connect();
      try {
        if (!(await acquireLock((text, values) => client.query(text, values), key, wait))) return { ran: false };
        try {
          return { ran: true, value: await fn() };
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key]);
        }
      } finally {
        client.release();
      }
    },
    async close() {
      await Promise.all([...listeners].map((client) => client.end()));
      await pool.end();
    },
  };
}

type Query = (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;

/** Takes a session advisory lock, waiting for it or not; answers whether it is held. */
async function acquireLock(query: Query, key: number, wait: boolean): Promise<boolean> {
  if (wait) {
    await query('select pg_advisory_lock($1)', [key]);
    return true;
  }
  const answer = await query('select pg_try_advisory_lock($1) as locked', [key]);
  return (answer.rows[0] as { locked: boolean } | undefined)?.locked === true;
}
