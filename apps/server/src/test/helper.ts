import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';
import type { Supplier } from '../modules/supplier/supplier.ts';

/**
 * A fresh database for one test file: embedded PGlite in memory, or, when DATABASE_URL is set,
 * a new database on that PostgreSQL server, dropped again by `close`.
 */
export async function freshDatabase(): Promise<Database & { url?: string }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return openDatabase({});
  const name = `keystore_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  const close = database.close.bind(database);
  return {
    ...database,
    /** Where it is, for a second instance on the same database. */
    url: url.toString(),
    async close() {
      await close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await dropper.end();
    },
  };
}

/** Configuration for a test: quiet, its own data folder, fixed secrets, no web build. */
export function testConfig(env: Record<string, string> = {}): { config: Config; cleanup: () => void } {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keystore-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    KEY_ENCRYPTION_KEY: '0'.repeat(64),
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    ...env,
  });
  return { config, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** The real app on a fresh database; the catalogue syncs only when the test asks. `beforeReady` may add hooks. */
export async function buildTestApp(
  options: {
    env?: Record<string, string>;
    supplier?: Supplier;
    database?: Database;
    logger?: FastifyServerOptions['logger'];
    stockOverlapMs?: number;
    beforeReady?: (app: FastifyInstance) => void;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await freshDatabase());
  const { config, cleanup } = testConfig(options.env);
  const app = await buildApp({
    config,
    database,
    logger: options.logger ?? false,
    catalog: { autoSync: false, stockOverlapMs: options.stockOverlapMs, ...(options.supplier ? { supplier: options.supplier } : {}) },
  });
  try {
    options.beforeReady?.(app);
    await app.ready();
  } catch (error) {
    // A start that fails (a test of a refused configuration) leaves nothing running behind.
    await app.close();
    if (!options.database) await database.close();
    cleanup();
    throw error;
  }
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      if (!options.database) await database.close();
      cleanup();
    },
  };
}

/** A logger writing into memory at `level`, for tests of what the log holds (pass `logger` to buildTestApp). */
export function memoryLog(level = 'debug'): { logger: FastifyServerOptions['logger']; text(): string } {
  const lines: string[] = [];
  return { logger: { level, stream: { write: (line: string) => lines.push(line) } }, text: () => lines.join('') };
}
