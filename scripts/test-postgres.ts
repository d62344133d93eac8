// `npm run test:postgres`: the suites that need a real PostgreSQL server (races, crashes, several
// instances, outages: *.pg.test.ts), run against the one at 127.0.0.1:5432 when it answers there
// (DATABASE_URL chooses another). Without one they are skipped, and this says so plainly.
import { spawnSync } from 'node:child_process';
import { answers } from './server-process.ts';

const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const { hostname, port } = new URL(url);

const reachable = await answers(Number(port || 5432), hostname);

if (!reachable) {
  console.log(`\nSKIPPED: no PostgreSQL answers at ${hostname}:${port || 5432}, so the PostgreSQL suites (*.pg.test.ts: races, crashes, two instances, outages, signals) did not run.\n`);
  process.exit(0);
}
console.log(`PostgreSQL suites against ${hostname}:${port || 5432}…`);
const run = spawnSync('npx', ['vitest', 'run', '--project', 'postgres'], { stdio: 'inherit', env: { ...process.env, DATABASE_URL: url } });
process.exit(run.status ?? 1);
