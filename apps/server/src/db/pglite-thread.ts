// The embedded database on a thread of its own (decision 028), seen from the server's main thread as
// the part of PGlite's client that drizzle and db/client.ts use: query, transaction, listen, close.
// Every call is a message to the worker (pglite-worker.ts) and its answer; a transaction is held open
// in the worker between the main thread's begin and its commit or rollback, so the callback's
// queries, which may await anything in between, run inside it. While the worker runs a query, the
// main thread goes on answering requests.
import { Worker } from 'node:worker_threads';

export interface WorkerSetup {
  dataDir: string | undefined;
  startParams: string[];
}

type QueryOp = { op: 'query'; sql: string; params: unknown[] | undefined; rowMode: 'object' | 'array' | undefined; drizzle: boolean; tx?: number };
type Op = QueryOp | { op: 'begin' | 'commit' | 'rollback'; tx: number } | { op: 'listen'; channel: string } | { op: 'close' };
export type ToWorker = Op & { id: number };
export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'failed'; error: Record<string, unknown> }
  | { kind: 'answer'; id: number; result?: unknown; error?: Record<string, unknown> }
  | { kind: 'notification'; channel: string; payload: string };

/** What a query answers, as PGlite's `Results`. */
export interface QueryResults<T = Record<string, unknown>> {
  rows: T[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
}

/** drizzle passes parsers (functions, which cannot cross threads); the worker applies the same ones. */
interface QueryOptions {
  rowMode?: 'object' | 'array';
  parsers?: Record<number, unknown>;
}

/** A client whose queries run inside one open transaction. */
export interface ThreadTransaction {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResults<T>>;
}

/** An error the worker reported, with the database's fields (code, constraint…) as the driver gives them. */
function errorFrom(data: Record<string, unknown>): Error {
  const { message, name, ...fields } = data;
  const error = Object.assign(new Error(String(message)), fields);
  if (typeof name === 'string') error.name = name;
  return error;
}

export class ThreadedPglite {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private failure: Error | undefined;
  /** Resolves once the database is open in the worker; rejects when it could not be. */
  readonly waitReady: Promise<void>;

  constructor(setup: WorkerSetup) {
    this.worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), { workerData: setup });
    this.waitReady = new Promise((resolve, reject) => {
      this.worker.on('message', (message: FromWorker) => {
        if (message.kind === 'ready') resolve();
        else if (message.kind === 'failed') reject(errorFrom(message.error));
        else if (message.kind === 'notification') for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload);
        else {
          const call = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (message.error) call?.reject(errorFrom(message.error));
          else call?.resolve(message.result);
        }
      });
      // The thread died (out of memory, a crash in the WebAssembly): every call fails from then on.
      const died = (error: Error) => {
        this.failure ??= error;
        reject(error);
        for (const call of this.pending.values()) call.reject(error);
        this.pending.clear();
      };
      this.worker.on('error', died);
      this.worker.on('exit', (code) => died(new Error(`the embedded database's thread exited (${code})`)));
    });
  }

  /** Calls sent to the thread and not answered yet: the one running and those queued behind it. */
  get inFlight(): number {
    return this.pending.size;
  }

  private call<T>(message: Op): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<QueryResults<T>> {
    return this.call({ op: 'query', sql, params, rowMode: options?.rowMode, drizzle: options?.parsers !== undefined, ...(tx === undefined ? {} : { tx }) });
  }

  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const tx = this.nextId++;
    await this.call({ op: 'begin', tx });
    let value: T;
    try {
      value = await fn({ query: (sql, params, options) => this.query(sql, params, options, tx) });
    } catch (error) {
      await this.call({ op: 'rollback', tx }).catch(() => undefined);
      throw error;
    }
    await this.call({ op: 'commit', tx });
    return value;
  }

  async listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>> {
    let listeners = this.listeners.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.listeners.set(channel, listeners);
      await this.call({ op: 'listen', channel });
    }
    listeners.add(fn);
    // The worker keeps listening (one LISTEN per channel); a stopped listener is simply not called.
    return async () => void listeners.delete(fn);
  }

  async close(): Promise<void> {
    try {
      await this.call({ op: 'close' });
    } finally {
      await this.worker.terminate();
    }
  }
}
