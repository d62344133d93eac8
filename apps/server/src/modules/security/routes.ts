import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorSchema,
  idField,
  messageSchema,
  passkeyOptionsSchema,
  passkeyRegistrationRequestSchema,
  passwordAndCodeRequestSchema,
  identityConfirmationSchema,
  passwordConfirmationSchema,
  recoveryCodesSchema,
  securityMessages as m,
  securityOverviewSchema,
  totpCodeRequestSchema,
  totpSetupSchema,
} from '@keystore/contract';
import { clientIp } from '../../platform/client-ip.ts';
import { perUser, type LimitRule } from '../../platform/limits.ts';
import type { Origin, SecurityService } from './service.ts';

/** Passwords typed again to change a second factor, per account: a stolen session guesses no further. */
const PASSWORD_GUESSES: LimitRule = { name: 'security-password-account', limit: 10, windowSeconds: 15 * 60 };
/** Codes tried to turn the app on, per account. */
const ENABLE_TRIES: LimitRule = { name: 'totp-enable-account', limit: 10, windowSeconds: 15 * 60 };

/** Passkeys stored or removed per account. */
const PASSKEY_CHANGES: LimitRule = { name: 'passkey-changes-account', limit: 30, windowSeconds: 15 * 60 };

const tags = ['security'];
const security = [{ bearerAuth: [] }];
const denied = { 400: errorSchema, 401: errorSchema, 429: errorSchema };

function origin(request: FastifyRequest): Origin {
  return { ip: clientIp(request), userAgent: request.headers['user-agent'] };
}

/** The profile's Security section (issue 30): the authenticator app, recovery codes and passkeys. Devices are /api/auth/sessions. */
export const securityRoutes: FastifyPluginAsyncZod<{ security: SecurityService }> = async (app, { security: factors }) => {
  const confirmed = { onRequest: app.authenticate, config: { limits: [perUser(PASSWORD_GUESSES)] } };

  app.get(
    '/api/auth/security',
    {
      onRequest: app.authenticate,
      schema: { operationId: 'getSecurity', tags, summary: 'The second factors of the account', security, response: { 200: securityOverviewSchema, 401: errorSchema } },
    },
    async (request) => factors.overview(request.account.userId, await factors.secondFactorRequired(request.account.userId, request.account.role)),
  );

  app.post(
    '/api/auth/totp/setup',
    {
      ...confirmed,
      schema: {
        operationId: 'setUpTotp',
        tags,
        summary: 'A new authenticator-app secret (the password typed again), waiting for its first code',
        security,
        body: passwordConfirmationSchema,
        response: { 200: totpSetupSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => factors.beginTotp(request.account.userId, request.body.password),
  );

  app.post(
    '/api/auth/totp/enable',
    {
      onRequest: app.authenticate,
      config: { limits: [perUser(ENABLE_TRIES)] },
      schema: {
        operationId: 'enableTotp',
        tags,
        summary: 'Turns the authenticator app on with its first code; answers 10 single-use recovery codes, shown this once',
        security,
        body: totpCodeRequestSchema,
        response: { 200: recoveryCodesSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => ({ recoveryCodes: await factors.enableTotp(request.account.userId, request.body.code, origin(request)), message: m.totpEnabled }),
  );

  app.post(
    '/api/auth/totp/disable',
    {
      ...confirmed,
      schema: {
        operationId: 'disableTotp',
        tags,
        summary: 'Turns the authenticator app off: the password and a current code',
        security,
        body: passwordAndCodeRequestSchema,
        response: { 200: messageSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => {
      await factors.disableTotp(request.account.userId, request.body.password, request.body.code, origin(request));
      return { message: m.totpDisabled };
    },
  );

  app.post(
    '/api/auth/recovery-codes',
    {
      ...confirmed,
      schema: {
        operationId: 'regenerateRecoveryCodes',
        tags,
        summary: '10 new recovery codes (the password and a current code); the old ones stop working',
        security,
        body: passwordAndCodeRequestSchema,
        response: { 200: recoveryCodesSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => ({
      recoveryCodes: await factors.regenerateRecoveryCodes(request.account.userId, request.body.password, request.body.code, origin(request)),
      message: m.recoveryCodesRegenerated,
    }),
  );

  app.post(
    '/api/auth/passkeys/options',
    {
      ...confirmed,
      schema: {
        operationId: 'passkeyRegistrationOptions',
        tags,
        summary: "The options to create a passkey (the password, and the authenticator code when on, typed again); a single-use challenge valid 5 minutes",
        security,
        body: identityConfirmationSchema,
        response: { 200: passkeyOptionsSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => factors.passkeyRegistrationOptions(request.account.userId, request.body, origin(request)),
  );

  app.post(
    '/api/auth/passkeys',
    {
      onRequest: app.authenticate,
      config: { limits: [perUser(PASSKEY_CHANGES)] },
      schema: {
        operationId: 'registerPasskey',
        tags,
        summary: 'Stores the passkey the browser created, under a name',
        security,
        body: passkeyRegistrationRequestSchema,
        response: { 201: messageSchema, ...denied },
      },
    },
    async (request, reply) => {
      await factors.registerPasskey(request.account.userId, request.body, origin(request));
      return reply.code(201).send({ message: m.passkeyAdded });
    },
  );

  app.delete(
    '/api/auth/passkeys/:id',
    {
      onRequest: app.authenticate,
      config: { limits: [perUser(PASSKEY_CHANGES)] },
      schema: {
        operationId: 'deletePasskey',
        tags,
        summary: 'Removes a passkey',
        security,
        params: z.object({ id: idField(m.passkeyNotFound) }),
        response: { 204: z.null(), 401: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      await factors.removePasskey(request.account.userId, request.params.id, origin(request));
      return reply.code(204).send(null);
    },
  );
};
