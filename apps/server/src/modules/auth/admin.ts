import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { HttpError } from '../../platform/errors.ts';
import { hashPassword } from '../../platform/passwords.ts';
import type { UsersService } from '../users/ports.ts';

/**
 * Makes sure ADMIN_EMAIL names a verified admin (docs/decisions/007). A new account gets the name
 * `Admin` (or `Admin.2`, …): the reserved-word rule keeps customers from ever taking those. An
 * existing account is made admin and verified, but its password is left alone: ADMIN_PASSWORD is
 * the first password only, so a password the admin changed in the profile survives a restart.
 */
export async function ensureAdmin(users: UsersService, admin: NonNullable<Config['admin']>, log: FastifyBaseLogger): Promise<void> {
  const existing = await users.findByEmail(admin.email);
  if (existing) {
    if (existing.role !== 'admin') await users.setRole(existing.id, 'admin');
    if (!existing.emailVerifiedAt) await users.markEmailVerified(existing.id);
    log.info({ email: admin.email }, 'admin account present (ADMIN_PASSWORD applies only when the account is created)');
    return;
  }
  const passwordHash = await hashPassword(admin.password);
  for (let n = 1; n <= 20; n += 1) {
    const username = n === 1 ? 'Admin' : `Admin.${n}`;
    if (await users.isUsernameTaken(username)) continue;
    try {
      await users.create({ username, email: admin.email, passwordHash, role: 'admin', verified: true });
      log.info({ email: admin.email, username }, 'admin account created');
      return;
    } catch (error) {
      // Another instance starting at the same moment created it: that is the outcome we want.
      if (error instanceof HttpError && error.status === 409 && (await users.findByEmail(admin.email))) return;
      if (!(error instanceof HttpError && error.status === 409)) throw error;
    }
  }
  throw new Error(`Could not find a free admin username for ${admin.email}`);
}
