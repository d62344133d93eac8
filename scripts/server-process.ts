// How the store's server process is started: by `npm start`, the browser journeys and the benchmark.
import { createConnection, createServer } from 'node:net';
import path from 'node:path';

/** Loaded before the app when traces are wanted (issue 32): OpenTelemetry's SDK and instrumentations. */
const TELEMETRY = path.join(import.meta.dirname, '../apps/server/src/telemetry.ts');

/**
 * Node flags for the server (docs/decisions/005, 025 and 028): a young generation of at most 8 MB,
 * and `gc()` for memory-reducing collections (after an index rebuild, and when the store goes quiet
 * after a busy spell). V8's memory-saving mode is off: it halved the requests served a second and
 * stalled answers with a compacting collection every second or two under load. The embedded
 * database, on a thread of its own, runs its WebAssembly in V8's baseline compiler: optimising
 * PostgreSQL's executor costs hundreds of megabytes at start, and catalogue reads never reach it.
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, OpenTelemetry is loaded first (`--import`); without it, not at all.
 */
export function serverNodeFlags(env: Record<string, string | undefined> = process.env): string[] {
  const flags = ['--max-semi-space-size=8', '--expose-gc'];
  if (!env.DATABASE_URL) flags.push('--liftoff-only');
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) flags.push('--import', TELEMETRY);
  return flags;
}

/** A port nothing listens on right now, for a server started by a test or a benchmark. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Whether something answers on a TCP port (PostgreSQL, Redis): what decides whether a suite that needs it runs. */
export function answers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Runs one statement on a PostgreSQL server, on a connection of its own (create or drop a database). */
export async function onServer(serverUrl: string, query: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the PostgreSQL server at `serverUrl`, for servers a test or a check starts; `drop` removes it (with its connections). */
export async function scratchDatabase(serverUrl: string, tag: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `keystore_${tag}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await onServer(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
