// Login benchmark: POST /api/auth/login with the right password from a trusted address (argon2id
// verification + a session row + a signed JWT) against GET /api/health (the framework floor), on the
// production server with the embedded database. The password hash is slow on purpose; this prints
// what that costs on this machine.
//   npm run bench:login
//   BENCH_SECONDS=5 BENCH_CONNECTIONS=2 npm run bench:login
//   BENCH_LOGIN_POSTGRES=1 npm run bench:login      (on a scratch database of PG_SERVER, bench/server.ts)
// The server runs with RATE_LIMIT_SCALE=1000: one client logging in hundreds of times a second is
// what the rate limits exist to stop, and the benchmark measures the login, not the limiter.
// It also times forgot-password for an address with an account and one without, asked as a prober
// would (issues 13 and 22): back to back, interleaved in a random order, so that work one answer
// leaves behind lands on the next. The two distributions must not tell the addresses apart: medians
// within 15 % and a probe comparing one answer of each guessing right at most 60 % of the time.
import autocannon from 'autocannon';
import { hashPassword, passwordMatches } from '../apps/server/src/platform/passwords.ts';
import { codeIn, startSmtpSink } from '../apps/server/src/test/smtp-sink.ts';
import { figure, percentile, printFigures } from './figures.ts';
import { pgAdmin, pgDatabase, startBenchServer } from './server.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
/** Forgot-password answers timed per address kind, after FORGOT_WARMUP rounds that are not counted. */
const FORGOT_SAMPLES = Number(process.env.BENCH_FORGOT_SAMPLES ?? 200);
const FORGOT_WARMUP = 20;
/** The goals: medians within 15 %, and a comparison of one answer of each right at most 60 % of the time (50 %: a coin toss). */
const MEDIAN_GOAL = 0.15;
const TELLS_GOAL = 0.6;
const customer = { username: 'Bench_Player', email: 'bench.player@gmail.com', password: 'BenchPass1' };
const NO_ACCOUNT = 'nobody.at.all@gmail.com';
const ON_POSTGRES = process.env.BENCH_LOGIN_POSTGRES === '1';
const PG_NAME = 'keystore_bench_login';

if (ON_POSTGRES) {
  await pgAdmin(`DROP DATABASE IF EXISTS "${PG_NAME}" WITH (FORCE)`);
  await pgAdmin(`CREATE DATABASE "${PG_NAME}"`);
}
const sink = await startSmtpSink();
const server = await startBenchServer({
  env: { SMTP_URL: sink.url, RATE_LIMIT_SCALE: '1000', ...(ON_POSTGRES ? { DATABASE_URL: pgDatabase(PG_NAME) } : {}) },
});
const { base } = server;

async function post(pathname: string, body: object): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
}

async function measure(options: { path: string; method?: 'GET' | 'POST'; body?: string }, seconds: number): Promise<Measured> {
  const result = await autocannon({
    url: `${base}${options.path}`,
    method: options.method ?? 'GET',
    ...(options.body ? { body: options.body, headers: { 'content-type': 'application/json' } } : {}),
    connections: CONNECTIONS,
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${options.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** The median time of one password check in this process, with the store's parameters (read from its hash). */
async function oneVerification(): Promise<{ ms: number; parameters: string }> {
  const stored = await hashPassword('x');
  const times: number[] = [];
  for (let i = 0; i < 10; i += 1) {
    const started = performance.now();
    await passwordMatches(stored, 'x');
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { ms: times[5]!, parameters: stored.split('$')[3]! };
}

/**
 * `rounds` forgot-password answers (ms) for each address, asked as a prober asks: back to back, each
 * round in a random order of the two, so whatever one answer leaves running meets the next answer
 * of either kind alike.
 */
async function forgotTimes(known: string, unknown: string, rounds: number): Promise<{ known: number[]; unknown: number[] }> {
  const took = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < rounds; i += 1) {
    const order = Math.random() < 0.5 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
    for (const kind of order) {
      const started = performance.now();
      await post('/api/auth/forgot-password', { email: kind === 'known' ? known : unknown });
      took[kind].push(performance.now() - started);
    }
  }
  return took;
}


/**
 * How often one answer of each kind tells which is which by being the slower (the Mann-Whitney
 * statistic as a probability): P(an unknown address's answer is slower than a known one's), ties
 * counting half. 0.5 is a coin toss; 1 or 0 tells every time. Answered as the better guesser's
 * chance, max(p, 1 − p).
 */
function tells(known: number[], unknown: number[]): number {
  let slower = 0;
  for (const u of unknown) for (const k of known) slower += u > k ? 1 : u === k ? 0.5 : 0;
  const p = slower / (known.length * unknown.length);
  return Math.max(p, 1 - p);
}

try {
  // A verified customer; verifying the e-mail from this address makes it trusted, so logins get a session.
  await post('/api/auth/register', customer);
  await post('/api/auth/verify-email', { email: customer.email, code: codeIn(await sink.nextMail(customer.email)) });
  const first = await post('/api/auth/login', customer);
  if (typeof first.token !== 'string') throw new Error(`login did not answer a token: ${JSON.stringify(first)}`);

  const login = { path: '/api/auth/login', method: 'POST' as const, body: JSON.stringify({ email: customer.email, password: customer.password }) };
  const health = { path: '/api/health' };
  await measure(login, 1);
  await measure(health, 1);
  const rows = [
    { name: 'POST /api/auth/login (argon2id + session)', ...(await measure(login, SECONDS)) },
    { name: 'GET /api/health (floor)', ...(await measure(health, SECONDS)) },
  ];
  const argon = await oneVerification();
  await forgotTimes(customer.email, NO_ACCOUNT, FORGOT_WARMUP);
  const forgot = await forgotTimes(customer.email, NO_ACCOUNT, FORGOT_SAMPLES);

  console.log(`\n${ON_POSTGRES ? 'PostgreSQL' : 'embedded database'}, ${CONNECTIONS} connections, ${SECONDS} s per call; argon2id ${argon.parameters} (one verification: ${argon.ms.toFixed(1)} ms)`);
  console.log(['call'.padEnd(44), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8)].join(''));
  for (const row of rows) {
    console.log([row.name.padEnd(44), row.rps.toFixed(0).padStart(9), row.p50.toFixed(1).padStart(8), row.p99.toFixed(1).padStart(8)].join(''));
  }
  const loginRow = rows[0]!;
  const floor = rows[1]!;
  console.log(`login throughput is ${((loginRow.rps / floor.rps) * 100).toFixed(1)} % of the floor's (1 : ${(floor.rps / loginRow.rps).toFixed(0)})`);

  const known = [...forgot.known].sort((a, b) => a - b);
  const unknown = [...forgot.unknown].sort((a, b) => a - b);
  const spread = (sorted: number[]) => [10, 50, 90].map((p) => percentile(sorted, p).toFixed(2)).join(' / ');
  const ratio = percentile(unknown, 50) / percentile(known, 50);
  const inRange = unknown.filter((ms) => ms >= percentile(known, 10) && ms <= percentile(known, 90)).length / unknown.length;
  const guessed = tells(known, unknown);
  console.log(`\nforgot-password, ${FORGOT_SAMPLES} answers each, back to back and interleaved (ms, p10 / p50 / p90):`);
  console.log(`  an account: ${spread(known)}`);
  console.log(`  no account: ${spread(unknown)}`);
  console.log(`  no account's answers within the account's p10–p90: ${(inRange * 100).toFixed(0)} %`);
  printFigures('forgot-password must not tell who has an account', [
    figure('median, no account ÷ account', `within ±${MEDIAN_GOAL * 100} %`, ratio.toFixed(3), Math.abs(ratio - 1) <= MEDIAN_GOAL),
    figure('one answer of each: slower one guessed right', `≤ ${TELLS_GOAL * 100} % (50 % = coin toss)`, `${(guessed * 100).toFixed(1)} %`, guessed <= TELLS_GOAL),
  ]);
} finally {
  await server.stop();
  await sink.close();
  if (ON_POSTGRES) await pgAdmin(`DROP DATABASE IF EXISTS "${PG_NAME}" WITH (FORCE)`);
}
