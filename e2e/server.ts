// Starts the real store (built web app, embedded database, demo supplier) on a free port for the
// browser journeys, and stops it afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, serverNodeFlags } from '../scripts/server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

let server: ChildProcess | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  const port = await freePort();
  dataDir = mkdtempSync(path.join(tmpdir(), 'keystore-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [...serverNodeFlags({}), path.join(import.meta.dirname, '../apps/server/src/main.ts')], {
    // TRUST_PROXY: a journey can come "from a new IP" by sending X-Forwarded-For (the new-device check).
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '', TRUST_PROXY: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      const health = await fetch(`${baseUrl}/api/health`);
      const games = await fetch(`${baseUrl}/api/games?pageSize=1`).then((response) => response.json());
      if (health.ok && games.total > 0) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not become healthy within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  project.provide('baseUrl', baseUrl);
}

export async function teardown(): Promise<void> {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
