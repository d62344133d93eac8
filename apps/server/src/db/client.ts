import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Advisory lock keys: one per job that must run once per cluster. */
export const LOCKS = { migrate: 7_301_001, supplierSync: 7_301_002 } as const;

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
  const database = options.url ? openPostgres(options.url, options.onError) : await openPglite(options.dataDir);
  await database.withAdvisoryLock(LOCKS.migrate, () => database.migrate(), true);
  return database;
}

type OpenDatabase = Database & {
  migrate(): Promise<void>;
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>, wait?: boolean): Promise<{ ran: true; value: T } | { ran: false }>;
};

async function openPglite(dataDir: string | undefined): Promise<OpenDatabase> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = dataDir ? new PGlite(path.join(dataDir, 'pglite')) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
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
      if (!(await acquireLock((text, values) => client.query(text, values), key, wait))) return { ran: false };
      try {
        return { ran: true, value: await fn() };
      } finally {
        await client.query('select pg_advisory_unlock($1)', [key]);
      }
    },
    close: () => client.close(),
  };
}

function openPostgres(url: string, onError?: (error: unknown) => void): OpenDatabase {
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
