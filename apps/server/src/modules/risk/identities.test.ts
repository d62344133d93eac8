// Identities written one way, hashed under the secrets, and masked for the owner's eyes.
import { describe, expect, it } from 'vitest';
import { domainAndParents } from './disposable-domains.ts';
import { domainOf, hintOf, identitiesOf, IdentityHasher } from './identities.ts';

describe('identities', () => {
  it('writes each identity one way and leaves out the absent, the empty and an unknown address', () => {
    expect(identitiesOf({ email: ' Jane.Doe@Example.COM ', card: 'fp_123', address: '::ffff:203.0.113.7', browser: '' })).toEqual([
      { kind: 'email', value: 'jane.doe@example.com' },
      { kind: 'card', value: 'fp_123' },
      { kind: 'address', value: '203.0.113.7' },
    ]);
    expect(identitiesOf({ address: '2001:DB8:0:0:0:0:0:1' })).toEqual([{ kind: 'address', value: '2001:db8::1' }]);
    expect(identitiesOf({ address: 'unknown', email: null })).toEqual([]);
  });

  it('masks each kind', () => {
    expect(hintOf({ kind: 'email', value: 'jane.doe@example.com' })).toBe('j***@example.com');
    expect(hintOf({ kind: 'card', value: '4242424242424242' })).toBe('card …4242');
    expect(hintOf({ kind: 'address', value: '203.0.113.7' })).toBe('203.0.113.*');
    expect(hintOf({ kind: 'address', value: '2001:db8::1' })).toBe('2001:db8:0:*');
    expect(hintOf({ kind: 'browser', value: '3f9a8c7d-session' })).toBe('browser 3f9a…');
  });

  it('hashes an identity under the current secret and matches it under a previous one, never as another kind', () => {
    const before = new IdentityHasher(['old-secret']);
    const after = new IdentityHasher(['new-secret', 'old-secret']);
    const email = { kind: 'email', value: 'jane@example.com' } as const;
    expect(after.stored(email)).not.toBe(before.stored(email));
    expect(after.matching(email)).toContain(before.stored(email));
    expect(before.stored(email)).not.toContain('jane');
    expect(before.stored({ kind: 'browser', value: 'jane@example.com' })).not.toBe(before.stored(email));
  });

  it('finds the domain of an e-mail and the domains it is under', () => {
    expect(domainOf('Jane@Sub.Mailinator.com')).toBe('sub.mailinator.com');
    expect(domainOf(undefined)).toBe('');
    expect(domainAndParents('a.b.mailinator.com')).toEqual(['a.b.mailinator.com', 'b.mailinator.com', 'mailinator.com']);
    expect(domainAndParents('com')).toEqual([]);
  });
});
