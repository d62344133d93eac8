import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clientIp } from './client-ip.ts';

const from = (ip: string | undefined) => ({ ip }) as FastifyRequest;

describe('the caller’s address', () => {
  it('writes an IPv4 address on a dual-stack socket the IPv4 way', () => {
    expect(clientIp(from('::ffff:203.0.113.9'))).toBe('203.0.113.9');
    expect(clientIp(from('2001:db8::1'))).toBe('2001:db8::1');
  });

  it('is unknown, not a crash, for a client that hung up before its handler ran', () => {
    expect(clientIp(from(undefined))).toBe('unknown');
  });
});
