// Catalogue benchmark: the store on a 70,000-title synthetic catalogue, on the embedded database and
// on PostgreSQL. Prints req/s, p50 and p99 of each call, its ratio to /api/health (the framework
// floor), the server's RSS, and the seconds from start to healthy on an existing data dir.
//   npm run bench                       (both databases; PostgreSQL when BENCH_DATABASE_URL or the local server answers)
//   BENCH_SECONDS=5 npm run bench       (shorter runs)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { BENCH_SECRETS, startBenchServer } from './server.ts';

const root = path.join(import.meta.dirname, '..');
const COUNT = Number(process.env.BENCH_TITLES ?? 70_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PG_SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const calls = [
  { name: 'health (floor)', path: '/api/health' },
  { name: 'catalogue page: 2 filters + sort + facets', path: '/api/games?platform=Steam,PC,GOG&genre=Action,RPG&sort=price-asc&page=3' },
  { name: 'search', path: '/api/games/search?query=shadow%20legends' },
  { name: 'quick-search, 3 letters', path: '/api/games/quick-search?query=iro' },
] as const;

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
}

function seed(env: Record<string, string>): void {
  const started = performance.now();
  const run = spawnSync(process.execPath, [path.join(root, 'apps/server/src/scripts/seed-synthetic.ts'), String(COUNT)], {
    env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error('seeding failed');
  console.log(`  seeded ${COUNT} titles in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

function rssMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

async function measure(base: string, pathAndQuery: string, seconds: number): Promise<{ rps: number; p50: number; p99: number }> {
  const result = await autocannon({ url: `${base}${pathAndQuery}`, connections: CONNECTIONS, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${pathAndQuery}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function benchmark(label: string, env: Record<string, string>): Promise<void> {
  console.log(`\n== ${label} ==`);
  // Ready once healthy, not once synced: the start time is held against "healthy ≤ 3 s" below.
  const server = await startBenchServer({ env, readyWhen: 'healthy' });
  const seconds = server.startSeconds;
  const { total } = (await (await fetch(`${server.base}/api/games?pageSize=1`)).json()) as { total: number };
  // Warm up the JIT on every call before measuring.
  for (const call of calls) await measure(server.base, call.path, 1);
  const measured: Measured[] = [];
  for (const call of calls) measured.push({ name: call.name, ...(await measure(server.base, call.path, SECONDS)) });
  const memory = rssMb(server.pid);
  await server.stop();

  const floor = measured[0]!;
  console.log(`catalogue: ${total} titles; ${CONNECTIONS} connections, ${SECONDS} s per call`);
  console.log(['call'.padEnd(44), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'vs floor'.padStart(9)].join(''));
  for (const row of measured) {
    console.log(
      [row.name.padEnd(44), row.rps.toFixed(0).padStart(9), row.p50.toFixed(1).padStart(8), row.p99.toFixed(1).padStart(8), `${((row.rps / floor.rps) * 100).toFixed(0)} %`.padStart(9)].join(''),
    );
  }
  const page = measured[1]!;
  const quick = measured[3]!;
  const checks = [
    [`catalogue page ≥ 50 % of floor throughput`, page.rps / floor.rps >= 0.5, `${((page.rps / floor.rps) * 100).toFixed(0)} %`],
    [`catalogue page p99 ≤ 5 ms`, page.p99 <= 5, `${page.p99} ms`],
    [`quick-search p99 ≤ 3 ms`, quick.p99 <= 3, `${quick.p99} ms`],
    [`RSS ≤ 250 MB`, memory.rss <= 250, `${memory.rss.toFixed(0)} MB (peak ${memory.peak.toFixed(0)} MB)`],
    [`healthy ≤ 3 s on an existing data dir`, seconds <= 3, `${seconds.toFixed(2)} s`],
  ] as const;
  for (const [target, ok, figure] of checks) console.log(`${ok ? 'PASS' : 'MISS'}  ${target}: ${figure}`);
}

async function postgresDatabase(): Promise<string | undefined> {
  const admin = new pg.Client({ connectionString: PG_SERVER });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const exists = await admin.query("select 1 from pg_database where datname = 'keystore_bench'");
  if (exists.rowCount === 0) await admin.query('create database keystore_bench');
  await admin.end();
  const url = new URL(PG_SERVER);
  url.pathname = '/keystore_bench';
  return url.toString();
}

async function gameCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query("select count(*) from games where supplier = 'synthetic'")).rows[0].count);
  } catch {
    return 0;
  } finally {
    await client.end();
  }
}

const dataDir = path.join(root, '.bench-data', `embedded-${COUNT}`);
const embeddedEnv = { DATA_DIR: dataDir, DATABASE_URL: '' };
if (!existsSync(path.join(dataDir, 'pglite'))) {
  console.log(`Seeding the embedded database with ${COUNT} titles…`);
  seed(embeddedEnv);
}
await benchmark('embedded database (PGlite)', embeddedEnv);

const pgUrl = await postgresDatabase();
if (pgUrl) {
  // Seeding on PostgreSQL loads the configuration too, which there asks for the secrets.
  const pgEnv = { DATA_DIR: path.join(root, '.bench-data', 'pg'), DATABASE_URL: pgUrl, ...BENCH_SECRETS };
  if ((await gameCount(pgUrl)) < COUNT) {
    console.log(`Seeding PostgreSQL with ${COUNT} titles…`);
    seed(pgEnv);
  }
  await benchmark('PostgreSQL', pgEnv);
} else {
  console.log(`\nPostgreSQL at ${PG_SERVER} does not answer: only the embedded database was measured.`);
}
