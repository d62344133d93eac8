// `npm start`: builds the web app when its build is missing or older than its sources, then runs
// the server (API and built web app, one process) with its Node flags.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { serverNodeFlags } from './server-process.ts';

const root = path.join(import.meta.dirname, '..');
const built = path.join(root, 'apps/web/dist/index.html');
const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contract/src'].map((entry) => path.join(root, entry));

function newestChange(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

const stale = !existsSync(built) || statSync(built).mtimeMs < Math.max(...sources.map(newestChange));
if (stale) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@keystore/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, [...serverNodeFlags(), path.join(root, 'apps/server/src/main.ts')], { stdio: 'inherit' });
// Every SIGINT and SIGTERM goes on to the server, which shuts down once however many arrive; this
// process ends when the server does, with its exit code.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
// Whoever started us (npm, a supervisor) may die without passing a signal on: the server must not
// be left behind as an orphan, so it is told to stop when this process is orphaned.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) server.kill('SIGTERM');
}, 500).unref();
