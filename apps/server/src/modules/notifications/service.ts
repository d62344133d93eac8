// Notifications: public ones (an admin's, one per published news item) and personal ones made from
// the events other modules publish on the app's event bus (platform/events.ts); no module calls this
// one to be heard.
import type { FastifyBaseLogger } from 'fastify';
import {
  accountMessages,
  NOTIFICATION_TEXT_MAX,
  NOTIFICATION_TITLE_MAX,
  NOTIFICATIONS_LIST_LIMIT,
  notificationMessages,
  notificationTexts,
  type Notification,
  type NotificationKind,
} from '@keystore/contract';
import type { Database, Db } from '../../db/client.ts';
import { NotFound, Unauthorized } from '../../platform/errors.ts';
import type { StoreEventBus } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import type { Accounts } from '../users/ports.ts';
import { insertAndNotify, insertAndNotifyMany, markRead, notificationsOfUser, publicNotifications, visibleNotification, type NotificationRow } from './store.ts';
import { NOTIFICATIONS_CHANNEL, NotificationStreams, SESSIONS_ENDED_CHANNEL, type Announcement } from './stream.ts';
import { toNotification } from './view.ts';

export interface PublishInput {
  title: string;
  text: string;
  kind: NotificationKind;
  link?: string | null;
  /** The owner of a personal notification; without it the notification is public. */
  userId?: string | null;
}

export interface NotificationsDeps {
  database: Database;
  accounts: Accounts;
  log: FastifyBaseLogger;
}

export class NotificationsService {
  readonly streams: NotificationStreams;
  private readonly deps: NotificationsDeps;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(deps: NotificationsDeps) {
    this.deps = deps;
    this.streams = new NotificationStreams(deps.database, deps.log);
  }

  private get db() {
    return this.deps.database.db;
  }

  /** Tells every instance that the user's sessions were ended (a block): their open streams end at once. */
  async sessionsEnded(userId: string): Promise<void> {
    await this.deps.database.notify(SESSIONS_ENDED_CHANNEL, userId);
  }

  /**
   * Stores a notification and announces it live on every instance; answers it as its reader sees it.
   * Given a transaction, the row and its announcement are committed with it (or not at all).
   */
  async publish(input: PublishInput, db: Db = this.db): Promise<Notification> {
    const row: NotificationRow = {
      id: newId(),
      userId: input.userId ?? null,
      // Clipped so the announcement stays well inside PostgreSQL's 8000-byte NOTIFY payload.
      title: input.title.slice(0, NOTIFICATION_TITLE_MAX),
      text: input.text.slice(0, NOTIFICATION_TEXT_MAX),
      kind: input.kind,
      link: input.link ?? null,
      createdAt: new Date(),
    };
    const notification = toNotification(row, false);
    const announcement: Announcement = { userId: row.userId, notification };
    await insertAndNotify(db, row, NOTIFICATIONS_CHANNEL, JSON.stringify(announcement));
    return notification;
  }

  /** Personal notifications of many users at once, in the caller's transaction (a batch of wishlist alerts), each announced live. */
  async publishMany(inputs: ReadonlyArray<PublishInput & { userId: string }>, tx: Db): Promise<void> {
    const rows = inputs.map((input): NotificationRow => ({
      id: newId(),
      userId: input.userId,
      title: input.title.slice(0, NOTIFICATION_TITLE_MAX),
      text: input.text.slice(0, NOTIFICATION_TEXT_MAX),
      kind: input.kind,
      link: input.link ?? null,
      createdAt: new Date(),
    }));
    const payloads = rows.map((row) => JSON.stringify({ userId: row.userId, notification: toNotification(row, false) } satisfies Announcement));
    await insertAndNotifyMany(tx, rows, NOTIFICATIONS_CHANNEL, payloads);
  }

  /** The hook for the news module: one public notification per published news item, linking to it. */
  newsPublished(news: { id: string; title: string; content?: string }): Promise<Notification> {
    return this.publish({ ...notificationTexts.news(news.title), kind: 'news', link: `/news/${news.id}` });
  }

  /** A signed-in user's list: public ones and their own since the account was created, newest first. */
  async listFor(userId: string): Promise<Notification[]> {
    const user = await this.deps.accounts.findById(userId);
    if (!user) throw new Unauthorized(accountMessages.sessionExpired);
    const rows = await notificationsOfUser(this.db, userId, user.createdAt, NOTIFICATIONS_LIST_LIMIT);
    return rows.map((row) => toNotification(row, row.isRead));
  }

  /** The public list for visitors; read state lives in their browser. */
  async listPublic(): Promise<Notification[]> {
    return (await publicNotifications(this.db, NOTIFICATIONS_LIST_LIMIT)).map((row) => toNotification(row, false));
  }

  /** Marks one notification read for the user; 404 for one they cannot see. Repeating it changes nothing. */
  async markRead(userId: string, id: string): Promise<void> {
    if (!(await visibleNotification(this.db, id, userId))) throw new NotFound(notificationMessages.notFound);
    await markRead(this.db, userId, id);
  }

  /** Waits for the notifications events are still writing (tests, shutdown). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Turns the bus's events into personal notifications: those told after the fact are written just
   * after the publisher's answer; a delivery's and a decline's are written in their transaction.
   */
  subscribeTo(bus: StoreEventBus): void {
    bus.on('order-paid', (order) => {
      const amount = moneyFormat(order.currency).format(order.amountCents / 100);
      this.personal(order.userId, 'order-paid', notificationTexts.orderPaid(amount), '/library');
    });
    bus.on('order-delivered', async ({ tx, userId, keyCount, gift }) => {
      const texts = gift ? notificationTexts.giftDelivered(keyCount) : notificationTexts.keysDelivered(keyCount);
      if (userId) await this.publish({ ...texts, kind: 'keys-delivered', link: '/library', userId }, tx);
    });
    bus.on('order-declined', async ({ tx, userId, reason }) => {
      if (userId) await this.publish({ ...notificationTexts.paymentDeclined(reason), kind: 'payment-declined', link: '/profile', userId }, tx);
    });
    bus.on('sessions-ended', ({ userId }) => this.sessionsEnded(userId));
    bus.on('password-changed', ({ userId }) => this.personal(userId, 'password-changed', notificationTexts.passwordChanged, '/profile'));
    bus.on('new-device-login', ({ userId, ip }) => this.personal(userId, 'new-device', notificationTexts.newDevice(ip), null));
    bus.on('news-published', async (news) => void (await this.newsPublished(news)));
  }

  /** An event's notification, written after the caller's answer (one insert and one NOTIFY), tracked for drain. */
  private personal(userId: string | null, kind: NotificationKind, texts: { title: string; text: string }, link: string | null): void {
    if (!userId) return;
    const work = this.publish({ ...texts, kind, link, userId }).catch((error: unknown) => {
      this.deps.log.error({ err: error, userId, kind }, 'could not write a notification');
    });
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }
}

/** One formatter per currency: making one costs far more than formatting (a tenth of a millisecond, on every payment). */
const moneyFormats = new Map<string, Intl.NumberFormat>();
function moneyFormat(currency: string): Intl.NumberFormat {
  const code = currency.toUpperCase();
  let format = moneyFormats.get(code);
  if (!format) moneyFormats.set(code, (format = new Intl.NumberFormat('en-IE', { style: 'currency', currency: code })));
  return format;
}
