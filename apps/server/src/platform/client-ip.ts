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

const BROWSER_ID = /^[A-Za-z0-9_-]{8,100}$/;

/**
 * The browser a request came from, as the web app names it (`x-session-id`, kept in the browser's
 * storage): the risk desk's browser identity (issue 29). Undefined when absent or not such an id.
 */
export function browserOf(request: FastifyRequest): string | undefined {
  const id = request.headers['x-session-id'];
  // 'no-storage': a browser that keeps nothing, which names no one browser.
  return typeof id === 'string' && BROWSER_ID.test(id) && id !== 'no-storage' ? id : undefined;
}

/**
 * An address as a list of devices shows it without a GeoIP database: enough to tell one network
 * from another, not to find the person (`203.0.113.x`, `2001:db8:85a3:x`).
 */
export function maskedAddress(ip: string | null): string {
  if (!ip) return 'Unknown place';
  if (ip.includes('.') && !ip.includes(':')) return `${ip.split('.').slice(0, 3).join('.')}.x`;
  if (ip.includes(':')) {
    const groups = ip.split(':').filter((group) => group !== '');
    return `${groups.slice(0, 3).join(':')}:x`;
  }
  return 'Unknown place';
}
