// Operator alerts (issue 15), so nobody has to watch the dashboard: every minute, once per cluster (an
// advisory lock), the store looks for a paid order still undelivered 10 minutes after payment, two
// failed supplier syncs in a row, and a game that sold in the last 7 days and ran out of stock. Each
// cause mails every admin through the outbox at most once an hour: the hour is claimed in
// operator_alerts in the same transaction that writes the mails, so instances never both send.
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ALERT_INTERVAL_MINUTES, UNDELIVERED_ALERT_MINUTES } from '@keystore/contract';
import { LOCKS, queryRows, type Database } from '../../db/client.ts';
import { operatorAlertMail, type Alert } from '../../platform/mail/alert-mails.ts';
import type { MailContext } from '../../platform/mail/layout.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { Schedule } from '../../platform/schedule.ts';
import type { CatalogService } from '../catalog/ports.ts';
import type { OrdersService } from '../orders/ports.ts';
import type { UsersService } from '../users/ports.ts';

/** A game counts as selling when a paid order had it within this many days. */
const SOLD_WITHIN_DAYS = 7;

export type AlertCause = 'undelivered' | 'sync-failed' | 'out-of-stock';

export interface AlertDeps {
  database: Database;
  orders: OrdersService;
  catalog: CatalogService;
  users: UsersService;
  mailer: Mailer;
  mailContext: MailContext;
  log: FastifyBaseLogger;
}

export class OperatorAlerts {
  private readonly deps: AlertDeps;
  private schedule: Schedule | undefined;

  constructor(deps: AlertDeps) {
    this.deps = deps;
  }

  start(): void {
    this.schedule = new Schedule('30 * * * * *', 'operator alert check', () => this.check(), this.deps.log);
    this.schedule.start();
  }

  async stop(): Promise<void> {
    await this.schedule?.stop();
  }

  /** Looks for every cause once (on one instance of the cluster); answers the causes mailed. */
  async check(): Promise<AlertCause[]> {
    const run = await this.deps.database.withAdvisoryLock(LOCKS.operatorAlerts, async () => {
      const alerts = await this.alerts();
      const sent: AlertCause[] = [];
      for (const [cause, alert] of alerts) if (await this.send(cause, alert)) sent.push(cause);
      return sent;
    });
    return run.ran ? run.value : [];
  }

  private async alerts(): Promise<Array<[AlertCause, Alert]>> {
    const { orders, catalog } = this.deps;
    const [overdue, runs, soldOut] = await Promise.all([
      orders.overdueDeliveries(UNDELIVERED_ALERT_MINUTES),
      catalog.syncRuns(2),
      orders.soldOutBestsellers(SOLD_WITHIN_DAYS),
    ]);
    const alerts: Array<[AlertCause, Alert]> = [];
    if (overdue.count > 0) {
      alerts.push([
        'undelivered',
        {
          subject: `${overdue.count} paid ${overdue.count === 1 ? 'order is' : 'orders are'} still without keys`,
          lines: [`${overdue.count} paid ${overdue.count === 1 ? 'order has' : 'orders have'} waited more than ${UNDELIVERED_ALERT_MINUTES} minutes for ${overdue.count === 1 ? 'its' : 'their'} keys.`],
          path: overdue.count === 1 && overdue.oldest ? `/admin/orders/${overdue.oldest}` : '/admin/orders?status=Paid&deliveryStatus=Pending',
        },
      ]);
    }
    if (runs.length === 2 && runs.every((run) => run.outcome === 'failed')) {
      alerts.push(['sync-failed', { subject: 'The last two supplier syncs failed', lines: ['The last two catalogue syncs failed.', `Last error: ${runs[0]!.error ?? 'unknown'}`], path: '/admin/catalogue' }]);
    }
    if (soldOut.length > 0) {
      alerts.push([
        'out-of-stock',
        {
          subject: `${soldOut.length} selling ${soldOut.length === 1 ? 'game is' : 'games are'} out of stock`,
          lines: [`Sold in the last ${SOLD_WITHIN_DAYS} days and now out of stock:`, ...soldOut.slice(0, 10).map((game) => `• ${game.title}`)],
          path: soldOut.length === 1 ? `/admin/catalogue?q=${encodeURIComponent(soldOut[0]!.title)}` : '/admin/catalogue',
        },
      ]);
    }
    return alerts;
  }

  /** Mails every admin about a cause unless it was mailed within the hour; answers whether it was. */
  private async send(cause: AlertCause, alert: Alert): Promise<boolean> {
    const recipients = await this.deps.users.adminEmails();
    if (recipients.length === 0) return false;
    const sent = await this.deps.database.db.transaction(async (tx) => {
      const claimed = await queryRows<{ cause: string }>(
        tx,
        sql`insert into operator_alerts (cause, last_sent_at) values (${cause}, now())
            on conflict (cause) do update set last_sent_at = now()
            where operator_alerts.last_sent_at <= now() - ${ALERT_INTERVAL_MINUTES}::int * interval '1 minute'
            returning cause`,
      );
      if (claimed.length === 0) return false;
      for (const to of recipients) await this.deps.mailer.enqueue(tx, operatorAlertMail(this.deps.mailContext, to, alert));
      return true;
    });
    if (sent) {
      this.deps.mailer.flush();
      this.deps.log.warn({ cause }, 'operator alert mailed');
    }
    return sent;
  }
}
