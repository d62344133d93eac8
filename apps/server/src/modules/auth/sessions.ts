// Signed-in devices. A JWT (HS256) names its session row, so the server can end a token before it
// expires: logout, a password change, a reset and account deletion all end rows here.
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { createHmac } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import { accountMessages, type Role } from '@keystore/contract';
import { preparedOnce, type Database } from '../../db/client.ts';
import { userFacts } from '../users/ports.ts';
import { sessions } from './schema.ts';
import { Unauthorized } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';

/** The open session a token names: every authenticated request asks. */
const openSession = preparedOnce((db) =>
  db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .prepare('open_session'),
);

/**
 * The account a token names, with whether its session is still open, in one round trip: every
 * authenticated request asks, and a purchase is two of them.
 */
const sessionHolder = preparedOnce((db) =>
  db
    .select({
      role: userFacts.role,
      email: userFacts.email,
      blockedAt: userFacts.blockedAt,
      open: sql<boolean>`${sessions.id} is not null`,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(userFacts)
    .leftJoin(
      sessions,
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, userFacts.id),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .where(eq(userFacts.id, sql.placeholder('userId')))
    .prepare('session_holder'),
);

/** How long a login lasts without a new one. */
const SESSION_DAYS = 7;

/** "Last seen" is written at most this often per session: every request reads the row, few write it. */
const LAST_SEEN_EVERY_MS = 60_000;

/** Records that a session was used now, unless another request (of any instance) did within the minute. */
const touchSession = preparedOnce((db) =>
  db
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        sql`(${sessions.lastSeenAt} is null or ${sessions.lastSeenAt} < now() - interval '1 minute')`,
      ),
    )
    .prepare('touch_session'),
);

export interface SessionClaims {
  userId: string;
  sessionId: string;
}

/**
 * How long a stream ticket can open a notification stream. The browser's EventSource cannot send a
 * header, so what opens it travels in the URL; a ticket (not the session token) is what may: it
 * opens only a stream, once, within a minute, for a session still open.
 */
export const STREAM_TICKET_SECONDS = 60;

/**
 * Session tokens whose signature was checked, by their exact text, for as long as they are valid
 * (up to a time cap): checking an HS256 signature through WebCrypto was a twentieth of the server's
 * work on the purchase path, and a customer sends the same token with every request. Only a token
 * verified before can hit; whether its session is still open is asked of the database every time.
 */
const VERIFIED_TOKENS = { max: 10_000, ttlMs: 10 * 60_000 } as const;

/** A ticket's claims: the session it was asked for, and its own id (each ticket is used once). */
export interface TicketClaims extends SessionClaims {
  ticketId: string;
}

/** Tickets are signed with a key of their own, derived from the secret: neither kind of token passes for the other. */
function ticketKey(secret: Uint8Array): Uint8Array {
  return createHmac('sha256', secret).update('keystore notification-stream ticket').digest();
}

export class SessionService {
  private readonly key: Uint8Array;
  /** Keys a token may also be signed with: JWT_SECRET_PREVIOUS, so a rotation logs nobody out. */
  private readonly previousKeys: Uint8Array[];
  private readonly ticketKeys: Uint8Array[];
  private readonly database: Database;
  private readonly verifiedTokens = new LRUCache<string, SessionClaims & { expiresAt: number }>({ max: VERIFIED_TOKENS.max });

  constructor(database: Database, jwtSecret: string, previousSecrets: readonly string[] = []) {
    this.database = database;
    this.key = new TextEncoder().encode(jwtSecret);
    this.previousKeys = previousSecrets.map((secret) => new TextEncoder().encode(secret));
    this.ticketKeys = [this.key, ...this.previousKeys].map(ticketKey);
  }

  /** Opens a session for the user and answers its bearer token. */
  async open(userId: string, device: { ip: string; userAgent: string | undefined; browser?: string | undefined }): Promise<string> {
    const id = newId(24);
    const expiresAt = new Date(Date.now() + SESSION_DAYS * 24 * 3600_000);
    await this.database.db.insert(sessions).values({ id, userId, ip: device.ip, userAgent: device.userAgent?.slice(0, 500), browser: device.browser ?? null, expiresAt });
    return new SignJWT({ sid: id })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .sign(this.key);
  }

  /**
   * What a bearer token claims: only HS256 with our secret, unexpired, naming a user and a session.
   * Throws Unauthorized otherwise. Whether the session is still open is `isOpen`'s part.
   */
  async claimsOf(token: string): Promise<SessionClaims> {
    const known = this.verifiedTokens.get(token);
    // The cache's own ttl runs on a monotonic clock and only frees memory; the token's expiry is the wall clock's, checked here.
    if (known && known.expiresAt > Date.now()) return { userId: known.userId, sessionId: known.sessionId };
    const payload = await this.verified(token, [this.key, ...this.previousKeys]);
    const claims = { userId: payload.sub!, sessionId: payload.sid as string };
    const expiresAt = payload.exp! * 1000;
    this.verifiedTokens.set(token, { ...claims, expiresAt }, { ttl: Math.max(1, Math.min(VERIFIED_TOKENS.ttlMs, expiresAt - Date.now())) });
    return claims;
  }

  /** A stream ticket for the session of `claims` (see STREAM_TICKET_SECONDS). */
  issueStreamTicket(claims: SessionClaims): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setJti(newId(16))
      .setIssuedAt()
      .setExpirationTime(`${STREAM_TICKET_SECONDS}s`)
      .sign(this.ticketKeys[0]!);
  }

  /** What a stream ticket claims; Unauthorized when it is not one of ours or has expired. That it is used once is the caller's part. */
  async claimsOfTicket(ticket: string): Promise<TicketClaims> {
    const payload = await this.verified(ticket, this.ticketKeys);
    if (typeof payload.jti !== 'string') throw new Unauthorized(accountMessages.authRequired);
    return { userId: payload.sub!, sessionId: payload.sid as string, ticketId: payload.jti };
  }

  /**
   * The payload of a token signed with one of `keys` (the current secret's first), naming a user
   * and a session; Unauthorized otherwise.
   */
  private async verified(token: string, keys: Uint8Array[]): Promise<JWTPayload> {
    let failure: unknown;
    for (const key of keys) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp'] });
        if (typeof payload.sid !== 'string') throw new Unauthorized(accountMessages.authRequired);
        return payload;
      } catch (error) {
        // Only a signature made with another secret tries the next one; an expired token is final.
        if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
          failure = error;
          continue;
        }
        failure = error;
        break;
      }
    }
    if (failure instanceof joseErrors.JWTExpired) throw new Unauthorized(accountMessages.sessionExpired);
    throw new Unauthorized(accountMessages.authRequired);
  }

  /**
   * The user a session belongs to (undefined once the account is gone), and whether the session is
   * still open: not ended, not expired.
   */
  async holderOf(claims: SessionClaims): Promise<{ role: Role; email: string; blockedAt: Date | null; open: boolean; lastSeenAt: Date | null } | undefined> {
    const [holder] = await sessionHolder(this.database.db).execute({ sessionId: claims.sessionId, userId: claims.userId });
    return holder;
  }

  /**
   * Keeps "last seen" to the minute: a write only when the row read for this request says a minute
   * has passed, not awaited by the request (a lost write only makes "last seen" a minute older).
   */
  seen(sessionId: string, lastSeenAt: Date | null): Promise<void> | undefined {
    if (lastSeenAt && Date.now() - lastSeenAt.getTime() < LAST_SEEN_EVERY_MS) return undefined;
    return touchSession(this.database.db)
      .execute({ sessionId })
      .then(() => undefined);
  }

  /** The user's open sessions (signed-in devices), the most recently used first. */
  async openOf(userId: string): Promise<Array<{ id: string; createdAt: Date; lastSeenAt: Date | null; ip: string | null; userAgent: string | null }>> {
    return this.database.db
      .select({ id: sessions.id, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, ip: sessions.ip, userAgent: sessions.userAgent })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
      .orderBy(desc(sql`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt})`));
  }

  /** Whether the session is still open: not ended, not expired. */
  async isOpen(claims: SessionClaims): Promise<boolean> {
    const [open] = await openSession(this.database.db).execute({ sessionId: claims.sessionId, userId: claims.userId });
    return open !== undefined;
  }

  /** The user's sign-ins, newest first: when, from which address and browser, and whether the session is still open. */
  async history(userId: string, limit: number): Promise<Array<{ at: Date; ip: string | null; userAgent: string | null; active: boolean }>> {
    return this.database.db
      .select({
        at: sessions.createdAt,
        ip: sessions.ip,
        userAgent: sessions.userAgent,
        active: sql<boolean>`(${sessions.revokedAt} is null and ${sessions.expiresAt} > now())`,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.createdAt))
      .limit(limit);
  }

  /** Ends one of the user's sessions (a logout, or a device signed out from the list); false when none was open. */
  async end(userId: string, sessionId: string): Promise<boolean> {
    const rows = await this.database.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    return rows.length > 0;
  }

  /** Ends every open session of the user, or every one but `except` (the device that asked). */
  async endAll(userId: string, options: { except?: string } = {}): Promise<void> {
    await this.database.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), options.except ? ne(sessions.id, options.except) : undefined));
  }
}
