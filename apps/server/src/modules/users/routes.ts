import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountMessages,
  AVATAR_MAX_BYTES,
  catalogMessages,
  changePasswordRequestSchema,
  deleteAccountRequestSchema,
  errorSchema,
  messageSchema,
  userSchema,
} from '@keystore/contract';
import { refusingCommon } from '../../platform/common-passwords.ts';
import { clientIp } from '../../platform/client-ip.ts';
import { Invalid, Unauthorized } from '../../platform/errors.ts';
import { fileBytes, readingForm } from '../../platform/form-errors.ts';
import { perUser, type LimitRule } from '../../platform/limits.ts';
import { registerImageRoute } from '../../platform/image-store.ts';
import { AVATAR_URL_PREFIX, type UsersService } from './service.ts';

/**
 * Guesses of the current password through a stolen session, by a password change or an account
 * deletion alike (one count for both): the login limits do not see them.
 */
const PASSWORD_GUESSES = { name: 'password-change-account', limit: 10, windowSeconds: 15 * 60 } as const satisfies LimitRule;

const bearer = [{ bearerAuth: [] }];
/** The contract's body with the one password rule only the server applies: no common password. */
const changePasswordBody = changePasswordRequestSchema.extend({ newPassword: refusingCommon(changePasswordRequestSchema.shape.newPassword) });

/** The signed-in user's profile, avatar, password and account deletion (SPEC §7), and the avatar files. */
export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  /** The caller's row; a token whose account is gone has already been refused by `authenticate`, but a race may remain. */
  const caller = async (request: FastifyRequest) => {
    const user = await users.findById(request.account.userId);
    if (!user) throw new Unauthorized(accountMessages.sessionExpired);
    return user;
  };

  app.get(
    '/api/users/profile',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'getProfile',
        tags: ['users'],
        summary: 'The signed-in user with purchase figures and membership tier',
        security: bearer,
        response: { 200: userSchema, 401: errorSchema },
      },
    },
    async (request) => users.profile(await caller(request)),
  );

  app.put(
    '/api/users/profile',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'changeAvatar',
        tags: ['users'],
        summary: 'Replaces the avatar with an uploaded image (multipart field `avatar`, at most 5 MB)',
        consumes: ['multipart/form-data'],
        security: bearer,
        response: { 200: userSchema, 400: errorSchema, 401: errorSchema, 413: errorSchema, 415: errorSchema },
      },
    },
    async (request) => users.changeAvatar(request.account.userId, await avatarUpload(request)),
  );

  app.put(
    '/api/users/password',
    {
      onRequest: app.authenticate,
      config: { limits: [perUser(PASSWORD_GUESSES)] },
      schema: {
        operationId: 'changePassword',
        tags: ['users'],
        summary: "Changes the password and signs out every other device (and, with `revokeApiKeys`, deletes the seller's API keys)",
        security: bearer,
        body: changePasswordBody,
        response: { 200: messageSchema, 400: errorSchema, 401: errorSchema, 429: errorSchema },
      },
    },
    async (request) => {
      const { userId, sessionId } = request.account;
      await users.changePassword(userId, request.body.currentPassword, request.body.newPassword);
      await app.auth.endSessions(userId, { except: sessionId });
      const origin = { ip: clientIp(request), userAgent: request.headers['user-agent'] };
      if (request.body.revokeApiKeys) await app.auth.revokeSellerKeys(userId, origin);
      await app.auth.notifyPasswordChanged(await caller(request), origin);
      return { message: accountMessages.passwordUpdated };
    },
  );

  app.delete(
    '/api/users/profile',
    {
      onRequest: app.authenticate,
      config: { limits: [perUser(PASSWORD_GUESSES)] },
      schema: {
        operationId: 'deleteAccount',
        tags: ['users'],
        summary: 'Deletes the account, its avatar and every session after the password is typed again; orders are kept anonymised; mails a notice',
        security: bearer,
        body: deleteAccountRequestSchema,
        response: { 200: messageSchema, 400: errorSchema, 401: errorSchema, 429: errorSchema },
      },
    },
    async (request) => {
      const { userId } = request.account;
      const former = await users.deleteAccount(userId, request.body.currentPassword);
      await app.auth.notifyAccountDeleted(former);
      return { message: accountMessages.accountDeleted };
    },
  );

  registerImageRoute(app, {
    prefix: AVATAR_URL_PREFIX,
    operationId: 'getAvatar',
    tag: 'users',
    summary: 'An avatar image (WebP); the URL comes from the user’s `avatar`',
    notFound: catalogMessages.notFound,
    read: (file) => users.avatars.read(file),
  });
};

/**
 * The bytes of the `avatar` file of a multipart request. The size limit is enforced while the body
 * streams in: at most AVATAR_MAX_BYTES are ever held, and a bigger file is a 413.
 */
async function avatarUpload(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new Invalid(accountMessages.avatarMissing);
  const upload = await readingForm(request, accountMessages.avatarTooLarge, async () => {
    const part = await request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
    if (!part || part.fieldname !== 'avatar') throw new Invalid(accountMessages.avatarMissing);
    return fileBytes(part, accountMessages.avatarTooLarge);
  });
  // A form sent without choosing a file carries an empty part.
  if (upload.length === 0) throw new Invalid(accountMessages.avatarMissing);
  return upload;
}
