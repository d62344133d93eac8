import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { chatAnswerSchema, chatRequestSchema, errorSchema, feedbackRequestSchema, messageSchema } from '@keystore/contract';
import { clientIp } from '../../platform/client-ip.ts';
import type { RateRule } from '../../platform/rate-limit.ts';
import { SUPPORT_LIMITS as L } from './limits.ts';
import type { SupportService } from './service.ts';

const errors = { 400: errorSchema, 429: errorSchema } as const;
const tags = ['support'];

/** /api/support (SPEC §7): the e-mail form and the chat; a bearer token is optional and tells who is writing. */
export const supportRoutes: FastifyPluginAsyncZod<{ support: SupportService }> = async (app, { support }) => {
  app.post(
    '/api/support/feedback',
    {
      schema: {
        tags,
        summary: 'Send a message to the support team; the sender gets an acknowledgement',
        body: feedbackRequestSchema,
        response: { 200: messageSchema, ...errors },
      },
    },
    async (request) => {
      const ip = clientIp(request);
      await app.rateLimit([L.feedbackPerIp, ip], [L.feedbackPerEmail, request.body.email]);
      const account = await app.accountOf(request);
      return { message: await support.sendFeedback({ ...request.body, userId: account?.userId, ip }) };
    },
  );

  app.post(
    '/api/support/chat',
    {
      schema: {
        tags,
        summary: "The support assistant's answer to a message, given the chat so far",
        body: chatRequestSchema,
        response: { 200: chatAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const account = await app.accountOf(request);
      const checks: Array<[RateRule, string]> = [[L.chatPerIp, clientIp(request)]];
      if (account) checks.push([L.chatPerUser, account.userId]);
      await app.rateLimit(...checks);
      return { answer: await support.chat(request.body.message, request.body.context, account?.userId) };
    },
  );
};
