// Orders held for review (issue 29) reach the owner at once, not through the hourly operator alerts:
// each admin gets a personal notification (live in the bell) and a mail, both written in the
// transaction that holds the order, so they go exactly when the hold is committed, once, from whichever
// instance took the payment.
import { centsToEuro, notificationTexts } from '@keystore/contract';
import type { StoreEventBus } from '../../platform/events.ts';
import { orderHeldMail } from '../../platform/mail/alert-mails.ts';
import type { MailContext } from '../../platform/mail/layout.ts';
import type { Mailer } from '../../platform/mailer.ts';
import type { NotificationsService } from '../notifications/ports.ts';
import type { UsersService } from '../users/ports.ts';

export interface ReviewAlertDeps {
  users: Pick<UsersService, 'admins'>;
  notifications: Pick<NotificationsService, 'publish'>;
  mailer: Mailer;
  mailContext: MailContext;
}

export function subscribeReviewAlerts(events: StoreEventBus, { users, notifications, mailer, mailContext }: ReviewAlertDeps): void {
  events.on('order-held', async ({ tx, orderId, amountCents, score, cancelRecommended }) => {
    const amount = `€${centsToEuro(amountCents).toFixed(2)}`;
    for (const admin of await users.admins(tx)) {
      await notifications.publish({ ...notificationTexts.orderInReview(amount, score), kind: 'order-review', link: `/admin/orders/${orderId}`, userId: admin.id }, tx);
      await mailer.enqueue(tx, orderHeldMail(mailContext, admin.email, { orderId, amount, score, cancelRecommended }));
    }
  });
}
