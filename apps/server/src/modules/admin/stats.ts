// The dashboard (issue 15): the figures of a period of whole UTC days, each counted by PostgreSQL in
// the module that owns its data (orders, users, support) and put together here.
import { ADMIN_STATS_DEFAULT_DAYS, ADMIN_STATS_MAX_DAYS, ADMIN_TOP_GAMES, adminMessages, centsToEuro, ORDER_CURRENCY, type AdminStats } from '@keystore/contract';
import { Invalid } from '../../platform/errors.ts';
import type { Ledger } from '../ledger/ports.ts';
import type { OrdersService } from '../orders/ports.ts';
import type { SupportService } from '../support/ports.ts';
import type { UsersService } from '../users/ports.ts';

const DAY_MS = 24 * 3600_000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The period asked for, or the last 30 days (today included); Invalid when it ends before it starts or is too long. */
export function periodOf(query: { from?: string | undefined; to?: string | undefined }, now = Date.now()): { from: string; to: string } {
  const to = query.to ?? dayOf(now);
  const from = query.from ?? dayOf(Date.parse(to) - (ADMIN_STATS_DEFAULT_DAYS - 1) * DAY_MS);
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (!Number.isFinite(days) || days < 1 || days > ADMIN_STATS_MAX_DAYS) throw new Invalid(adminMessages.periodInvalid);
  return { from, to };
}

export async function dashboard(
  deps: { orders: OrdersService; users: UsersService; support: SupportService; ledger: Ledger },
  query: { from?: string | undefined; to?: string | undefined },
): Promise<AdminStats> {
  const { from, to } = periodOf(query);
  const [figures, customers, openSupport, commissionEarned, owedToSellers] = await Promise.all([
    deps.orders.figures(from, to, ADMIN_TOP_GAMES),
    deps.users.customerCounts(new Date(`${from}T00:00:00Z`), new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS)),
    deps.support.openCount(),
    deps.ledger.commissionEarned(),
    deps.ledger.owedToSellers(),
  ]);
  return {
    from,
    to,
    revenue: {
      total: centsToEuro(figures.byDay.reduce((sum, day) => sum + day.cents, 0)),
      currency: ORDER_CURRENCY,
      byDay: figures.byDay.map((day) => ({ date: day.date, amount: centsToEuro(day.cents), orders: day.orders })),
    },
    ordersByStatus: figures.byStatus,
    topGames: figures.topGames.map((game) => ({ gameId: game.gameId, title: game.title, units: game.units, revenue: centsToEuro(game.cents) })),
    customers,
    refunds: { count: figures.refunds.count, amount: centsToEuro(figures.refunds.cents) },
    undelivered: figures.undelivered,
    openSupport,
    today: centsToEuro(figures.todayCents),
    marketplace: { commissionEarned: centsToEuro(commissionEarned), owedToSellers: centsToEuro(owedToSellers) },
  };
}
