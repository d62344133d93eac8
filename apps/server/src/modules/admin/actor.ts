import type { FastifyRequest } from 'fastify';
import { accountMessages } from '@keystore/contract';
import type { AuditActor } from '../../platform/audit.ts';
import { Unauthorized } from '../../platform/errors.ts';
import type { UsersService } from '../users/ports.ts';

/** The admin making a request, as the audit log records them (id and e-mail). */
export async function actorOf(users: UsersService, request: FastifyRequest): Promise<AuditActor> {
  const user = await users.findById(request.account.userId);
  // Deleted between the session check and here: the caller is signed out.
  if (!user) throw new Unauthorized(accountMessages.sessionExpired);
  return { id: user.id, email: user.email };
}
