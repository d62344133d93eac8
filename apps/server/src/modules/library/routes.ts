import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, purchaseIdParamsSchema, purchaseKeySchema, purchaseListSchema } from '@keystore/contract';
import type { LibraryService, SentGift } from './service.ts';

const bearer = [{ bearerAuth: [] }];

/** The library (SPEC §7): one purchase per delivered key, and the key itself for its owner. */
export const libraryRoutes: FastifyPluginAsyncZod<{ library: LibraryService; sentGifts: (userId: string) => Promise<SentGift[]> }> = async (app, { library, sentGifts }) => {
  app.get(
    '/api/purchases',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'listPurchases',
        tags: ['library'],
        summary: "One entry per delivered key of the caller, newest first, with its game; a key the caller sent as a gift is listed with `gift` and never revealed",
        security: bearer,
        response: { 200: purchaseListSchema, 401: errorSchema },
      },
    },
    async (request) => library.purchases(request.account.userId, await sentGifts(request.account.userId)),
  );

  app.get(
    '/api/purchases/:id/key',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'revealPurchaseKey',
        tags: ['library'],
        summary: 'The key of a purchase, decrypted for its owner only (404 for anyone else); each reveal is recorded',
        security: bearer,
        params: purchaseIdParamsSchema,
        response: { 200: purchaseKeySchema, 401: errorSchema, 404: errorSchema },
      },
    },
    // A key is a secret: it goes out with Cache-Control: no-store, like every authenticated answer (auth/authenticate.ts).
    async (request) => ({ key: await library.revealKey(request.params.id, request.account.userId, request.ip) }),
  );
};
