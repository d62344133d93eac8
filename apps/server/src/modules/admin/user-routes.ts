import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminMessages,
  adminUserIdParamsSchema,
  adminUserListSchema,
  adminUserPatchSchema,
  adminUserSchema,
  adminUsersQuerySchema,
  errorSchema,
  type AdminUser,
} from '@keystore/contract';
import type { Database } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { Conflict } from '../../platform/errors.ts';
import type { AuthService } from '../auth/ports.ts';
import type { NotificationsService } from '../notifications/ports.ts';
import type { UsersService } from '../users/ports.ts';
import { actorOf } from './actor.ts';
import { deviceText } from '../../platform/devices.ts';

const bearer = [{ bearerAuth: [] }];
const tags = ['admin'];
const denied = { 401: errorSchema, 403: errorSchema };
/** The sign-ins a user page shows. */
const SIGN_INS = 50;

/** The back office's customers: the table, one account with its orders and sign-ins, and the role and block switches. */
export const adminUserRoutes: FastifyPluginAsyncZod<{ users: UsersService; auth: AuthService; notifications: NotificationsService; database: Database }> = async (
  app,
  { users, auth, notifications, database },
) => {
  const detail = async (id: string): Promise<AdminUser> => {
    const [user, signIns] = await Promise.all([users.adminDetail(id), auth.sessions.history(id, SIGN_INS)]);
    return {
      ...user,
      signIns: signIns.map((signIn) => ({ at: signIn.at.toISOString(), ip: signIn.ip, device: deviceText(signIn.userAgent), active: signIn.active })),
    };
  };

  app.get(
    '/api/admin/users',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminListUsers',
        tags,
        summary: 'Accounts, newest first, whose e-mail or username contains `q`, with their orders and spend',
        security: bearer,
        querystring: adminUsersQuerySchema,
        response: { 200: adminUserListSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => users.adminList(request.query.q, request.query.page, request.query.pageSize),
  );

  app.get(
    '/api/admin/users/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminGetUser',
        tags,
        summary: 'One account: profile, orders, spend, tier and sign-in history (newest first)',
        security: bearer,
        params: adminUserIdParamsSchema,
        response: { 200: adminUserSchema, ...denied, 404: errorSchema },
      },
    },
    async (request) => detail(request.params.id),
  );

  app.patch(
    '/api/admin/users/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminUpdateUser',
        tags,
        summary: 'Changes an account’s role, or blocks it (every session ends at once, every sign-in is refused) or unblocks it',
        description: 'An admin cannot block their own account; the last admin cannot give up the role (409). Each change is in the audit log, with before and after.',
        security: bearer,
        params: adminUserIdParamsSchema,
        body: adminUserPatchSchema,
        response: { 200: adminUserSchema, 400: errorSchema, ...denied, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { role, blocked } = request.body;
      const actor = await actorOf(users, request);
      if (blocked === true && id === actor.id) throw new Conflict(adminMessages.ownBlock);
      if (role !== undefined) {
        const before = await users.changeRole(id, role);
        if (before.role !== role) await recordAudit(database.db, { actor, action: 'user.role', target: { type: 'user', id }, before: { role: before.role }, after: { role } });
      }
      if (blocked !== undefined) {
        const before = await users.setBlocked(id, blocked);
        // Ended on every instance at once: sessions are rows, and every request reads its row and the
        // block; open notification streams are told through PostgreSQL and end too.
        if (blocked) {
          // The account's seller API keys too (issue 30): a block leaves no way in.
          await auth.shutOut(id);
          await notifications.sessionsEnded(id);
        }
        if ((before.blockedAt !== null) !== blocked) {
          await recordAudit(database.db, {
            actor,
            action: blocked ? 'user.block' : 'user.unblock',
            target: { type: 'user', id },
            before: { blocked: before.blockedAt !== null },
            after: { blocked },
          });
        }
      }
      return detail(id);
    },
  );
};
