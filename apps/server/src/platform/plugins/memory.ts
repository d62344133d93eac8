import type { FastifyInstance } from 'fastify';

/** How long the server must have answered nothing before it gives memory back. */
const QUIET_MS = 5000;
/** Answers since the last time that make giving memory back worth a full collection. */
const BUSY_ANSWERS = 1000;

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** The collector when the process runs with --expose-gc (the start commands pass it), else undefined. */
export function memoryReducingGc(): (() => void) | undefined {
  const gc = (globalThis as { gc?: Collect }).gc;
  return gc && (() => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }));
}

/**
 * Gives back (with `collect`: the memory-reducing collection, else nothing), once the store goes quiet after a busy spell, the heap a burst of traffic grew.
 * V8 sizes its heap for the allocation rate it last saw and keeps the pages it grew into while
 * nothing asks for a collection; a memory-reducing collection compacts the heap and returns the
 * empty pages. It runs only after BUSY_ANSWERS answers and QUIET_MS without one, so a store with
 * a request every few seconds never pays for it, and a busy one never stops for it.
 */
export function registerMemoryRelease(app: FastifyInstance, collect = memoryReducingGc(), quietMs = QUIET_MS): void {
  if (!collect) return;
  let answered = 0;
  let answeredAtLastLook = 0;
  app.addHook('onResponse', (_request, _reply, done) => {
    answered += 1;
    done();
  });
  const timer = setInterval(() => {
    if (answered >= BUSY_ANSWERS && answered === answeredAtLastLook) {
      collect();
      answered = 0;
    }
    answeredAtLastLook = answered;
  }, quietMs).unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
