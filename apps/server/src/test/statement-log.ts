// Which SQL statements a request issues, for tests that must compare two paths' work without timing
// them (forgot-password for an account and for none): the database's own driver under a drizzle
// handle that logs, and each statement credited to the request it ran for. An onRequest hook runs
// the rest of the request in an AsyncLocalStorage context, which follows it through every await,
// callback and timer it starts; the app's background jobs run outside it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { schema, type Database, type Db } from '../db/client.ts';

export interface StatementLog {
  /** `database` with every query of its `db` handle logged, and the hook: give both to buildTestApp. */
  testApp: { database: Database; beforeReady: (app: FastifyInstance) => void };
  /** Runs `work` and answers its value with the statements its requests issued until it settled, in order. */
  statementsOf<T>(work: () => Promise<T>): Promise<{ value: T; statements: string[] }>;
}

/** Wraps an open database (of either kind) so that `statementsOf` can tell what the requests of a piece of work asked of it. */
export async function statementLog(database: Database): Promise<StatementLog> {
  const current = new AsyncLocalStorage<string[]>();
  let capturing: string[] | undefined;
  // The SQL text only: the values differ between any two calls.
  const logger: Logger = { logQuery: (query) => current.getStore()?.push(query.replace(/\s+/g, ' ').trim()) };
  const { $client: client } = database.db as Db & { $client: unknown };
  let db: Db;
  if (database.kind === 'pglite') {
    const { drizzle } = await import('drizzle-orm/pglite');
    db = drizzle({ client: client as never, schema, logger }) as unknown as Db;
  } else {
    const { drizzle } = await import('drizzle-orm/node-postgres');
    db = drizzle({ client: client as never, schema, logger }) as unknown as Db;
  }
  return {
    testApp: {
      database: { ...database, db },
      beforeReady: (app) =>
        app.addHook('onRequest', (_request, _reply, done) => {
          if (capturing) current.run(capturing, done);
          else done();
        }),
    },
    async statementsOf(work) {
      const statements: string[] = [];
      capturing = statements;
      try {
        const value = await work();
        // What the requests start after their answers (their background tail) is not part of them.
        return { value, statements: [...statements] };
      } finally {
        capturing = undefined;
      }
    },
  };
}
