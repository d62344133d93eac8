import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { chatAnswerSchema, chatRequestSchema, errorSchema, feedbackRequestSchema, messageSchema } from '@keystore/contract';
import { clientIp } from '../../platform/client-ip.ts';
import { perAddress, perBodyField, type LimitSubject } from '../../platform/limits.ts';
import { SUPPORT_LIMITS as L } from './limits.ts';
import type { SupportService } from './service.ts';
import { OPTIONAL_BEARER } from '../../platform/openapi.ts';

const errors = { 400: errorSchema, 429: errorSchema } as const;
const tags = ['support'];

/** /api/support (SPEC §7): the e-mail form and the chat; a bearer token is optional and tells who is writing. */
export const supportRoutes: FastifyPluginAsyncZod<{ support: SupportService }> = async (app, { support }) => {
  /** A signed-in writer (the token is optional here); anonymous chat counts per address only. */
  const signedInUser: LimitSubject = async (request) => (await app.accountOf(request))?.userId;

  app.post(
    '/api/support/feedback',
    {
      config: { limits: [perAddress(L.feedbackPerIp), perBodyField(L.feedbackPerEmail, 'email')] },
      schema: {
        operationId: 'sendFeedback',
        security: OPTIONAL_BEARER,
        tags,
        summary: 'Send a message to the support team; the sender gets an acknowledgement',
        body: feedbackRequestSchema,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) => {
      const ip = clientIp(request);
      const account = await app.accountOf(request);
      return { message: await support.sendFeedback({ ...request.body, userId: account?.userId, ip }) };
    },
  );

  app.post(
    '/api/support/chat',
    {
      config: { limits: [perAddress(L.chatPerIp), { rule: L.chatPerUser, by: signedInUser }] },
      schema: {
        operationId: 'chatWithSupport',
        security: OPTIONAL_BEARER,
        tags,
        summary: "The support assistant's answer to a message, given the chat so far",
        body: chatRequestSchema,
        response: { 200: chatAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const account = await app.accountOf(request);
      return { answer: await support.chat(request.body.message, request.body.context, account?.userId) };
    },
  );
};
