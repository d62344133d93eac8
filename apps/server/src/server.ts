// Reads the configuration, opens the database, builds the app and serves it until a signal stops it.
import type { FastifyInstance } from 'fastify';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';

/** How long a shutdown waits for requests and deliveries under way before it gives up on them. */
const SHUTDOWN_DEADLINE_MS = 15_000;

const config = loadConfig();
let built: FastifyInstance | undefined;
// The database opens (the embedded one on a thread of its own) while the app's modules load.
const opening = openDatabase({
  url: config.databaseUrl,
  dataDir: config.dataDir,
  // Connection errors of background work (the pool, LISTEN, locks) are retried where they happen; here they are only logged.
  onError: (error) => (built ? built.log.warn({ err: error }, 'database connection error (retried)') : console.error('database connection error', error)),
});
const [{ buildApp }, database] = await Promise.all([import('./app.ts'), opening]);
const app = (built = await buildApp({ config, database }));

// A promise nobody awaited must not end a store that is serving customers: it is a bug to fix, logged loudly.
process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled promise rejection'));

let shutdown: Promise<void> | undefined;
/**
 * One shutdown, whatever number of SIGTERM and SIGINT arrive (a supervisor signalling the whole
 * process group sends several): stop accepting, let the requests and key deliveries under way
 * finish, close the database, exit 0; exit 1 only if that takes longer than the deadline.
 */
function shutDown(signal: NodeJS.Signals): void {
  if (shutdown) {
    app.log.info({ signal }, 'already shutting down');
    return;
  }
  app.log.info({ signal }, 'shutting down');
  setTimeout(() => {
    app.log.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, 'shutdown did not finish in time: exiting with work still under way');
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS).unref();
  shutdown = app
    .close()
    .then(() => app.log.info('requests, jobs and deliveries finished; closing the database'))
    .then(() => database.close())
    .then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, shutDown);

await app.listen({ port: config.port, host: config.host });
// Metrics on a port of their own, for a private network (issue 32): closed with the app.
if (config.metrics.port) {
  const metricsServer = await app.metrics.listen(config.metrics.port, config.host);
  // Hooks cannot be added once the app listens (Fastify throws): closed when the app's server closes.
  app.server.once('close', () => metricsServer.close());
  app.log.info(`Metrics for Prometheus at http://${config.host}:${config.metrics.port}/metrics`);
}
app.log.info(`Keystore is open at ${config.publicUrl} (database: ${database.kind}, supplier: ${config.supplier.name})`);

// Outside production, over the demo feed: demo sellers and a demo admin to try the marketplace with.
if (config.demoMarket) {
  const { openDemoMarket } = await import('./demo-market.ts');
  try {
    const signIns = await openDemoMarket({ users: app.users, sellers: app.sellers, offers: app.offers, catalog: app.catalog, database, config, log: app.log });
    for (const account of signIns) {
      const who = account.role === 'admin' ? 'Demo admin' : `Demo seller "${account.name}"`;
      app.log.info(`${who} (a demo account): e-mail ${account.email}, password ${account.password ?? '(changed since it was made: not shown)'}`);
    }
    // The first sign-in from a browser asks for a new-device code, mailed to the dev outbox.
    if (signIns.length > 0 && !config.mail.smtpUrl) app.log.info(`Demo accounts: the sign-in code for a new browser is at ${config.publicUrl}/dev/mail`);
  } catch (error) {
    app.log.error({ err: error }, 'could not open the demo marketplace; the store runs without it');
  }
}
