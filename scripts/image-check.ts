// `npm run test:image`: what deploy/Dockerfile does, on the same files, without a Docker engine
// (issue 32). It reads the Dockerfile and follows it: the build stage's COPY from the repository
// (less what .dockerignore leaves out) and its RUN steps (`npm ci`, the web build, `npm prune
// --omit=dev`) in a temporary folder; then the runtime stage's `COPY --from=build` into a second
// folder, so the server starts with only what the image holds. It starts the image's CMD there with
// the image's ENV (NODE_ENV=production), as an unprivileged user when run as root, waits for
// /api/health/ready, buys a game as a guest with the test card, reads the paid order's key and the
// metrics port, then sends SIGTERM and expects exit code 0.
// What it cannot do without an engine: install tini (the runtime stage's RUN) or run as the image's
// `node` user (`nobody` here); the Dockerfile's lint and contents are checked by deploy.test.ts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answers, freePort, scratchDatabase } from './server-process.ts';

const root = path.join(import.meta.dirname, '..');
const dockerfile = path.join(root, 'deploy/Dockerfile');
const started = Date.now();
const say = (line: string) => console.log(`[image-check ${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${line}`);

interface Stage {
  name: string;
  /** The stage's filesystem: the image's `/app` is `<dir>/app`. */
  dir: string;
  workdir: string;
  env: Record<string, string>;
  cmd: string[];
  user?: string;
}

/** The Dockerfile's instructions: continuation lines joined, comments dropped. */
function instructions(text: string): Array<{ keyword: string; args: string }> {
  const joined = text.replace(/\\\n(\s*#.*\n)*/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });
}

/** The `.dockerignore` patterns: a file of the build context matching one is not sent. */
function ignored(relative: string, patterns: string[]): boolean {
  return patterns.some((pattern) => path.matchesGlob(relative, pattern) || path.matchesGlob(relative, `${pattern}/**`));
}

/** Where an image path lands in a stage's folder (relative paths from the stage's WORKDIR). */
const inStage = (stage: Stage, imagePath: string) => path.join(stage.dir, path.posix.isAbsolute(imagePath) ? imagePath : path.posix.join(stage.workdir, imagePath));

/** Docker's COPY: a folder's contents into the destination, a file into it when it ends with `/`. */
function copyInto(source: string, destination: string, filter?: (source: string) => boolean): void {
  if (!existsSync(source)) throw new Error(`COPY: ${source} does not exist`);
  if (statSync(source).isDirectory()) {
    mkdirSync(destination, { recursive: true });
    cpSync(source, destination, { recursive: true, verbatimSymlinks: true, filter });
  } else {
    const target = destination.endsWith('/') ? path.join(destination, path.basename(source)) : destination;
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(source, target);
  }
}

/** The environment of a build stage: the image sets no NODE_ENV while it builds (dev dependencies are installed, then pruned). */
function withoutNodeEnv(): NodeJS.ProcessEnv {
  const { NODE_ENV: _production, ...env } = process.env;
  return env;
}

function run(command: string, cwd: string): void {
  say(`RUN ${command}`);
  const result = spawnSync('sh', ['-c', command], { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: withoutNodeEnv() });
  if (result.status !== 0) throw new Error(`"${command}" failed with ${result.status ?? result.signal}`);
}

/** Follows the Dockerfile in `work`; answers the last stage, ready to run. */
function followDockerfile(work: string): Stage {
  const ignore = readFileSync(path.join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: Stage[] = [];
  const list = instructions(readFileSync(dockerfile, 'utf8'));
  const last = list.findLastIndex((instruction) => instruction.keyword === 'FROM');
  for (const [index, { keyword, args }] of list.entries()) {
    const stage = stages.at(-1);
    if (keyword === 'FROM') {
      const name = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? String(stages.length);
      say(`FROM ${args}`);
      stages.push({ name, dir: path.join(work, name), workdir: '/', env: {}, cmd: [] });
    } else if (!stage) {
      throw new Error(`${keyword} before FROM`);
    } else if (keyword === 'WORKDIR') {
      stage.workdir = path.posix.resolve(stage.workdir, args);
      mkdirSync(inStage(stage, '.'), { recursive: true });
    } else if (keyword === 'ENV') {
      for (const pair of args.split(/\s+/)) {
        const [name, ...value] = pair.split('=');
        stage.env[name!] = value.join('=');
      }
    } else if (keyword === 'COPY') {
      const words = args.split(/\s+/);
      const from = words.find((word) => word.startsWith('--from='))?.slice('--from='.length);
      const paths = words.filter((word) => !word.startsWith('--'));
      const destination = inStage(stage, paths.at(-1)!) + (paths.at(-1)!.endsWith('/') ? '/' : '');
      for (const source of paths.slice(0, -1)) {
        if (from) {
          const origin = stages.find((one) => one.name === from);
          if (!origin) throw new Error(`COPY --from=${from}: no such stage`);
          copyInto(inStage(origin, source), destination);
        } else {
          // From the build context: the repository, less what .dockerignore leaves out.
          copyInto(path.join(root, source), destination, (file) => !ignored(path.relative(root, file), ignore));
        }
      }
    } else if (keyword === 'RUN') {
      // The runtime stage's RUN installs tini and makes DATA_DIR the node user's: done by hand below.
      if (index > last) say(`(skipped in the runtime stage: RUN ${args.slice(0, 60)}…)`);
      else run(args, inStage(stage, '.'));
    } else if (keyword === 'USER') {
      stage.user = args;
    } else if (keyword === 'CMD') {
      stage.cmd = JSON.parse(args) as string[];
    }
  }
  return stages.at(-1)!;
}

/** The unprivileged user the server runs as when this script runs as root (the image's `node` does not exist here). */
function unprivileged(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'nobody'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function json<T>(answer: Response, what: string): Promise<T> {
  if (!answer.ok) throw new Error(`${what}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}

async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>, server: ChildProcess): Promise<T> {
  for (const deadline = Date.now() + ms; ; ) {
    if (server.exitCode !== null || server.signalCode !== null) throw new Error(`the server exited (${server.exitCode ?? server.signalCode}) while waiting for ${what}`);
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const work = mkdtempSync(path.join(tmpdir(), 'keystore-image-'));
let server: ChildProcess | undefined;
let database: Awaited<ReturnType<typeof scratchDatabase>> | undefined;
let log = '';
try {
  say(`following deploy/Dockerfile in ${work}`);
  const image = followDockerfile(work);
  const app = inStage(image, '.');
  say(`the runtime stage holds: ${readdirSync(app).join(', ')}`);

  // As the runtime stage's RUN does: DATA_DIR belongs to the unprivileged user, the code stays root's.
  const user = unprivileged();
  const dataDir = inStage(image, image.env.DATA_DIR!);
  mkdirSync(dataDir, { recursive: true });
  for (let dir = app; dir.startsWith(work) && dir !== path.dirname(work); dir = path.dirname(dir)) chmodSync(dir, 0o755);
  if (user) chownSync(dataDir, user.uid, user.gid);

  // The image's CMD, its node being this one (Node 24); PostgreSQL when the machine has one, as in compose.yaml.
  const [node, ...args] = image.cmd;
  if (node !== 'node') throw new Error(`the CMD starts ${node}, not node`);
  const withPostgres = await answers(5432);
  // A database of its own on the machine's PostgreSQL, as the compose file's store has.
  if (withPostgres) database = await scratchDatabase('postgres://postgres@127.0.0.1:5432/test', 'image_check');
  else args.unshift('--liftoff-only');
  const port = await freePort();
  const metricsPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    ...image.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: base,
    METRICS_PORT: String(metricsPort),
    JWT_SECRET: randomBytes(48).toString('base64'),
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: `image.check.owner.${process.pid}@gmail.com`,
    ADMIN_PASSWORD: `Image-${randomBytes(9).toString('base64url')}`,
    LOG_LEVEL: 'warn',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...((await answers(6379)) ? { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `keystore-image-check-${process.pid}:` } : {}),
  };
  say(`starting ${[node, ...args].join(' ')} as ${user ? `uid ${user.uid}` : 'this user'}, NODE_ENV=${env.NODE_ENV}, ${database ? 'PostgreSQL' : 'the embedded database'}, port ${port}`);
  server = spawn(process.execPath, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
  server.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => server!.once('exit', (code, signal) => resolve(signal ?? code ?? 0)));

  await until('ready answer', 180_000, async () => ((await fetch(`${base}/api/health/ready`)).ok ? true : undefined), server);
  say('GET /api/health/ready answered 200');
  const page = await fetch(`${base}/`);
  if (!page.ok || !(await page.text()).includes('<div id="root">')) throw new Error(`the built web app is not served: ${page.status}`);
  say('GET / serves the built web app');

  const games = await json<{ items: Array<{ _id: string; title: string; stock: number }> }>(await fetch(`${base}/api/games?pageSize=50`), 'GET /api/games');
  const game = games.items.find((item) => item.stock > 0);
  if (!game) throw new Error('no game in stock');
  const headers = { 'content-type': 'application/json' };
  const email = `image.check.${process.pid}@gmail.com`;
  const placed = await json<{ order: { _id: string }; token: string }>(
    await fetch(`${base}/api/orders`, { method: 'POST', headers, body: JSON.stringify({ items: [{ gameId: game._id, quantity: 1 }], email }) }),
    'POST /api/orders',
  );
  say(`guest order ${placed.order._id} placed for "${game.title}"`);
  const card = { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'Image Check' };
  await json(await fetch(`${base}/api/payments/test/${placed.order._id}?token=${placed.token}`, { method: 'POST', headers, body: JSON.stringify(card) }), 'POST /api/payments/test');
  say('paid with the test card');
  const keys = await until('key', 30_000, async () => {
    const answer = await fetch(`${base}/api/orders/${placed.order._id}/keys?token=${placed.token}`);
    const body = answer.ok ? ((await answer.json()) as { keys: Array<{ key: string }> }) : undefined;
    return body && body.keys.length > 0 ? body.keys : undefined;
  }, server);
  say(`the order's key is revealed (${keys[0]!.key.slice(0, 5)}…)`);

  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  if (!/^keystore_orders_total\{event="paid"\} 1$/m.test(metrics)) throw new Error(`the metrics port does not count the paid order:\n${metrics.slice(0, 2000)}`);
  say('METRICS_PORT serves /metrics with the paid order counted');
  const admin = await json<{ twoFactorRequired?: boolean }>(
    await fetch(`${base}/api/auth/login`, { method: 'POST', headers, body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }) }),
    'POST /api/auth/login (ADMIN_EMAIL)',
  );
  say(`ADMIN_EMAIL's account exists: its password is accepted (next step: ${admin.twoFactorRequired ? 'a second factor' : 'none'})`);

  server.kill('SIGTERM');
  const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('no exit within 20 s'), 20_000))]);
  if (code !== 0) throw new Error(`SIGTERM: the server ended with ${code}`);
  say('SIGTERM: the server exited 0');
  say('passed');
} catch (error) {
  console.error(`[image-check] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  if (log) console.error(`--- server output ---\n${log.slice(-6000)}`);
  process.exitCode = 1;
} finally {
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  await database?.drop().catch((error: unknown) => console.error('could not drop the scratch database', error));
  rmSync(work, { recursive: true, force: true });
}
