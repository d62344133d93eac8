// Who is calling: `app.authenticate` and `app.requireAdmin` are hooks any module's routes use,
// as `{ onRequest: app.authenticate }`; after them `request.account` names the caller. They run at
// onRequest, before the body is read: an anonymous caller cannot make the server read and parse one.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accountMessages, adminMessages, type Role } from '@keystore/contract';
import { Forbidden, Unauthorized } from '../../platform/errors.ts';
import type { LimitRule } from '../../platform/limits.ts';
import type { AuthService } from './service.ts';
import { STREAM_TICKET_SECONDS, type SessionClaims, type SessionService } from './sessions.ts';

/** The signed-in caller of a request. */
export interface Account {
  userId: string;
  sessionId: string;
  role: Role;
  /** The account's e-mail as the request found it (the risk desk's checkout identity). */
  email: string;
}

export type AuthHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: a valid bearer token of an open session, else 401. Sets `request.account`. */
    authenticate: AuthHook;
    /** onRequest hook: like `authenticate`, and the caller must be an admin, else 403. */
    requireAdmin: AuthHook;
    /**
     * Signs the request in with a stream ticket (sessions.ts) instead of a bearer token: valid,
     * unused and for a session still open, else 401. Each ticket is taken once.
     */
    authenticateTicket: (request: FastifyRequest, ticket: string) => Promise<void>;
    /**
     * The caller when the request carries a valid bearer token of an open session, else undefined:
     * for calls anyone may make that do more for a signed-in customer (the support chat).
     */
    accountOf: (request: FastifyRequest) => Promise<Account | undefined>;
    /** Accounts: sign-up, login, codes, sessions (`app.auth.endSessions`), account mails. */
    auth: AuthService;
  }
  interface FastifyRequest {
    /** Set by `app.authenticate` / `app.requireAdmin`; read it only in routes that use one of them. */
    account: Account;
  }
}

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * A ticket's one use, counted like a limit of one: through Redis when configured, so every
 * instance refuses a ticket another has taken; in memory otherwise, per instance.
 */
const TICKET_USE: LimitRule = { name: 'stream-ticket-use', limit: 1, windowSeconds: STREAM_TICKET_SECONDS, unscaled: true };

/** Decorates the app with `authenticate` and `requireAdmin` (on the root instance, so every module sees them). */
export function registerAuthentication(app: FastifyInstance, sessions: SessionService): void {
  app.decorateRequest('account', null as unknown as Account);

  /** The account a bearer token names; Unauthorized when there is none or it is not valid. */
  const accountFor = async (request: FastifyRequest): Promise<Account> => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!token) throw new Unauthorized(accountMessages.authRequired);
    return accountOfClaims(await sessions.claimsOf(token));
  };

  const accountOfClaims = async (claims: SessionClaims): Promise<Account> => {
    // Read on every request, on every instance (no cache), in one query: a block holds at once everywhere,
    // and a token of a blocked account says why it no longer works, even one opened in a race with the block.
    const holder = await sessions.holderOf(claims);
    if (holder?.blockedAt) throw new Forbidden(adminMessages.accountBlocked);
    if (!holder?.open) throw new Unauthorized(accountMessages.sessionExpired);
    sessions.seen(claims.sessionId, holder.lastSeenAt)?.catch((error: unknown) => app.log.warn({ err: error }, 'could not record when a session was last seen'));
    return { userId: claims.userId, sessionId: claims.sessionId, role: holder.role, email: holder.email };
  };

  const authenticateTicket = async (request: FastifyRequest, ticket: string): Promise<void> => {
    const { ticketId, ...claims } = await sessions.claimsOfTicket(ticket);
    if (!(await app.limits.hit(TICKET_USE, ticketId)).allowed) throw new Unauthorized(accountMessages.sessionExpired);
    request.account = await accountOfClaims(claims);
  };

  const authenticate: AuthHook = async (request) => {
    request.account = await accountFor(request);
  };

  // A stale or foreign token makes the caller anonymous rather than failing a call anyone may make.
  // Asked once per request, however many times (a per-user limit, then the handler).
  const asked = new WeakMap<FastifyRequest, Promise<Account | undefined>>();
  const accountOf = (request: FastifyRequest): Promise<Account | undefined> => {
    let account = asked.get(request);
    if (!account) {
      account = accountFor(request).catch((error: unknown) => {
        if (error instanceof Unauthorized) return undefined;
        throw error;
      });
      asked.set(request, account);
    }
    return account;
  };

  const requireAdmin: AuthHook = async (request, reply) => {
    await authenticate(request, reply);
    if (request.account.role !== 'admin') throw new Forbidden(accountMessages.adminOnly);
  };

  // An answer to a caller who showed a token is theirs alone (a profile, orders, a key): no cache on
  // the way may keep it. Set here once for every route, error answers included, so no route can forget it.
  app.addHook('onSend', async (request, reply) => {
    if (request.headers.authorization || request.account) reply.header('Cache-Control', 'no-store');
  });

  app.decorate('authenticate', authenticate);
  app.decorate('requireAdmin', requireAdmin);
  app.decorate('authenticateTicket', authenticateTicket);
  app.decorate('accountOf', accountOf);
}
