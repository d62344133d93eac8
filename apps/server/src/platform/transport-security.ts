import type { FastifyInstance } from 'fastify';

/** helmet's own value: a year, subdomains included. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Strict-Transport-Security only on answers that went out over TLS: over plain HTTP the header means
 * nothing to a browser and tells a scanner the store is misconfigured. `request.protocol` is `https`
 * on a TLS socket, or behind a trusted proxy (TRUST_PROXY) that says so in X-Forwarded-Proto.
 * Set on request so that the live stream, which takes over its reply, keeps it too.
 */
export function registerTransportSecurity(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
  });
}
