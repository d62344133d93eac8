import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as adminTables from '../modules/admin/schema.ts';
import * as authTables from '../modules/auth/schema.ts';
import * as catalogTables from '../modules/catalog/schema.ts';
import * as claimsTables from '../modules/claims/schema.ts';
import * as giftsTables from '../modules/gifts/schema.ts';
import * as ledgerTables from '../modules/ledger/schema.ts';
import * as libraryTables from '../modules/library/schema.ts';
import * as newsTables from '../modules/news/schema.ts';
import * as notificationsTables from '../modules/notifications/schema.ts';
import * as ordersTables from '../modules/orders/schema.ts';
import * as paymentsTables from '../modules/payments/schema.ts';
import * as riskTables from '../modules/risk/schema.ts';
import * as securityTables from '../modules/security/schema.ts';
import * as offersTables from '../modules/offers/schema.ts';
import * as sellersTables from '../modules/sellers/schema.ts';
import * as supportTables from '../modules/support/schema.ts';
import * as usersTables from '../modules/users/schema.ts';
import * as wishlistTables from '../modules/wishlist/schema.ts';
import * as platformTables from '../platform/schema.ts';
import { ThreadedPglite } from './pglite-thread.ts';

/** Every table, each declared next to the module that owns it (modules/<area>/schema.ts, platform/schema.ts). */
export const schema = {
  ...adminTables,
  ...authTables,
  ...catalogTables,
  ...claimsTables,
  ...giftsTables,
  ...ledgerTables,
  ...libraryTables,
  ...newsTables,
  ...notificationsTables,
  ...ordersTables,
  ...paymentsTables,
  ...riskTables,
  ...securityTables,
  ...offersTables,
  ...sellersTables,
  ...supportTables,
  ...usersTables,
  ...wishlistTables,
  ...platformTables,
};

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** `(a, b, c)`: a list of parameters for `in` (never empty). */
export function inList(values: readonly string[]): SQL {
  return sql`(${sql.join(values.map((value) => sql`${value}`), sql`, `)})`;
}

/** Runs raw SQL and answers its rows; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * A query built once per database handle, for the hot paths (every authenticated request, every
 * purchase): drizzle builds its SQL once instead of on every call (every query with parameters is a
 * named statement anyway, db/named-statements.ts). Only for the app's long-lived handle, not a transaction's.
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
export const LOCKS = { migrate: 7_301_001, supplierSync: 7_301_002, orderExpiry: 7_301_010, operatorAlerts: 7_301_011, ledgerRelease: 7_301_012, demoMarket: 7_301_013, reviewDeadline: 7_301_014, wishlistAlerts: 7_301_015 } as const;

/**
 * Namespaces (first key) of the transaction-level advisory locks that serialise the placements of one
 * customer and of one client address (the second key is a hash of it), so caps counted under them hold
 * across instances (decision 016).
 */
export const PLACER_LOCK_SPACES = { customer: 7_301_020, address: 7_301_021 } as const;

/** Namespace (first key) of the advisory locks `own` takes; the second key is a hash of the work's name. */
const OWNERSHIP_LOCK_SPACE = 7_301_100;

export interface ListenOptions {
  /**
   * Called after the listening connection came back from a loss: notices sent meanwhile were
   * missed, so the listener catches up from the database.
   */
  onReconnect?: (lostAt: Date) => void;
}

/** The database the app runs on, with the few PostgreSQL features the app needs beyond queries. */
export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` for each NOTIFY on `channel`, for as long as the app runs: a lost connection is
   * reopened forever, with backoff and jitter. Answers a function that stops listening.
   */
  listen(channel: string, fn: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** Runs `fn` holding a session advisory lock; answers `{ ran: false }` when another session holds it, unless told to `wait` for it. */
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>, wait?: boolean): Promise<{ ran: true; value: T } | { ran: false }>;
  /**
   * Takes a piece of work (an order's delivery) for this process, unless a live process holds it:
   * answers a release function, or undefined when it is taken. The hold is an advisory lock on this
   * instance's own connection, so it dies with the process (or its connection) and a survivor can
   * take the work at once. Work taken twice after a lost connection must be safe to repeat.
   */
  own(name: string): Promise<(() => Promise<void>) | undefined>;
  /** The state of the connection, from the queries already made: what readiness is built on. */
  health: DatabaseHealth;
  /** The connections in use and idle, and the queries waiting for one (the metrics). */
  connections(): { inUse: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** While the database is down, how often it is probed without anyone asking. */
const RECOVERY_PROBE_MS = 200;

/**
 * Whether the database answers, learnt from the traffic the app makes anyway (pool errors, listener
 * losses) and a probe at most once a second, so asking costs no round trip. Once it is seen down, it
 * is probed every 200 ms on a connection of its own until it answers, so the instance is ready again
 * within a fraction of a second of the database's return, whoever asks and whenever (a health check
 * that came only after the return would otherwise get the stale answer), and whatever the pool is
 * busy with (a sync retrying, queries queued behind dead connections).
 */
export class DatabaseHealth {
  private lastProbe = 0;
  private probing: Promise<void> | undefined;
  private watching = false;
  private suspecting = false;
  private stopped = false;
  reachable = true;
  private readonly probe: () => Promise<unknown>;
  private readonly recoveryProbe: () => Promise<unknown>;

  /** `recoveryProbe`: how the database is probed while down (not queued behind the pool's work). */
  constructor(probe: () => Promise<unknown>, recoveryProbe: () => Promise<unknown> = probe) {
    this.probe = probe;
    this.recoveryProbe = recoveryProbe;
  }

  /** The last known state; starts a probe in the background when the last one is over a second old. */
  check(): boolean {
    if (Date.now() - this.lastProbe >= 1000 && !this.probing) {
      this.lastProbe = Date.now();
      this.probing = this.probe()
        .then(() => this.up(), () => this.down())
        .finally(() => (this.probing = undefined));
    }
    return this.reachable;
  }

  up(): void {
    this.reachable = true;
  }

  down(): void {
    this.reachable = false;
    this.watchForReturn();
  }

  /**
   * A connection was lost: down only if a probe of its own fails too. A loss found late (a LISTEN
   * heartbeat, a dead idle connection reporting after the database came back) does not make a
   * reachable database look down.
   */
  suspect(): void {
    if (!this.reachable || this.suspecting || this.stopped) return;
    this.suspecting = true;
    this.recoveryProbe()
      .then(() => this.up(), () => this.down())
      .finally(() => (this.suspecting = false));
  }

  /** No more probes (the database is being closed). */
  stop(): void {
    this.stopped = true;
  }

  private watchForReturn(): void {
    if (this.watching || this.stopped) return;
    this.watching = true;
    const tick = (): void => {
      if (this.stopped || this.reachable) {
        this.watching = false;
        return;
      }
      this.recoveryProbe().then(
        () => {
          this.watching = false;
          this.up();
        },
        () => setTimeout(tick, RECOVERY_PROBE_MS).unref(),
      );
    };
    setTimeout(tick, RECOVERY_PROBE_MS).unref();
  }
}

/** Backoff with full jitter for reconnect attempt `n` (1, 2, …): up to 250 ms doubling to 10 s. */
function reconnectDelayMs(attempt: number): number {
  return Math.round(Math.random() * Math.min(10_000, 250 * 2 ** Math.min(attempt, 10)));
}

const migrationsFolder = path.join(import.meta.dirname, '../../drizzle');

export interface DatabaseOptions {
  /** A PostgreSQL URL; without it the embedded database is used. */
  url?: string | undefined;
  /** Where the embedded database keeps its files; without it, it lives in memory. */
  dataDir?: string | undefined;
  /** Called with every error of a background connection (pool, LISTEN, ownership locks); they are retried, never thrown. */
  onError?: (error: unknown) => void;
}

/** Opens the database and applies the committed migrations under an advisory lock. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.url ? await openPostgres(options.url, options.onError) : await openPglite(options.dataDir);
  await database.withAdvisoryLock(LOCKS.migrate, () => database.migrate(), true);
  return database;
}

type OpenDatabase = Database & { migrate(): Promise<void> };

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
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // On a thread of its own (decision 028): its queries never stop the requests the main thread answers.
  // Started before anything else is loaded, so that it opens while the app's modules load.
  const threaded = new ThreadedPglite({ dataDir: dataDir ? path.join(dataDir, 'pglite') : undefined, startParams: PGLITE_START_PARAMS });
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
  await threaded.waitReady;
  // drizzle's PGlite driver uses query and transaction only, which the thread's client answers alike.
  const client = threaded as unknown as import('@electric-sql/pglite').PGlite;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  // Session locks are re-entrant and every caller shares PGlite's one session, so held keys are also tracked here.
  const held = new Set<number>();
  const owned = new Set<string>();
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder }),
    async listen(channel, fn) {
      // The embedded database lives in this process: its notices cannot be lost.
      return threaded.listen(channel, fn);
    },
    async own(name) {
      // One process owns an embedded database: a set of the names this process holds is the whole lock.
      if (owned.has(name)) return undefined;
      owned.add(name);
      return async () => void owned.delete(name);
    },
    health: new DatabaseHealth(() => client.query('select 1')),
    // One session: a call runs on it while the others queue.
    connections: () => ({ inUse: Math.min(1, threaded.inFlight), idle: threaded.inFlight > 0 ? 0 : 1, waiting: Math.max(0, threaded.inFlight - 1) }),
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
    close: () => threaded.close(),
  };
}

/**
 * Connections of the shared pool per instance. Every request and job queues for these, so this is
 * the bound on the database work one instance has in flight.
 */
const POOL_SIZE = 10;

/**
 * Every connection's settings for a network that can fail silently (a lost machine sends no FIN):
 * TCP keepalive from both ends, so PostgreSQL ends the session of a client that is gone within about
 * 25 s (releasing its advisory locks: a delivery or a job it held is taken over), and the client
 * learns of a dead server too.
 */
const CONNECTION_SETTINGS = {
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
  options: '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3',
} as const;
/** A dedicated connection's query that takes longer than this is given up (and the connection with it). */
const DEDICATED_QUERY_TIMEOUT_MS = 5000;
/** How often a LISTEN connection checks that it is still heard (a silently dead path sends no error). */
const LISTEN_HEARTBEAT_MS = 15_000;

async function openPostgres(url: string, onError: (error: unknown) => void = () => undefined): Promise<OpenDatabase> {
  const { default: pg } = await import('pg');
  const dedicated = () => new pg.Client({ connectionString: url, ...CONNECTION_SETTINGS, query_timeout: DEDICATED_QUERY_TIMEOUT_MS, connectionTimeoutMillis: 5000 });
  const { drizzle: drizzlePg } = await import('drizzle-orm/node-postgres');
  const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
  const { NamingClient } = await import('./named-statements.ts');
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: 5000, ...CONNECTION_SETTINGS, Client: NamingClient });
  // While down: a connection of its own, bounded in time, never queued behind the pool's work.
  const health = new DatabaseHealth(
    () => pool.query('select 1'),
    async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000, query_timeout: 1000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('select 1');
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  );
  const failed = (error: unknown): void => {
    if (isConnectionLoss(error)) health.suspect();
    onError(error);
  };
  // Idle connections report errors to the pool; a connection handed out (a transaction, a lock
  // holder) reports to itself, and an 'error' nobody listens to would end the process: every
  // connection gets a listener for its whole life. A broken one is discarded when it is released.
  pool.on('error', failed);
  pool.on('connect', (client) => client.on('error', failed));
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  const listeners = new Set<() => Promise<void>>();
  const ownership = new OwnershipLocks(dedicated, failed);
  return {
    db,
    kind: 'postgres',
    health,
    migrate: () => migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder }),
    async listen(channel, fn, options = {}) {
      const stop = await keepListening({ connect: dedicated, channel, fn, options, onError: failed, health });
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async withAdvisoryLock(key, fn, wait: boolean = false) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        if (!(await acquireLock((text, values) => client.query(text, values), key, wait))) return { ran: false };
        try {
          return { ran: true, value: await fn() };
        } finally {
          // A lock on a connection that died is gone with it; the connection is discarded below.
          await client.query('select pg_advisory_unlock($1)', [key]).catch((error: Error) => (broken = error));
        }
      } catch (error) {
        broken ??= error as Error;
        throw error;
      } finally {
        client.release(broken);
      }
    },
    own: (name) => ownership.take(name),
    connections: () => ({ inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      health.stop();
      await Promise.all([...listeners].map((stop) => stop()));
      await ownership.close();
      await pool.end();
    },
  };
}

/** Whether an error means the server or the connection went away (rather than a bad query). */
function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? '';
  // 57P0x: the server is shutting down or restarting; 08xxx: connection exceptions; and the socket's own errors.
  if (/^(57P0|08)/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect/i.test(error instanceof Error ? error.message : '');
}

interface ListenSetup {
  connect: () => pg.Client;
  channel: string;
  fn: (payload: string) => void;
  options: ListenOptions;
  onError: (error: unknown) => void;
  health: DatabaseHealth;
}

/**
 * LISTENs on a dedicated connection and keeps doing so: when the connection is lost it is opened
 * again, forever, with backoff and jitter, and the listener is told it may have missed notices.
 * Answers once listening (the first connection's failure is thrown); the answer stops for good.
 */
async function keepListening({ connect, channel, fn, options, onError, health }: ListenSetup): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | undefined;
  let lostAt: Date | undefined;
  let reconnecting: Promise<void> | undefined;

  const lose = (client: pg.Client): void => {
    if (current !== client) return;
    current = undefined;
    lostAt ??= new Date();
    health.suspect();
    client.end().catch(() => undefined);
    if (!stopped) reconnecting ??= open(false).finally(() => (reconnecting = undefined));
  };

  const open = async (first: boolean): Promise<void> => {
    for (let attempt = 1; !stopped; attempt += 1) {
      const client = connect();
      client.on('notification', (message) => {
        if (message.channel === channel) fn(message.payload ?? '');
      });
      client.on('error', (error) => {
        onError(error);
        lose(client);
      });
      client.on('end', () => lose(client));
      try {
        await client.connect();
        await client.query(`LISTEN "${channel.replaceAll('"', '')}"`);
      } catch (error) {
        client.end().catch(() => undefined);
        if (first) throw error;
        onError(error);
        await sleep(reconnectDelayMs(attempt));
        continue;
      }
      if (stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      current = client;
      health.up();
      const heartbeat = setInterval(() => {
        if (current !== client) return clearInterval(heartbeat);
        client.query('select 1').catch((error: unknown) => {
          onError(error);
          lose(client);
        });
      }, LISTEN_HEARTBEAT_MS);
      heartbeat.unref();
      client.once('end', () => clearInterval(heartbeat));
      if (lostAt) {
        const since = lostAt;
        lostAt = undefined;
        try {
          options.onReconnect?.(since);
        } catch (error) {
          onError(error);
        }
      }
      return;
    }
  };

  await open(true);
  return async () => {
    stopped = true;
    const client = current;
    current = undefined;
    await client?.end().catch(() => undefined);
  };
}

/**
 * Advisory locks held on one dedicated connection of this instance (Database.own). The set of names
 * also keeps this process from taking a name twice (a session's advisory locks are re-entrant).
 */
class OwnershipLocks {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly held = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly create: () => pg.Client;
  private readonly onError: (error: unknown) => void;

  constructor(create: () => pg.Client, onError: (error: unknown) => void) {
    this.create = create;
    this.onError = onError;
  }

  async take(name: string): Promise<(() => Promise<void>) | undefined> {
    if (this.held.has(name)) return undefined;
    this.held.add(name);
    try {
      const { client, locked } = await this.serially(async () => {
        const client = await this.connection();
        const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as locked', [OWNERSHIP_LOCK_SPACE, name]);
        return { client, locked: rows[0]?.locked === true };
      });
      if (!locked) {
        this.held.delete(name);
        return undefined;
      }
      return async () => {
        this.held.delete(name);
        // After a lost connection the lock is already gone (and this is another session).
        await this.serially(async () => {
          if (this.client === client) await client.query('select pg_advisory_unlock($1, hashtext($2))', [OWNERSHIP_LOCK_SPACE, name]);
        }).catch(this.onError);
      };
    } catch (error) {
      this.held.delete(name);
      throw error;
    }
  }

  /** One query at a time on the connection (pg queues them too, but that is deprecated). */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = this.create();
      const drop = (): void => {
        if (this.client === client) this.client = undefined;
      };
      client.on('error', (error) => {
        this.onError(error);
        drop();
      });
      client.on('end', drop);
      try {
        await client.connect();
      } catch (error) {
        client.end().catch(() => undefined);
        throw error;
      }
      this.client = client;
      return client;
    })().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  async close(): Promise<void> {
    // Releases are not waited for by their callers (a delivery answers without it): let them finish first.
    await this.queue;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
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
