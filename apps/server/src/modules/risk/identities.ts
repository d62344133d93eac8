// Who pays, as the risk desk knows them: an e-mail, a card (the provider's fingerprint), an address
// and a browser (the web app's `x-session-id`). The desk keeps none of them: it stores a keyed hash
// (HMAC-SHA256 under a key derived from JWT_SECRET, as signed links are), so its tables cannot be read
// back into a list of people, and the blocklist shows a masked hint beside it.
import ipaddr from 'ipaddr.js';
import type { BlocklistKind } from '@keystore/contract';
import { keyedHasher } from '../../platform/tokens.ts';

/** The identities of a buyer or a payment; any may be unknown. */
export interface RiskIdentities {
  email?: string | null | undefined;
  card?: string | null | undefined;
  address?: string | null | undefined;
  browser?: string | null | undefined;
}

export interface Identity {
  kind: BlocklistKind;
  /** The value written one way: an e-mail lowercased and trimmed, an address in its canonical form. */
  value: string;
}

/** An address the server could not learn (a client that hung up) names nobody: it must not join strangers in one lockout. */
const UNKNOWN_ADDRESS = 'unknown';

/** Each identity given, written one way; absent and empty ones left out. */
export function identitiesOf(identities: RiskIdentities): Identity[] {
  const found: Identity[] = [];
  for (const kind of ['email', 'card', 'address', 'browser'] as const) {
    const raw = identities[kind]?.trim();
    if (!raw || (kind === 'address' && raw === UNKNOWN_ADDRESS)) continue;
    found.push({ kind, value: normalized(kind, raw) });
  }
  return found;
}

function normalized(kind: BlocklistKind, value: string): string {
  if (kind === 'email') return value.toLowerCase();
  // `::ffff:1.2.3.4` is 1.2.3.4, and an IPv6 address has one canonical spelling.
  if (kind === 'address' && ipaddr.isValid(value)) return ipaddr.process(value).toString();
  return value;
}

/** The domain of an e-mail (`example.com`), or '' without one. */
export function domainOf(email: string | null | undefined): string {
  const at = email?.lastIndexOf('@') ?? -1;
  return at < 0 ? '' : email!.slice(at + 1).trim().toLowerCase();
}

/** A masked form of an identity for the owner's eyes: `j***@example.com`, `card …4242`, `203.0.113.*`, `browser 3f9a…`. */
export function hintOf({ kind, value }: Identity): string {
  switch (kind) {
    case 'email': {
      const at = value.lastIndexOf('@');
      return `${value.slice(0, 1)}***${value.slice(at)}`;
    }
    case 'card':
      return `card …${value.slice(-4)}`;
    case 'address':
      return maskedAddress(value);
    case 'browser':
      return `browser ${value.slice(0, 4)}…`;
  }
}

function maskedAddress(address: string): string {
  if (!ipaddr.isValid(address)) return `${address.slice(0, 4)}…`;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return `${parsed.toString().split('.').slice(0, 3).join('.')}.*`;
  return `${parsed.toNormalizedString().split(':').slice(0, 3).join(':')}:*`;
}

/**
 * Keyed hashes of identities. The current secret's hash is what is stored; a previous secret's
 * (JWT_SECRET_PREVIOUS) still matches, so a rotation does not empty the blocklist while both are set.
 */
export class IdentityHasher {
  private readonly hashes: (text: string) => string[];

  constructor(secrets: readonly string[]) {
    this.hashes = keyedHasher(secrets, 'risk identity');
  }

  /** The hash stored for an identity. */
  stored(identity: Identity): string {
    return this.hashes(`${identity.kind}:${identity.value}`)[0]!;
  }

  /** Every hash an identity may have been stored under, the current one first. */
  matching(identity: Identity): string[] {
    return this.hashes(`${identity.kind}:${identity.value}`);
  }
}
