import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  availabilitySchema,
  checkEmailRequestSchema,
  checkUsernameRequestSchema,
  emailCodeRequestSchema,
  emailLinkRequestSchema,
  emailRequestSchema,
  errorSchema,
  forgotPasswordRequestSchema,
  idField,
  linkVerificationSchema,
  loginAnswerSchema,
  loginRequestSchema,
  messageSchema,
  passkeyLoginRequestSchema,
  passkeyOptionsSchema,
  registerRequestSchema,
  revokeOthersRequestSchema,
  securityMessages,
  signedInDevicesSchema,
  totpLoginRequestSchema,
  setupChallengeRequestSchema,
  setupEnableRequestSchema,
  setupSignInSchema,
  totpSetupSchema,
  resetPasswordRequestSchema,
  sessionSchema,
} from '@keystore/contract';
import { browserOf, clientIp } from '../../platform/client-ip.ts';
import { refusingCommon } from '../../platform/common-passwords.ts';
import { perAddress, perBodyField } from '../../platform/limits.ts';
import { AUTH_LIMITS as L } from './limits.ts';
import type { AuthService, Device } from './service.ts';
import { NO_AUTH } from '../../platform/openapi.ts';
import { browserAndSystem } from '../../platform/devices.ts';
import { NotFound } from '../../platform/errors.ts';

const errors = { 400: errorSchema, 429: errorSchema } as const;
/** The contract's bodies with the one password rule only the server applies: no common password. */
const registerBody = registerRequestSchema.extend({ password: refusingCommon(registerRequestSchema.shape.password) });
const resetPasswordBody = resetPasswordRequestSchema.extend({ password: refusingCommon(resetPasswordRequestSchema.shape.password) });
const tags = ['auth'];

function device(request: FastifyRequest): Device {
  return { ip: clientIp(request), userAgent: request.headers['user-agent'], browser: browserOf(request) };
}

/** /api/auth (SPEC §7, DESIGN §4): sign-up, verification, login, new device, recovery, logout. */
export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.post(
    '/api/auth/register',
    {
      config: { limits: [perAddress(L.registerPerIp)] },
      schema: {
        operationId: 'registerAccount',
        security: NO_AUTH,
        tags,
        summary: 'Create an unverified account and e-mail its 6-digit code and link',
        body: registerBody,
        response: { 201: messageSchema, 409: errorSchema, ...errors },
      },
    },
    async (request, reply) => {
      return reply.code(201).send({ message: await auth.register(request.body) });
    },
  );

  app.post(
    '/api/auth/check-username',
    {
      config: { limits: [perAddress(L.checksPerIp)] },
      schema: { operationId: 'checkUsername', security: NO_AUTH, tags, summary: 'Whether a username is free', body: checkUsernameRequestSchema, response: { 200: availabilitySchema, ...errors } },
    },
    async (request) => {
      return { available: await auth.usernameAvailable(request.body.username) };
    },
  );

  app.post(
    '/api/auth/check-email',
    {
      config: { limits: [perAddress(L.checksPerIp)] },
      schema: { operationId: 'checkEmail', security: NO_AUTH, tags, summary: 'Whether an e-mail is free', body: checkEmailRequestSchema, response: { 200: availabilitySchema, ...errors } },
    },
    async (request) => {
      return { available: await auth.emailAvailable(request.body.email) };
    },
  );

  app.post(
    '/api/auth/verify-email',
    {
      config: { limits: [perAddress(L.verifyPerIp)] },
      schema: { operationId: 'verifyEmail', security: NO_AUTH, tags, summary: 'Verify the e-mail with the code from the dialog', body: emailCodeRequestSchema, response: { 200: messageSchema, ...errors } },
    },
    async (request) => {
      return { message: await auth.verifyEmail(request.body.email, request.body.code, clientIp(request)) };
    },
  );

  app.post(
    '/api/auth/verify-email-from-link',
    {
      config: { limits: [perAddress(L.verifyPerIp)] },
      schema: {
        operationId: 'verifyEmailFromLink',
        security: NO_AUTH,
        tags,
        summary: 'Verify the e-mail with the code from the e-mailed link (/confirm-email)',
        body: emailLinkRequestSchema,
        response: { 200: linkVerificationSchema, ...errors },
      },
    },
    async (request) => {
      return { success: true as const, message: await auth.verifyEmail(request.body.email, request.body.code, clientIp(request)) };
    },
  );

  app.post(
    '/api/auth/resend-verification',
    {
      config: { limits: [perAddress(L.resendPerIp), perBodyField(L.resendVerificationLock, 'email')] },
      schema: { operationId: 'resendVerification', security: NO_AUTH, tags, summary: 'E-mail a new verification code', body: emailRequestSchema, response: { 200: messageSchema, ...errors } },
    },
    async (request) => {
      return { message: await auth.resendVerification(request.body.email) };
    },
  );

  app.post(
    '/api/auth/login',
    {
      config: { limits: [perAddress(L.loginPerIp)] },
      schema: {
        operationId: 'login',
        security: NO_AUTH,
        tags,
        summary:
          'Sign in: a session, or the second step it needs (`method`): the authenticator app\'s code (`totp`, with a `challenge`) or a code e-mailed when the address is new to the account (`email`)',
        body: loginRequestSchema,
        response: { 200: loginAnswerSchema, 401: errorSchema, 403: errorSchema, ...errors },
      },
    },
    async (request) => {
      return auth.login(request.body, device(request));
    },
  );

  app.post(
    '/api/auth/verify-new-device',
    {
      config: { limits: [perAddress(L.verifyPerIp)] },
      schema: {
        operationId: 'verifyNewDevice',
        security: NO_AUTH,
        tags,
        summary: 'Finish a login from a new address with the e-mailed code: a session, or the set-up of a second factor the owner requires (`method: setup`)',
        body: emailCodeRequestSchema,
        response: { 200: loginAnswerSchema, ...errors },
      },
    },
    async (request) => {
      return auth.verifyNewDevice(request.body.email, request.body.code, device(request));
    },
  );

  app.post(
    '/api/auth/resend-new-device-code',
    {
      config: { limits: [perAddress(L.resendPerIp), perBodyField(L.resendNewDeviceLock, 'email')] },
      schema: { operationId: 'resendNewDeviceCode', security: NO_AUTH, tags, summary: 'E-mail a new code for a login waiting on one', body: emailRequestSchema, response: { 200: messageSchema, ...errors } },
    },
    async (request) => {
      return { message: await auth.resendNewDeviceCode(request.body.email) };
    },
  );

  app.post(
    '/api/auth/forgot-password',
    {
      config: { limits: [perAddress(L.forgotPerIp), perBodyField(L.forgotPerEmail, 'email')] },
      schema: {
        operationId: 'forgotPassword',
        security: NO_AUTH,
        tags,
        summary: 'E-mail a password reset link (same answer whether or not the account exists)',
        body: forgotPasswordRequestSchema,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) => {
      return { message: await auth.forgotPassword(request.body.email) };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      config: { limits: [perAddress(L.verifyPerIp)] },
      schema: {
        operationId: 'resetPassword',
        security: NO_AUTH,
        tags,
        summary: 'Set a new password with the e-mailed token; ends every session of the account',
        body: resetPasswordBody,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) => {
      return { message: await auth.resetPassword(request.body) };
    },
  );

  app.post(
    '/api/auth/login/totp',
    {
      config: { limits: [perAddress(L.verifyPerIp)] },
      schema: {
        operationId: 'loginWithTotp',
        security: NO_AUTH,
        tags,
        summary: "Finish a sign-in with the authenticator app's code or a recovery code (5 wrong codes end the challenge)",
        body: totpLoginRequestSchema,
        response: { 200: sessionSchema, 401: errorSchema, 403: errorSchema, ...errors },
      },
    },
    async (request) => auth.loginWithTotp(request.body, device(request)),
  );

  app.post(
    '/api/auth/login/setup/totp',
    {
      config: { limits: [perAddress(L.verifyPerIp)] },
      schema: {
        operationId: 'setUpTotpAtSignIn',
        security: NO_AUTH,
        tags,
        summary: 'At a sign-in that must set up a second factor first (`method: setup`): a new authenticator-app secret for its challenge',
        body: setupChallengeRequestSchema,
        response: { 200: totpSetupSchema, 409: errorSchema, ...errors },
      },
    },
    async (request) => auth.beginSetUp(request.body.challenge),
  );

  app.post(
    '/api/auth/login/setup/totp/enable',
    {
      config: { limits: [perAddress(L.verifyPerIp)] },
      schema: {
        operationId: 'enableTotpAtSignIn',
        security: NO_AUTH,
        tags,
        summary: 'Turns the app on with its first code and finishes the sign-in: the recovery codes (shown once) and the session',
        body: setupEnableRequestSchema,
        response: { 200: setupSignInSchema, 409: errorSchema, ...errors },
      },
    },
    async (request) => ({ ...(await auth.finishSetUp(request.body.challenge, request.body.code, device(request))), message: securityMessages.totpEnabled }),
  );

  app.post(
    '/api/auth/login/passkey/options',
    {
      config: { limits: [perAddress(L.passkeyPerIp)] },
      schema: {
        operationId: 'passkeyLoginOptions',
        security: NO_AUTH,
        tags,
        summary: 'The options of a passkey sign-in (a single-use challenge, valid 5 minutes)',
        response: { 200: passkeyOptionsSchema, ...errors },
      },
    },
    async (request) => auth.passkeyOptions(device(request)),
  );

  app.post(
    '/api/auth/login/passkey',
    {
      config: { limits: [perAddress(L.passkeyPerIp)] },
      schema: {
        operationId: 'loginWithPasskey',
        security: NO_AUTH,
        tags,
        summary: 'Sign in with a passkey alone: it counts as two factors (no e-mailed code, no authenticator code)',
        body: passkeyLoginRequestSchema,
        response: { 200: sessionSchema, 401: errorSchema, 403: errorSchema, ...errors },
      },
    },
    async (request) => auth.loginWithPasskey(request.body, device(request)),
  );

  app.get(
    '/api/auth/sessions',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'listSessions',
        tags,
        summary: 'The signed-in devices of the account, the current one marked',
        security: [{ bearerAuth: [] }],
        response: { 200: signedInDevicesSchema, 401: errorSchema },
      },
    },
    async (request) => {
      const { userId, sessionId } = request.account;
      return (await auth.sessions.openOf(userId)).map((session) => {
        const { browser, os } = browserAndSystem(session.userAgent);
        return {
          _id: session.id,
          createdAt: session.createdAt.toISOString(),
          lastSeenAt: (session.lastSeenAt ?? session.createdAt).toISOString(),
          browser: browser || 'Unknown browser',
          os: os || 'Unknown system',
          place: auth.placeOf(session.ip),
          current: session.id === sessionId,
        };
      });
    },
  );

  app.delete(
    '/api/auth/sessions/:id',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'revokeSession',
        tags,
        summary: 'Signs one device out: its token stops working and its live stream closes, on every instance',
        security: [{ bearerAuth: [] }],
        params: z.object({ id: idField(securityMessages.sessionNotFound) }),
        response: { 204: z.null(), 401: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      if (!(await auth.endSession(request.account.userId, request.params.id))) throw new NotFound(securityMessages.sessionNotFound);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/auth/sessions/revoke-others',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'revokeOtherSessions',
        tags,
        summary: "Signs every other device out (and, with `revokeApiKeys`, deletes the seller's API keys)",
        security: [{ bearerAuth: [] }],
        body: revokeOthersRequestSchema,
        response: { 200: messageSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    async (request) => {
      const { userId, sessionId } = request.account;
      await auth.signOutEverywhereElse(userId, sessionId, device(request), { revokeApiKeys: request.body.revokeApiKeys });
      return { message: securityMessages.otherSessionsRevoked };
    },
  );

  app.post(
    '/api/auth/logout',
    {
      onRequest: app.authenticate,
      schema: { operationId: 'logout', tags, summary: 'End this session', security: [{ bearerAuth: [] }], response: { 204: z.null(), 401: errorSchema } },
    },
    async (request, reply) => {
      await auth.logout(request.account.userId, request.account.sessionId);
      return reply.code(204).send(null);
    },
  );
};
