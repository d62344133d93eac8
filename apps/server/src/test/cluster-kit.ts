// Real server processes for the tests of running Keystore as an owner does (DESIGN §6): several
// instances on one PostgreSQL, started as the README's scale-out section says (same DATABASE_URL,
// JWT_SECRET and KEY_ENCRYPTION_KEY, REDIS_URL when Redis answers, a port each), killed, signalled
// and restarted; and a PostgreSQL server of the test's own, which it may stop and start.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Session } from '@keystore/contract';
import { answers, freePort, scratchDatabase, serverNodeFlags } from '../../../../scripts/server-process.ts';
import { openDatabase } from '../db/client.ts';
import { SessionService } from '../modules/auth/sessions.ts';
import { UsersService } from '../modules/users/service.ts';
import { hashPassword } from '../platform/passwords.ts';
import { usernameWith } from './accounts.ts';
import { testConfig } from './helper.ts';

export { scratchDatabase };

const MAIN = path.join(import.meta.dirname, '../main.ts');

/** The shared PostgreSQL of the machine and CI; the cluster suites are skipped without it. */
export const SHARED_POSTGRES = process.env.DATABASE_URL ?? process.env.CLUSTER_DATABASE_URL;

/** The secrets every instance of one store shares (README: several instances). */
export const CLUSTER_SECRETS = { JWT_SECRET: 'cluster-test-secret-cluster-test-secret-0123', KEY_ENCRYPTION_KEY: 'c'.repeat(64) };

export interface Instance {
  base: string;
  child: ChildProcess;
  /** What the process wrote to stdout and stderr. */
  output(): string;
  /** Resolves with the exit code, or the signal's name when a signal ended it. */
  exited: Promise<number | string>;
  /** Sends `signal` (default SIGTERM) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export interface InstanceOptions {
  /** The PostgreSQL of the store; without one, the embedded database in the instance's own DATA_DIR. */
  databaseUrl?: string;
  env?: Record<string, string>;
  /** Its own process group, so a test can signal the whole group as a supervisor does. */
  group?: boolean;
  /** Wait for /api/health/ready (default) or only for the process to listen. */
  waitReady?: boolean;
}

/** Starts one instance of the store, as `npm start` runs the server, and waits until it is ready. */
export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keystore-cluster-'));
  const redis = (await answers(6379)) ? { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `keystore-cluster-${process.pid}:` } : {};
  const database = options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {};
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const child = spawn(process.execPath, [...serverNodeFlags({ ...database, ...options.env }), MAIN], {
    env: {
      ...inherited,
      ...database,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      // Every customer of a test cluster calls from this machine: the per-address caps on unpaid
      // orders (decision 016) would make them one shopper.
      RATE_LIMIT_SCALE: '1000',
      // The tests make the sellers they need: no demo sellers in their stores.
      DEMO_MARKET: 'off',
      ...CLUSTER_SECRETS,
      ...redis,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group ?? false,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code ?? 0)));
  void exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  const instance: Instance = {
    base,
    child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  const ready = options.waitReady ?? true;
  for (const deadline = Date.now() + 60_000; ; ) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited with ${child.exitCode ?? child.signalCode}:\n${output}`);
    try {
      const answer = await fetch(`${base}${ready ? '/api/health/ready' : '/api/health/live'}`);
      if (answer.ok) return instance;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server was not ready within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A customer made as a person does, over HTTP: registered on `on`, verified and signed in through `verifyOn` (another instance). */
export async function customerOver(on: string, verifyOn = on, tag = usernameWith('Cluster_').slice('Cluster_'.length)): Promise<{ email: string; token: string; headers: Record<string, string> }> {
  const email = `cluster.${tag}@gmail.com`;
  const password = 'Secret123';
  const post = async (base: string, pathname: string, body: unknown) => {
    const answer = await fetch(`${base}${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`${pathname}: ${answer.status} ${await answer.text()}`);
    return answer.json() as Promise<unknown>;
  };
  await post(on, '/api/auth/register', { username: `Cluster_${tag}`, email, password });
  const mails = (await (await fetch(`${on}/dev/mail/messages?to=${encodeURIComponent(email)}`)).json()) as Array<{ text: string }>;
  const code = /\b(\d{6})\b/.exec(mails[0]?.text ?? '')?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  await post(verifyOn, '/api/auth/verify-email', { email, code });
  const { token } = (await post(on, '/api/auth/login', { email, password })) as Session;
  return { email, token, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
}

/** Polls `check` until it answers something truthy or `ms` pass; answers the last value. */
export async function eventually<T>(check: () => Promise<T>, ms: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    let value: T | undefined;
    try {
      value = await check();
    } catch {
      value = undefined;
    }
    if (value || Date.now() > deadline) return value as T;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

const PG_BIN = (() => {
  const versions = spawnSync('ls', ['/usr/lib/postgresql']).stdout?.toString().trim().split('\n').filter(Boolean) ?? [];
  return versions.length ? path.join('/usr/lib/postgresql', versions.sort().at(-1)!, 'bin') : undefined;
})();

/** Whether this machine can start a PostgreSQL server of a test's own (its binaries, and a user to run them as). */
export const canRunOwnPostgres = Boolean(PG_BIN) && spawnSync('id', ['postgres']).status === 0;

export interface OwnPostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops and deletes it. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL server of the test's own on a free port (never the shared one, which other suites
 * use): initdb into a temporary folder, run as the `postgres` user (PostgreSQL refuses root).
 */
export async function ownPostgres(): Promise<OwnPostgres> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'keystore-pg-'));
  const data = path.join(dir, 'data');
  const asPostgres = (args: string[]) => {
    const user = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
    const command = [...user, ...args];
    const result = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}${result.stdout}`);
  };
  if (process.getuid?.() === 0) {
    const { uid, gid } = { uid: Number(spawnSync('id', ['-u', 'postgres']).stdout), gid: Number(spawnSync('id', ['-g', 'postgres']).stdout) };
    chownSync(dir, uid, gid);
  }
  asPostgres([path.join(PG_BIN!, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const pgCtl = (action: 'start' | 'stop') =>
    asPostgres([
      path.join(PG_BIN!, 'pg_ctl'),
      '-D', data,
      '-w',
      ...(action === 'start' ? ['-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, '-l', path.join(dir, 'log')] : ['-m', 'fast']),
      action,
    ]);
  pgCtl('start');
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      pgCtl('stop');
      running = false;
    },
    async start() {
      pgCtl('start');
      running = true;
    },
    async destroy() {
      if (running) pgCtl('stop');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The password of every customer `customersIn` makes. */
export const CUSTOMER_PASSWORD = 'Secret123';

/**
 * `count` verified customers with open sessions, written straight to the database (signing up 50
 * people over HTTP would only meet the sign-up rate limits); their tokens work on every instance.
 */
export async function customersIn(databaseUrl: string, count: number): Promise<Array<{ userId: string; headers: Record<string, string> }>> {
  const database = await openDatabase({ url: databaseUrl });
  try {
    const { config, cleanup } = testConfig({ ...CLUSTER_SECRETS });
    cleanup();
    const users = new UsersService(database, config);
    const sessions = new SessionService(database, CLUSTER_SECRETS.JWT_SECRET);
    const passwordHash = await hashPassword(CUSTOMER_PASSWORD);
    return await Promise.all(
      Array.from({ length: count }, async (_, n) => {
        const tag = `${process.pid.toString(36)}${n}${Math.random().toString(36).slice(2, 6)}`;
        const user = await users.create({ username: `Buyer_${tag}`, email: `buyer.${tag}@gmail.com`, passwordHash, verified: true });
        const token = await sessions.open(user.id, { ip: '127.0.0.1', userAgent: 'cluster-test' });
        return { userId: user.id, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } };
      }),
    );
  } finally {
    await database.close();
  }
}

/**
 * A call as the web app makes it (lib/busy-retry.ts): a busy store's 503 with Retry-After is asked
 * again after the advised wait, a few times; any other answer is the answer.
 */
export async function politely(url: string, init: RequestInit, tries = 5): Promise<Response> {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await fetch(url, init);
    const wait = Number(answer.headers.get('retry-after'));
    if (answer.status !== 503 || !wait || attempt >= tries) return answer;
    await answer.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 * (1 + Math.random() / 2)));
  }
}

/** A purchase as the pay page makes it: the order, then the test card. Answers both HTTP statuses and the order id. */
export async function purchase(base: string, headers: Record<string, string>, gameId: string, quantity = 1): Promise<{ placed: number; paid: number | undefined; orderId: string | undefined }> {
  const placed = await politely(`${base}/api/orders`, { method: 'POST', headers, body: JSON.stringify({ items: [{ gameId, quantity }] }) });
  const body = (await placed.json()) as { order?: { _id: string } };
  if (placed.status !== 201 || !body.order) return { placed: placed.status, paid: undefined, orderId: undefined };
  const paid = await fetch(`${base}/api/payments/test/${body.order._id}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ cardNumber: '4242424242424242', expiry: '12/39', cvc: '123', name: 'Cluster Buyer' }),
  });
  await paid.arrayBuffer();
  return { placed: placed.status, paid: paid.status, orderId: body.order._id };
}
