// Gifts (issue 29): an order bought for someone else. The orders module writes the order (flagged as a
// gift) and asks here to record its recipient, in the placement's transaction. When the order is
// delivered, in the delivery's transaction, the recipient's mail is written with the buyer's message
// and the gift's signed link (never a key), and the keys become the recipient's when an account has
// proved that e-mail, or later when one does. The buyer's library shows the gift as sent, never its key.
import type { FastifyBaseLogger } from 'fastify';
import { giftMessages as m, type Gift } from '@keystore/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { NotFound } from '../../platform/errors.ts';
import type { StoreEventBus } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { compose, type MailContext } from '../../platform/mail/layout.ts';
import type { Mailer } from '../../platform/mailer.ts';
import type { SignedLinks } from '../../platform/signed-links.ts';
import type { CatalogService } from '../catalog/ports.ts';
import type { LibraryService } from '../library/ports.ts';
import type { Accounts } from '../users/ports.ts';
import { gifts } from './schema.ts';

export type GiftRow = typeof gifts.$inferSelect;

export interface GiftsDeps {
  database: Database;
  library: LibraryService;
  catalog: CatalogService;
  accounts: Accounts;
  links: SignedLinks;
  mailer: Mailer;
  mailContext: MailContext;
  log: FastifyBaseLogger;
}

/** What placement records of a gift. */
export interface NewGift {
  orderId: string;
  email: string;
  name: string;
  message: string;
  senderUserId: string | null;
  senderName: string | null;
}

export class GiftsService {
  private readonly deps: GiftsDeps;

  constructor(deps: GiftsDeps) {
    this.deps = deps;
  }

  private get db() {
    return this.deps.database.db;
  }

  /** Records an order's recipient, in the placement's transaction. */
  async create(tx: Db, gift: NewGift): Promise<void> {
    await tx.insert(gifts).values({ id: newId(), ...gift });
  }

  /** Hears of deliveries (the recipient's mail, and its keys when its account exists) and of accounts proving an e-mail (their gifts). */
  subscribeTo(events: StoreEventBus): void {
    // Only a gift's delivery costs the delivery's transaction a statement here.
    events.on('order-delivered', ({ tx, orderId, gift }) => (gift ? this.delivered(tx, orderId) : undefined));
    events.on('email-proved', async ({ userId, email }) => {
      try {
        await this.db.transaction((tx) => this.giveTo(tx, userId, email));
      } catch (error) {
        this.deps.log.error({ err: error, userId }, 'could not give an account the gifts sent to its e-mail');
      }
    });
  }

  /**
   * A gift order was delivered, in its transaction: the recipient's mail goes out with it (an outbox),
   * and an account that has proved the recipient's e-mail holds the keys at once.
   */
  private async delivered(tx: Db, orderId: string): Promise<void> {
    const [gift] = await tx.update(gifts).set({ mailedAt: new Date() }).where(and(eq(gifts.orderId, orderId), isNull(gifts.mailedAt))).returning();
    if (!gift) return;
    const recipient = await this.deps.accounts.verifiedByEmail(gift.email, tx);
    if (recipient) await this.giveTo(tx, recipient.id, gift.email);
    const { mailContext } = this.deps;
    const link = `${mailContext.publicUrl}/gifts/${encodeURIComponent(gift.id)}?token=${await this.deps.links.sign('gift', gift.id)}`;
    await this.deps.mailer.enqueue(
      tx,
      compose(mailContext, gift.email, {
        subject: `${gift.senderName ?? 'Someone'} sent you a game on Keystore`,
        greeting: `Hi ${gift.name},`,
        paragraphs: [
          `${gift.senderName ?? 'Someone'} sent you a gift on Keystore.`,
          ...(gift.message ? [`Their message: “${gift.message}”`] : []),
          'Open your gift to see what it is and reveal its key. For your safety we never send keys by e-mail.',
        ],
        button: { label: 'Open my gift', href: link },
        after: ['With an account on this e-mail, you also find the key in your library.'],
      }),
    );
  }

  /** Gives an account the gifts sent to the e-mail it proved, and their keys. */
  private async giveTo(tx: Db, userId: string, email: string): Promise<void> {
    const given = await tx
      .update(gifts)
      .set({ recipientUserId: userId })
      .where(and(eq(gifts.email, email), isNull(gifts.recipientUserId)))
      .returning({ orderId: gifts.orderId });
    if (given.length > 0) await this.deps.library.adoptKeys(tx, given.map((gift) => gift.orderId), userId);
  }

  /** A gift as its recipient sees it, by its link: the games, the message and the keys (listed, not revealed). */
  async view(giftId: string, token: string): Promise<Gift> {
    const gift = await this.opened(giftId, token);
    const keys = await this.deps.library.listOrderKeys(gift.orderId);
    const games = new Map<string, Gift['games'][number]>();
    for (const key of keys) {
      const known = games.get(key.gameId);
      if (known) {
        known.quantity += 1;
        continue;
      }
      const game = await this.deps.catalog.game(key.gameId, { withHidden: true });
      games.set(key.gameId, { gameId: key.gameId, title: game.title, image: game.image, platform: game.platform, quantity: 1 });
    }
    return {
      _id: gift.id,
      name: gift.name,
      message: gift.message,
      from: gift.senderName,
      games: [...games.values()],
      keys: keys.map((key) => ({ purchaseId: key.purchaseId, gameId: key.gameId, title: games.get(key.gameId)!.title, revealed: key.revealed })),
      revealedAt: gift.revealedAt?.toISOString() ?? null,
    };
  }

  /** Reveals the gift's keys (or the one `keyId` names) to its link's holder; each reveal recorded, the first one noted on the gift. */
  async reveal(giftId: string, token: string, keyId: string | undefined, ip: string): Promise<Array<{ purchaseId: string; gameId: string; title: string; key: string }>> {
    const gift = await this.opened(giftId, token);
    const keys = await this.deps.library.revealOrderKeys(gift.orderId, keyId, { userId: gift.recipientUserId, ip });
    if (keys.length > 0) await this.db.update(gifts).set({ revealedAt: new Date() }).where(and(eq(gifts.id, gift.id), isNull(gifts.revealedAt)));
    const titles = new Map<string, string>();
    for (const key of keys) if (!titles.has(key.gameId)) titles.set(key.gameId, (await this.deps.catalog.game(key.gameId, { withHidden: true })).title);
    return keys.map((key) => ({ purchaseId: key.purchaseId, gameId: key.gameId, title: titles.get(key.gameId)!, key: key.key }));
  }

  /** The gifts an account sent, by order: to whom, and when they first revealed a key. */
  async sentBy(userId: string): Promise<Array<{ orderId: string; to: string; revealedAt: Date | null }>> {
    const rows = await this.db.select({ orderId: gifts.orderId, name: gifts.name, email: gifts.email, revealedAt: gifts.revealedAt }).from(gifts).where(eq(gifts.senderUserId, userId));
    return rows.map((row) => ({ orderId: row.orderId, to: `${row.name} <${row.email}>`, revealedAt: row.revealedAt }));
  }

  /** The gifts of some orders (a claim or an order page asks whether an order is one). */
  async ofOrders(orderIds: string[]): Promise<GiftRow[]> {
    if (orderIds.length === 0) return [];
    return this.db.select().from(gifts).where(inArray(gifts.orderId, orderIds));
  }

  /** Whether `token` is the link of the gift this order is (its recipient reports a bad key with it). */
  async opensOrder(orderId: string, token: string): Promise<boolean> {
    const [gift] = await this.db.select({ id: gifts.id }).from(gifts).where(eq(gifts.orderId, orderId));
    return gift !== undefined && this.deps.links.opens('gift', gift.id, token);
  }

  /** The order a gift's link opens (its claims are listed on the gift's page); NotFound for any other link. */
  async orderOf(giftId: string, token: string): Promise<string> {
    return (await this.opened(giftId, token)).orderId;
  }

  /** To whom an order was given, as its buyer's receipt names them (`Name <e-mail>`). */
  async recipientLabel(orderId: string): Promise<string | undefined> {
    const [gift] = await this.db.select({ name: gifts.name, email: gifts.email }).from(gifts).where(eq(gifts.orderId, orderId));
    return gift && `${gift.name} <${gift.email}>`;
  }

  /** Who hears about a gift order's keys (a claim on one): its recipient, by name, with the gift's page. */
  async recipientOf(orderId: string): Promise<{ email: string; username: string; orderPage: string } | undefined> {
    const [gift] = await this.db.select().from(gifts).where(eq(gifts.orderId, orderId));
    if (!gift) return undefined;
    return { email: gift.email, username: gift.name, orderPage: `${this.deps.mailContext.publicUrl}/gifts/${encodeURIComponent(gift.id)}?token=${await this.deps.links.sign('gift', gift.id)}` };
  }

  /** The gift whose link this is; NotFound for any other link, or none. */
  private async opened(giftId: string, token: string): Promise<GiftRow> {
    const [gift] = await this.db.select().from(gifts).where(eq(gifts.id, giftId));
    if (!gift || !(await this.deps.links.opens('gift', giftId, token))) throw new NotFound(m.giftNotFound);
    return gift;
  }
}
