// Login benchmark: POST /api/auth/login with the right password from a trusted address (argon2id
// verification + a session row + a signed JWT) against GET /api/health (the framework floor), on the
// production server with the embedded database. The password hash is slow on purpose; this prints
// what that costs on this machine.
//   npm run bench:login
//   BENCH_SECONDS=5 BENCH_CONNECTIONS=2 npm run bench:login
// The server runs with RATE_LIMIT_SCALE=1000: one client logging in hundreds of times a second is
// what the rate limits exist to stop, and the benchmark measures the login, not the limiter.
// It also prints the median forgot-password answer for a known and an unknown address, which
// should be the same (issue 13: the answer must not tell who has an account).
import autocannon from 'autocannon';
import { hashPassword, passwordMatches } from '../apps/server/src/platform/passwords.ts';
import { codeIn, startSmtpSink } from '../apps/server/src/test/smtp-sink.ts';
import { startBenchServer } from './server.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
/** Forgot-password answers timed per address kind (odd, so the median is one of them). */
const FORGOT_SAMPLES = 101;
const customer = { username: 'Bench_Player', email: 'bench.player@gmail.com', password: 'BenchPass1' };

const sink = await startSmtpSink();
const server = await startBenchServer({ env: { SMTP_URL: sink.url, RATE_LIMIT_SCALE: '1000' } });
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

/** The median ms of `times` forgot-password answers for each of `emails`, asked in turn so that both see the same machine. */
async function forgotMedians(emails: string[], times: number): Promise<number[]> {
  const took = emails.map((): number[] => []);
  for (let i = 0; i < times; i += 1) {
    for (const [index, email] of emails.entries()) {
      const started = performance.now();
      await post('/api/auth/forgot-password', { email });
      took[index]!.push(performance.now() - started);
      // Apart, as a prober would ask: the link written after one answer must not queue before the next.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return took.map((list) => list.sort((a, b) => a - b)[Math.floor(times / 2)]!);
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
  await forgotMedians([customer.email, 'nobody.at.all@gmail.com'], 2);
  const [known, unknown] = await forgotMedians([customer.email, 'nobody.at.all@gmail.com'], FORGOT_SAMPLES);

  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per call; argon2id ${argon.parameters} (one verification: ${argon.ms.toFixed(1)} ms)`);
  console.log(['call'.padEnd(44), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8)].join(''));
  for (const row of rows) {
    console.log([row.name.padEnd(44), row.rps.toFixed(0).padStart(9), row.p50.toFixed(1).padStart(8), row.p99.toFixed(1).padStart(8)].join(''));
  }
  const loginRow = rows[0]!;
  const floor = rows[1]!;
  console.log(`forgot-password median of ${FORGOT_SAMPLES}: ${known!.toFixed(2)} ms for an account, ${unknown!.toFixed(2)} ms for no account`);
  console.log(`login throughput is ${((loginRow.rps / floor.rps) * 100).toFixed(1)} % of the floor's (1 : ${(floor.rps / loginRow.rps).toFixed(0)})`);
} finally {
  await server.stop();
  await sink.close();
}
