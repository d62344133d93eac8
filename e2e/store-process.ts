// Starts the real store (built web app, embedded database, demo supplier) on a free port for the
// browser journeys: the global setup's store, and stores of their own for journeys that need
// another configuration (Stripe instead of the test gateway).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, serverNodeFlags } from '../scripts/server-process.ts';

export interface StoreProcess {
  /** `http://127.0.0.1:<port>` (or the host name asked for), also the store's PUBLIC_URL. */
  baseUrl: string;
  /** Stops the server and deletes its data directory. */
  stop(): Promise<void>;
}

/**
 * Starts a store with `env` on top of the journeys' defaults and answers once it serves the catalogue.
 * `hostName`: the name the browser uses for it; passkeys need a domain (`localhost`), not an address.
 */
export async function startStore(env: Record<string, string> = {}, { hostName = '127.0.0.1' }: { hostName?: string } = {}): Promise<StoreProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keystore-e2e-'));
  const baseUrl = `http://${hostName}:${port}`;
  const server = spawn(process.execPath, [...serverNodeFlags({}), path.join(import.meta.dirname, '../apps/server/src/main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      // The origin the browser uses: links the store builds (mails, Stripe's return addresses) land where the journey's session is.
      PUBLIC_URL: baseUrl,
      // A journey can come "from a new IP" by sending X-Forwarded-For (the new-device check).
      TRUST_PROXY: '1',
      // The journeys set up the sellers they need: the demo sellers' offers would change the best offer they expect.
      DEMO_MARKET: 'off',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async (): Promise<void> => {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await healthy(baseUrl, () => server.exitCode);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, stop };
}

/** Waits until the store answers healthy with a catalogue, or fails if it exits or takes over 60 s. */
async function healthy(baseUrl: string, exitCode: () => number | null): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exitCode() !== null) throw new Error(`the server exited with ${exitCode()}`);
    try {
      const health = await fetch(`${baseUrl}/api/health`);
      const games = await fetch(`${baseUrl}/api/games?pageSize=1`).then((response) => response.json());
      if (health.ok && games.total > 0) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not become healthy within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
