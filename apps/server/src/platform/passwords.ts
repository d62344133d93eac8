import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's first recommended setting: 19 MiB of memory, 2 passes, 1 lane. The cost is
 * deliberate (bench/login.ts measures it); raise it when the servers can afford more.
 */
const ARGON2 = { algorithm: 2 /* Algorithm.Argon2id, a const enum that erasable TypeScript cannot read */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A self-describing argon2id hash of `password` (its parameters and salt travel inside it). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

// A hash of nothing anyone knows, checked when the account does not exist so that a failed login
// costs the same time either way (no account enumeration by timing).
const decoy = hash(crypto.randomUUID(), ARGON2);

/** Whether `password` matches `stored`; with no stored hash it still spends the time of one check. */
export async function passwordMatches(stored: string | undefined, password: string): Promise<boolean> {
  try {
    return await verify(stored ?? (await decoy), password);
  } catch {
    return false;
  }
}
