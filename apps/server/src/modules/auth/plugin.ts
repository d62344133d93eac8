import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { StoreEventBus } from '../../platform/events.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { Limits, limitsPlugin } from '../../platform/limits.ts';
import type { UsersService } from '../users/ports.ts';
import type { SecondFactors } from '../security/ports.ts';
import { ensureAdmin } from './admin.ts';
import { registerAuthentication } from './authenticate.ts';
import { LoginThrottle } from './limits.ts';
import { authRoutes } from './routes.ts';
import { AuthService, type Places, type SellerKeys } from './service.ts';

/**
 * Accounts on the root app: `app.auth`, `app.authenticate`, `app.requireAdmin` and `app.limits` (with every route's
 * `config.limits`, platform/limits.ts) for every module, the /api/auth routes with their limits, and the admin of ADMIN_EMAIL ensured at start.
 */
export async function registerAuth(
  app: FastifyInstance,
  {
    config,
    database,
    users,
    mailer,
    events,
    factors,
    sellerKeys,
    places,
  }: { config: Config; database: Database; users: UsersService; mailer: Mailer; events: StoreEventBus; factors: SecondFactors; sellerKeys: SellerKeys; places?: Places | undefined },
): Promise<AuthService> {
  // One Limits (one Redis connection) for the whole app: every module's routes are counted through it.
  const limits = new Limits({ redisUrl: config.redisUrl, keyPrefix: config.redisKeyPrefix, scale: config.rateLimitScale, log: app.log });
  await app.register(limitsPlugin, { limits });
  const auth = new AuthService(database, config, users, mailer, factors, { events, throttle: new LoginThrottle(limits), sellerKeys, places });
  app.decorate('auth', auth);
  registerAuthentication(app, auth.sessions);
  const { admin } = config;
  if (admin) app.addHook('onReady', () => ensureAdmin(users, admin, app.log));
  await app.register(authRoutes, { auth });
  return auth;
}
