import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../../config.ts';

/** helmet's own value: a year, subdomains included. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * helmet's headers with the store's Content-Security-Policy, and HSTS on answers sent over TLS.
 *
 * helmet's middleware is built once and run on each request. @fastify/helmet built it again on every
 * request (the policy parsed, a dozen middlewares made), and that garbage outlived the young
 * generation: 3.6 MB a second promoted at 500 requests a second, a full collection every 3 to 4
 * seconds over the catalogue's heap, and the steady-load stalls of issue 32 (decision 039).
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const analytics = config.analyticsScriptUrl ? [new URL(config.analyticsScriptUrl).origin] : [];
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'style-src': ["'self'", "'unsafe-inline'"],
        // The analytics origin is allowed only when one is configured; the web app loads it only with consent.
        'script-src': ["'self'", ...analytics],
        'connect-src': ["'self'", ...analytics],
        // The store may be served over plain HTTP on a private network; TLS is the proxy's job.
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // Sent only over TLS (below), not on every answer.
    strictTransportSecurity: false,
  });
  // On the raw answer, as helmet sets them: a route that takes over its reply (the live stream) keeps them.
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, () => done()));
  registerTransportSecurity(app);
}

/**
 * Strict-Transport-Security only on answers that went out over TLS: over plain HTTP the header means
 * nothing to a browser and tells a scanner the store is misconfigured. `request.protocol` is `https`
 * on a TLS socket, or behind a trusted proxy (TRUST_PROXY) that says so in X-Forwarded-Proto.
 * Set on request so that the live stream, which takes over its reply, keeps it too.
 */
function registerTransportSecurity(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
  });
}
