// What a proved fraud does to its buyer (issue 29): once a dispute or a fraud warning is committed, the
// buyer's account is blocked (every session ends at once, on every instance, and open notification
// streams close) and, when the buyer also sells here, its seller account is suspended for the owner to
// review, which turns its API keys away too. The e-mail, card, address and browser are already on the
// blocklist, written with the fraud. Safe to repeat.
import type { FastifyBaseLogger } from 'fastify';
import { NotFound } from '../../platform/errors.ts';
import type { StoreEventBus } from '../../platform/events.ts';
import type { AuthService } from '../auth/ports.ts';
import type { NotificationsService } from '../notifications/ports.ts';
import type { SellersService } from '../sellers/ports.ts';
import type { UsersService } from '../users/ports.ts';

export interface FraudConsequencesDeps {
  users: Pick<UsersService, 'setBlocked'>;
  auth: Pick<AuthService, 'shutOut'>;
  notifications: Pick<NotificationsService, 'sessionsEnded'>;
  sellers: Pick<SellersService, 'ofUser' | 'adminPatch'>;
  log: FastifyBaseLogger;
}

export function subscribeFraudConsequences(events: StoreEventBus, deps: FraudConsequencesDeps): void {
  events.on('fraud-proved', async ({ orderId, userId }) => {
    if (!userId) return;
    await deps.users.setBlocked(userId, true);
    await deps.auth.shutOut(userId);
    await deps.notifications.sessionsEnded(userId);
    const seller = await deps.sellers.ofUser(userId).catch((error: unknown) => {
      if (error instanceof NotFound) return undefined;
      throw error;
    });
    if (seller && seller.status !== 'suspended') await deps.sellers.adminPatch(seller.id, { status: 'suspended' });
    deps.log.warn({ orderId, userId, sellerId: seller?.id }, 'fraud proved: buyer blocked' + (seller ? ', seller account suspended' : ''));
  });
}
