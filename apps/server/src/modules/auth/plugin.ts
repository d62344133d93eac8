import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { RateLimiter, type RateRule } from '../../platform/rate-limit.ts';
import type { UsersService } from '../users/service.ts';
import { ensureAdmin } from './admin.ts';
import { registerAuthentication } from './authenticate.ts';
import { enforce } from './limits.ts';
import { authRoutes } from './routes.ts';
import { AuthService, type AccountEvents } from './service.ts';

/**
 * Accounts on the root app: `app.auth`, `app.authenticate`, `app.requireAdmin` and `app.rateLimit` for every module,
 * the /api/auth routes with their rate limits, and the admin of ADMIN_EMAIL ensured at start.
 */
export async function registerAuth(
  app: FastifyInstance,
  { config, database, users, mailer, events }: { config: Config; database: Database; users: UsersService; mailer: Mailer; events?: AccountEvents },
): Promise<AuthService> {
  const auth = new AuthService(database, config, users, mailer, app.log, events);
  const limiter = new RateLimiter({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, scale: config.rateLimitScale, log: app.log });
  app.decorate('auth', auth);
  // One limiter (one Redis connection) for the whole app: other modules count their calls through it.
  app.decorate('rateLimit', (...checks: Array<[rule: RateRule, subject: string]>) => enforce(limiter, ...checks));
  registerAuthentication(app, auth.sessions, users);
  const { admin } = config;
  if (admin) app.addHook('onReady', () => ensureAdmin(users, admin, app.log));
  app.addHook('onReady', () => limiter.start());
  app.addHook('onClose', () => limiter.close());
  app.addHook('onClose', () => auth.settle());
  await app.register(authRoutes, { auth, limiter });
  return auth;
}
