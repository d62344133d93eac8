// The production server as the benchmarks run it: started with its Node flags on a free port,
// waited for until it is ready, and stopped with its temporary data dir removed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, onServer, serverNodeFlags } from '../scripts/server-process.ts';

const root = path.join(import.meta.dirname, '..');
const READY_WITHIN_MS = 120_000;

/**
 * The benchmarks run the server as in production, and production takes its secrets from the
 * environment only (it refuses to start without them): fixed ones, good for nothing but a benchmark.
 */
/**
 * The PostgreSQL server the benchmarks use (BENCH_DATABASE_URL chooses another): the local one
 * through its Unix socket when it has one, as a server on the same machine is best reached (a
 * query over TCP loopback cost a quarter of the server's CPU in writev), else over TCP.
 */
export const PG_SERVER =
  process.env.BENCH_DATABASE_URL ??
  (existsSync('/var/run/postgresql/.s.PGSQL.5432') ? 'postgres://postgres@localhost/postgres?host=/var/run/postgresql' : 'postgres://postgres@127.0.0.1:5432/postgres');

/** A database of the benchmark's PostgreSQL server, by name. */
export function pgDatabase(name: string): string {
  const url = new URL(PG_SERVER);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the benchmark's PostgreSQL server itself (create or drop a benchmark's database). */
export function pgAdmin(query: string): Promise<void> {
  return onServer(PG_SERVER, query);
}

export const BENCH_SECRETS = { JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00', KEY_ENCRYPTION_KEY: 'be'.repeat(32) } as const;

export interface BenchServerOptions {
  /**
   * Environment on top of this process's. The embedded database unless DATABASE_URL says otherwise;
   * a DATA_DIR given is kept, else the server gets a fresh one that `stop` removes.
   */
  env?: Record<string, string>;
  /**
   * Ready once /api/health answers, or (the default) once the catalogue is synced too, so that no
   * sync runs while a benchmark measures.
   */
  readyWhen?: 'healthy' | 'catalogue';
}

export interface BenchServer {
  /** http://127.0.0.1:<port> */
  base: string;
  pid: number;
  /** Seconds from the start to ready. */
  startSeconds: number;
  stop(): Promise<void>;
}

/** Starts the server and answers once it is ready; stops it again if it never gets there. */
export async function startBenchServer(options: BenchServerOptions = {}): Promise<BenchServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const ownDataDir = options.env?.DATA_DIR ? undefined : mkdtempSync(path.join(tmpdir(), 'keystore-bench-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', NODE_ENV: 'production', DEMO_MARKET: 'off', ...BENCH_SECRETS, ...options.env, PORT: String(port) };
  if (ownDataDir) env.DATA_DIR = ownDataDir;
  const started = performance.now();
  // BENCH_CPU_PROFILE=DIR writes a V8 CPU profile of each server there when it stops (open it in Chrome's DevTools).
  // BENCH_NODE_FLAGS adds Node flags (--trace-gc, say) to each server's.
  const profile = [
    ...(process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : []),
    ...(process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
  ];
  const server = spawn(process.execPath, [...serverNodeFlags(env), ...profile, path.join(root, 'apps/server/src/main.ts')], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });

  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
  };

  try {
    // Polled often: the catalogue benchmark holds the start time against a target.
    while (!(await isReady(base, options.readyWhen ?? 'catalogue'))) {
      if (server.exitCode !== null || server.signalCode !== null) throw new Error(`the server exited with ${server.exitCode ?? server.signalCode}`);
      if (performance.now() - started > READY_WITHIN_MS) throw new Error(`the server was not ready within ${READY_WITHIN_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, pid: server.pid!, startSeconds: (performance.now() - started) / 1000, stop };
}

async function isReady(base: string, readyWhen: 'healthy' | 'catalogue'): Promise<boolean> {
  try {
    if (readyWhen === 'healthy') return (await fetch(`${base}/api/health`)).ok;
    const games = (await (await fetch(`${base}/api/games?pageSize=1`)).json()) as { total?: number };
    return (games.total ?? 0) > 0;
  } catch {
    return false; // not listening yet
  }
}
