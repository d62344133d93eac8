// Who opens an order on a request (issue 29): its signed-in owner, or whoever holds its signed link.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accountMessages } from '@keystore/contract';
import { Unauthorized } from '../../platform/errors.ts';
import type { OrderAccess } from './service.ts';

/**
 * Who opens an order on this request: the signed-in caller, and the order's link (`?token=`) when one
 * is given. 401 with neither; a link that does not open the order is the service's 404.
 */
export async function accessOf(app: FastifyInstance, request: FastifyRequest, token: string | undefined): Promise<OrderAccess> {
  // Signed in already at onRequest (sessionIfSent), before any purchase turn; else asked here.
  const account = request.account ?? (request.headers.authorization ? await app.accountOf(request) : undefined);
  if (!account && token === undefined) throw new Unauthorized(accountMessages.authRequired);
  return { userId: account?.userId, token };
}


/**
 * preHandler, before a purchase turn is taken (platform/admission.ts): a request with neither a session
 * nor what stands in for one (a guest's e-mail, an order's link) is refused at once, without waiting.
 */
export const accountOrGuest = (what: (request: FastifyRequest) => unknown) => async (request: FastifyRequest): Promise<void> => {
  if (!request.headers.authorization && what(request) === undefined) throw new Unauthorized(accountMessages.authRequired);
};

/** onRequest: a bearer token, when sent, must be a valid session's (a guest sends none). */
export const sessionIfSent = (app: FastifyInstance) => async (request: FastifyRequest, reply: Parameters<typeof app.authenticate>[1]) => {
  if (request.headers.authorization) await app.authenticate(request, reply);
};
