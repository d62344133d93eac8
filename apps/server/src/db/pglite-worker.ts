// The embedded database's own thread (decision 028): PGlite runs PostgreSQL compiled to WebAssembly,
// and on the server's main thread every query it ran stopped every request for its duration. Here it
// answers the main thread's messages (pglite-thread.ts): queries, transactions held open across
// several of them, LISTEN, close. PGlite itself orders the work: a query waits while a transaction
// is open, as it does in one process.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import type { ToWorker, FromWorker, WorkerSetup } from './pglite-thread.ts';

const port = parentPort!;
const setup = workerData as WorkerSetup;

/** drizzle's parsers: the date and time types (and arrays of them) stay text, as drizzle maps them itself. */
const identity = (value: string) => value;
const DRIZZLE_PARSERS = Object.fromEntries([types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [oid, identity]));

const send = (message: FromWorker) => port.postMessage(message);

/** A database error as plain data: its message and fields (code, constraint, detail…), which a clone of an Error would drop. */
function errorData(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const data: Record<string, unknown> = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error)) if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) data[key] = value;
  return data;
}

let pglite: PGlite;
try {
  pglite = new PGlite(setup.dataDir, { startParams: setup.startParams });
  await pglite.waitReady;
  send({ kind: 'ready' });
} catch (error) {
  send({ kind: 'failed', error: errorData(error) });
  process.exit(1);
}

/** Transactions held open for the main thread: their PGlite transaction, and how to end it. */
const open = new Map<number, { tx: Transaction; end: (commit: boolean) => void; done: Promise<unknown> }>();

async function handle(message: ToWorker): Promise<unknown> {
  switch (message.op) {
    case 'query': {
      const target = message.tx === undefined ? pglite : open.get(message.tx)?.tx;
      if (!target) throw new Error(`transaction ${message.tx} is not open`);
      return target.query(message.sql, message.params, { rowMode: message.rowMode, ...(message.drizzle ? { parsers: DRIZZLE_PARSERS } : {}) });
    }
    case 'begin': {
      // Answered once the transaction holds PGlite (the queries before it are done), kept open until commit or rollback.
      let began!: () => void;
      const holding = new Promise<void>((resolve) => (began = resolve));
      let end!: (commit: boolean) => void;
      const done = pglite.transaction(async (tx) => {
        const commit = await new Promise<boolean>((resolve) => {
          end = resolve;
          open.set(message.tx, { tx, end, done });
          began();
        });
        if (!commit) await tx.rollback();
      });
      // A failed begin rejects `done` before `holding` resolves.
      await Promise.race([holding, done]);
      return undefined;
    }
    case 'commit':
    case 'rollback': {
      const transaction = open.get(message.tx);
      if (!transaction) throw new Error(`transaction ${message.tx} is not open`);
      open.delete(message.tx);
      transaction.end(message.op === 'commit');
      await transaction.done;
      return undefined;
    }
    case 'listen':
      await pglite.listen(message.channel, (payload) => send({ kind: 'notification', channel: message.channel, payload }));
      return undefined;
    case 'close':
      await pglite.close();
      return undefined;
  }
}

port.on('message', (message: ToWorker) => {
  handle(message).then(
    (result) => send({ kind: 'answer', id: message.id, result }),
    (error: unknown) => send({ kind: 'answer', id: message.id, error: errorData(error) }),
  );
});
