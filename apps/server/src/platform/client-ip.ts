import type { FastifyRequest } from 'fastify';

/**
 * The caller's address as the new-device check and the rate limits see it. Fastify reads
 * X-Forwarded-For only when TRUST_PROXY is on; an IPv4 address on a dual-stack socket arrives as
 * `::ffff:1.2.3.4` and is written the IPv4 way, so one client is one address. A client that has
 * already gone has no address: it is `unknown`, not a crash.
 */
export function clientIp(request: FastifyRequest): string {
  // A client that hung up before its handler ran leaves a socket without an address.
  const ip = request.ip ?? 'unknown';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}
