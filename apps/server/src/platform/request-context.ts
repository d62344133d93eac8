// The request a piece of work belongs to (issue 32): its id travels with the request's async work
// (AsyncLocalStorage), so a log line a module writes while answering it, an order's timeline entry it
// causes and the calls it makes to a seller or the supplier all carry the id the answer gives back
// in `x-request-id`. Background work (jobs, a delivery retried later) belongs to no request.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

const context = new AsyncLocalStorage<{ requestId: string }>();

/** A request id a proxy may hand us: short, printable, nothing a log or a header could be split with. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of the request whose work is running, if any. */
export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}

/** Headers that carry the current request's id to another service (a seller's webhook, the supplier). */
export function requestIdHeaders(): Record<string, string> {
  const id = currentRequestId();
  return id ? { 'x-request-id': id } : {};
}

/**
 * Fastify's `genReqId`: the `x-request-id` a proxy the store trusts sent (TRUST_PROXY), else a new
 * one. A client's own id is never taken from the open internet, so nobody can forge one into the logs.
 */
export function requestIdOf(trustProxy: number): NonNullable<FastifyServerOptions['genReqId']> {
  return (request: IncomingMessage) => {
    const given = trustProxy > 0 ? request.headers['x-request-id'] : undefined;
    return typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID();
  };
}

/** Every answer carries its request's id, and the request's work runs in its context. */
export function registerRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    context.run({ requestId: request.id }, done);
  });
}
