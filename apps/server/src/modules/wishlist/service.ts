// The wishlist (issue 31): games a customer wished for, with the price when wished for and what to be
// told of, and the alerts. The prices and stock the store shows are recorded by the catalogue at every
// change, in the transaction that made it (price points); one job per cluster follows those points in
// commit order and turns them into alerts, in batches in the database, each alert claimed by updating
// its item, with its notification and mail in the same transaction: sent once, whatever the instances.
import type { FastifyBaseLogger } from 'fastify';
import {
  ALERT_COOLDOWN_DAYS,
  centsToEuro,
  PRICE_DROP_PERCENT,
  WISHLIST_MAX_ITEMS,
  wishlistAlertTexts,
  wishlistMessages,
  type WishBody,
  type WishlistItem,
  type WishlistMerge,
} from '@keystore/contract';
import { LOCKS, type Database, type Db } from '../../db/client.ts';
import { Conflict, Invalid, NotFound } from '../../platform/errors.ts';
import type { MailContext } from '../../platform/mail/layout.ts';
import { wishlistAlertMail } from '../../platform/mail/wishlist-mails.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { Schedule } from '../../platform/schedule.ts';
import type { SignedLinks } from '../../platform/signed-links.ts';
import type { CatalogService } from '../catalog/ports.ts';
import type { NotificationsService } from '../notifications/ports.ts';
import { addItem, alertMailsOn, claimAlerts, itemsOf, markWeighed, movesInRange, pendingRange, removeItem, setAlertMails, updateItem, type ClaimedAlert, type GameMove } from './store.ts';

/** Alerts claimed (and written) per transaction. */
const ALERT_BATCH = 500;
/** Games weighed per claiming statement. */
const MOVES_PER_CLAIM = 200;
/** An alert mail's unsubscribe link works this long (a mail may be read long after). */
const UNSUBSCRIBE_LINK_DAYS = 365;

export interface WishlistDeps {
  database: Database;
  catalog: CatalogService;
  notifications: NotificationsService;
  mailer: Mailer;
  mailContext: MailContext;
  links: SignedLinks;
  log: FastifyBaseLogger;
}

const euro = (cents: number) => `€${centsToEuro(cents).toFixed(2)}`;

export class WishlistService {
  private readonly deps: WishlistDeps;
  private schedule: Schedule | undefined;

  constructor(deps: WishlistDeps) {
    this.deps = deps;
  }

  private get db() {
    return this.deps.database.db;
  }

  /** The customer's wishlist, each game as the store shows it now (a game the store no longer shows is left out). */
  async list(userId: string): Promise<WishlistItem[]> {
    const rows = await itemsOf(this.db, userId);
    const games = this.deps.catalog.listItems(rows.map((row) => row.gameId));
    return rows.flatMap((row) => {
      const game = games.get(row.gameId);
      if (!game) return [];
      return [
        {
          gameId: row.gameId,
          game,
          addedAt: row.addedAt.toISOString(),
          priceAtAdd: centsToEuro(row.priceAtAddCents),
          alerts: { priceDrop: row.priceDrop, targetPrice: row.targetPriceCents === null ? null : centsToEuro(row.targetPriceCents), backInStock: row.backInStock },
        },
      ];
    });
  }

  /** Adds a game (answers true) or changes its alerts (false); 404 for a game the store does not show, 409 past the limit. */
  async wish(userId: string, gameId: string, body: WishBody): Promise<boolean> {
    const settings = { priceDrop: body.priceDrop, backInStock: body.backInStock, targetPriceCents: body.targetPrice === undefined ? undefined : body.targetPrice === null ? null : Math.round(body.targetPrice * 100) };
    if (await updateItem(this.db, userId, gameId, settings)) return false;
    const priceAtAddCents = await this.deps.catalog.shownPriceCents(gameId);
    const added = await addItem(this.db, { userId, gameId, priceAtAddCents, ...settings }, WISHLIST_MAX_ITEMS);
    if (added === 'full') throw new Conflict(wishlistMessages.full);
    if (added === 'kept') await updateItem(this.db, userId, gameId, settings);
    return added === 'added';
  }

  async unwish(userId: string, gameId: string): Promise<void> {
    await removeItem(this.db, userId, gameId);
  }

  /**
   * Joins what a visitor wished for in the browser to the account (at sign-in): each game the store
   * shows, with its price when it was wished for (from the price history), up to the limit; a game
   * already on the list keeps its own. Answers the list.
   */
  async merge(userId: string, merge: WishlistMerge): Promise<WishlistItem[]> {
    const now = Date.now();
    for (const item of merge.items) {
      const at = item.addedAt ? new Date(Math.min(Date.parse(item.addedAt), now)) : undefined;
      let priceAtAddCents: number;
      try {
        priceAtAddCents = await this.deps.catalog.shownPriceCents(item.gameId, at);
      } catch (error) {
        if (error instanceof NotFound) continue;
        throw error;
      }
      if ((await addItem(this.db, { userId, gameId: item.gameId, priceAtAddCents, addedAt: at }, WISHLIST_MAX_ITEMS)) === 'full') break;
    }
    return this.list(userId);
  }

  alertMails(userId: string): Promise<boolean> {
    return alertMailsOn(this.db, userId);
  }

  async setAlertMails(userId: string, on: boolean): Promise<void> {
    await setAlertMails(this.db, userId, on);
  }

  /** One click in an alert mail (RFC 8058): the signed token names the account, whose alert mails go off. */
  async unsubscribe(token: string | undefined): Promise<void> {
    const userId = token ? subjectOf(token) : undefined;
    if (!userId || !(await this.deps.links.opens('alert-mails', userId, token))) throw new Invalid(wishlistMessages.unsubscribeInvalid);
    await setAlertMails(this.db, userId, false);
  }

  start(): void {
    this.schedule = new Schedule('*/10 * * * * *', 'wishlist alert run', () => this.sendAlerts(), this.deps.log);
    this.schedule.start();
  }

  async stop(): Promise<void> {
    await this.schedule?.stop();
  }

  /**
   * Turns the price points committed since the last run into alerts, once per cluster (an advisory
   * lock): batch after batch, each claimed and written in one transaction. Answers the alerts sent.
   */
  async sendAlerts(): Promise<number> {
    const run = await this.deps.database.withAdvisoryLock(LOCKS.wishlistAlerts, async () => {
      const range = await pendingRange(this.db);
      const moves = await movesInRange(this.db, range);
      let sent = 0;
      // Weighed games by games, so each batch's statement joins a few thousand items, never all.
      for (let start = 0; start < moves.length; start += MOVES_PER_CLAIM) {
        sent += await this.claimAndTell(moves.slice(start, start + MOVES_PER_CLAIM));
      }
      await markWeighed(this.db, range.to);
      if (sent > 0) this.deps.mailer.flush();
      return sent;
    });
    return run.ran ? run.value : 0;
  }

  /** Claims and tells the alerts some moves call for, batch after batch, each claimed and written in one transaction. */
  private async claimAndTell(moves: GameMove[]): Promise<number> {
    let sent = 0;
    for (;;) {
      const batch = await this.db.transaction(async (tx) => {
        const claimed = await claimAlerts(tx, moves, { dropPercent: PRICE_DROP_PERCENT, cooldownDays: ALERT_COOLDOWN_DAYS, limit: ALERT_BATCH });
        await this.tell(tx, claimed);
        return claimed.length;
      });
      sent += batch;
      if (batch < ALERT_BATCH) return sent;
    }
  }

  /** The bell's notifications and, unless turned off, the mails of a batch of alerts, in the claiming transaction. */
  private async tell(tx: Db, alerts: readonly ClaimedAlert[]): Promise<void> {
    const { notifications, mailer, mailContext, links } = this.deps;
    const told = alerts.map((alert) => {
      const now = euro(alert.priceCents);
      const was = euro(alert.priceAtAddCents);
      const texts = alert.kind === 'price-drop' ? wishlistAlertTexts.priceDrop(alert.title, was, now) : wishlistAlertTexts.backInStock(alert.title, now);
      return { alert, now, was, texts };
    });
    await notifications.publishMany(
      told.map(({ alert, texts }) => ({ ...texts, kind: 'wishlist-alert' as const, link: `/game/${alert.gameId}`, userId: alert.userId })),
      tx,
    );
    const mails = await Promise.all(
      told
        .filter(({ alert }) => !alert.mailOff)
        .map(async ({ alert, now, was }) =>
          wishlistAlertMail(mailContext, alert, { kind: alert.kind, title: alert.title, gameId: alert.gameId, was, now }, await links.sign('alert-mails', alert.userId, UNSUBSCRIBE_LINK_DAYS)),
        ),
    );
    await mailer.enqueueMany(tx, mails);
  }
}

/** The account a token names, read before its signature is checked (which `opens` does). */
function subjectOf(token: string): string | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof payload.sub === 'string' ? payload.sub : undefined;
  } catch {
    return undefined;
  }
}

