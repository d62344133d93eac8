// Claims (issue 24): a buyer reports a revealed key within 30 days of delivery; its seller replaces it
// (from the offer's uploaded keys, or through a `provide` of a declared seller) or rejects it within a
// day; a rejection goes to the owner; a seller's silence refunds the key's price from its balance. The
// buyer hears of each step in the bell, and by mail when a key is replaced or refunded.
import type { FastifyBaseLogger } from 'fastify';
import {
  CLAIM_ANSWER_HOURS,
  CLAIM_REASON_LABELS,
  CLAIM_WINDOW_DAYS,
  claimMessages as m,
  HOUSE_SELLER_ID,
  orderMessages,
  type Claim,
  type ClaimOutcome,
  type ClaimReason,
  type ClaimState,
} from '@keystore/contract';
import type { Database, Db } from '../../db/client.ts';
import { recordAudit, type AuditActor } from '../../platform/audit.ts';
import { Conflict, NotFound } from '../../platform/errors.ts';
import type { StoreEventBus } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { compose, type MailContext } from '../../platform/mail/layout.ts';
import type { Mailer } from '../../platform/mailer.ts';
import type { LibraryService } from '../library/ports.ts';
import type { NotificationsService } from '../notifications/ports.ts';
import { KeyAlreadyRefunded, type OrderRefunds, type OrdersService } from '../orders/ports.ts';
import type { GiftsService } from '../gifts/ports.ts';
import type { OffersService } from '../offers/ports.ts';
import type { SellerRow, SellersService } from '../sellers/ports.ts';
import type { Accounts } from '../users/ports.ts';
import { claimById, claimsDue, hasDeclinedClaim, claimsInState, claimsOfOrder, claimsOfSeller, claimsOfUser, insertClaim, settleClaim, type ClaimView } from './store.ts';

export interface ClaimsDeps {
  database: Database;
  library: LibraryService;
  refunds: OrderRefunds;
  /** Where a replacement key comes from, and whose offer a line's keys came from (decision 031). */
  offers: OffersService;
  sellers: SellersService;
  notifications: NotificationsService;
  accounts: Accounts;
  mailer: Mailer;
  mailContext: MailContext;
  events: StoreEventBus;
  log: FastifyBaseLogger;
  /** A guest's order link, and who gets an order's mails (issue 29: a guest claims by its order's link). */
  orders: Pick<OrdersService, 'opensByLink' | 'recipientOf'>;
  /** A gift's link, and its recipient (issue 29: a gift's recipient claims by the gift's link, and hears of it). */
  gifts: Pick<GiftsService, 'opensOrder' | 'recipientOf' | 'orderOf' | 'ofOrders'>;
}

/** Who reports a key: the signed-in customer, or whoever holds the link of the key's order (a guest, a gift's recipient). */
export type Claimant = { userId: string } | { token: string };

const DAY_MS = 24 * 3_600_000;
const DUE_BATCH = 50;

export class ClaimsService {
  private readonly deps: ClaimsDeps;

  constructor(deps: ClaimsDeps) {
    this.deps = deps;
  }

  private get db() {
    return this.deps.database.db;
  }

  // --- The buyer -----------------------------------------------------------------------------------

  /** Opens a claim on one of the buyer's keys: revealed, within 30 days of delivery, one open claim at a time. */
  async open(claimant: Claimant, keyId: string, request: { reason: ClaimReason; message: string }, now = new Date()): Promise<Claim> {
    const key = await this.deps.library.claimableKey(this.db, keyId, await this.ownerOf(claimant, keyId));
    if (!key || key.voidedAt) throw new NotFound(orderMessages.keyNotFound);
    if (now.getTime() - new Date(key.deliveredAt).getTime() > CLAIM_WINDOW_DAYS * DAY_MS) throw new Conflict(m.tooLate);
    if (!key.revealed) throw new Conflict(m.notRevealed);
    if (await hasDeclinedClaim(this.db, keyId)) throw new Conflict(m.alreadyDeclined);
    const id = newId();
    const sellerId = await this.deps.offers.sellerOfLine(key.lineId);
    const written = await insertClaim(this.db, {
      id,
      keyId,
      orderId: key.orderId,
      lineId: key.lineId,
      // A guest's claim is its key's owner's: none until the order joins an account.
      userId: 'userId' in claimant ? claimant.userId : key.userId,
      sellerId,
      gameId: key.gameId,
      masked: sellerId === HOUSE_SELLER_ID ? null : ((await this.deps.offers.maskedKey(key.lineId, key.serialHash)) ?? null),
      reason: request.reason,
      message: request.message,
      // The house's own keys go to the owner at once: no seller is there to answer.
      state: sellerId === HOUSE_SELLER_ID ? 'rejected' : 'open',
      dueAt: new Date(now.getTime() + CLAIM_ANSWER_HOURS * 3_600_000),
    });
    if (!written) throw new Conflict(m.alreadyOpen);
    const claim = (await claimById(this.db, id))!;
    await this.tellBuyer(claim, 'Problem reported', `We told ${claim.sellerName} about your key for ${claim.title}; they have ${CLAIM_ANSWER_HOURS} hours to replace it, or we step in.`);
    await this.tellSeller(claim);
    return toClaim(claim);
  }

  async ofUser(userId: string): Promise<Claim[]> {
    return (await claimsOfUser(this.db, userId)).map((claim) => toClaim(claim));
  }

  /** A gift's claims, for whoever holds its link (the gift's page); anyone else: NotFound. */
  async ofGift(giftId: string, token: string): Promise<Claim[]> {
    return (await claimsOfOrder(this.db, await this.deps.gifts.orderOf(giftId, token))).map((claim) => toClaim(claim));
  }

  /** An order's claims, for whoever holds its link (the order page of a guest); anyone else: NotFound. */
  async ofOrder(orderId: string, token: string): Promise<Claim[]> {
    if (!(await this.deps.orders.opensByLink(orderId, { token }))) throw new NotFound(orderMessages.orderNotFound);
    return (await claimsOfOrder(this.db, orderId)).map((claim) => toClaim(claim));
  }

  /** Whose key a claimant may report: the customer's own, or one of the order whose link it holds. */
  private async ownerOf(claimant: Claimant, keyId: string): Promise<{ userId: string } | { orderId: string }> {
    if ('userId' in claimant) return claimant;
    const orderId = await this.deps.library.orderOfKey(keyId);
    if (orderId && (await this.opensKeysOf(orderId, claimant.token))) return { orderId };
    throw new NotFound(orderMessages.keyNotFound);
  }

  /** A gift's keys are reported with the gift's link (its recipient's), any other order's with the order's (its guest buyer's). */
  private async opensKeysOf(orderId: string, token: string): Promise<boolean> {
    const [gift] = await this.deps.gifts.ofOrders([orderId]);
    return gift ? this.deps.gifts.opensOrder(orderId, token) : this.deps.orders.opensByLink(orderId, { token });
  }

  // --- The seller ----------------------------------------------------------------------------------

  async ofSeller(seller: SellerRow): Promise<Claim[]> {
    return (await claimsOfSeller(this.db, seller.id)).map((claim) => toClaim(claim, { masked: true }));
  }

  private async sellerClaim(seller: SellerRow, id: string): Promise<ClaimView> {
    const claim = await claimById(this.db, id);
    if (!claim || claim.sellerId !== seller.id) throw new NotFound(m.claimNotFound);
    if (claim.state !== 'open') throw new Conflict(m.decided);
    return claim;
  }

  /** The seller replaces the key: from its offer's uploaded keys, or asked of its endpoint (declared stock). */
  async replaceBySeller(seller: SellerRow, id: string): Promise<Claim> {
    return this.owned(id, async () => {
      const claim = await this.sellerClaim(seller, id);
      return this.replace(claim, ['open'], `seller:${seller.id}`, null);
    });
  }

  rejectBySeller(seller: SellerRow, id: string, message: string): Promise<Claim> {
    return this.owned(id, () => this.reject(seller, id, message));
  }

  private async reject(seller: SellerRow, id: string, message: string): Promise<Claim> {
    const claim = await this.sellerClaim(seller, id);
    if (!(await settleClaim(this.db, claim.id, ['open'], 'rejected', { sellerMessage: message }))) throw new Conflict(m.decided);
    const after = (await claimById(this.db, claim.id))!;
    await this.tellBuyer(after, 'Claim under review', `${after.sellerName} disputes your report on ${after.title}. Keystore will look at it and decide.`);
    return toClaim(after, { masked: true });
  }

  // --- The owner -----------------------------------------------------------------------------------

  async list(state: ClaimState | undefined): Promise<Claim[]> {
    return (await claimsInState(this.db, state)).map((claim) => toClaim(claim, { masked: true }));
  }

  /** The owner decides an open or rejected claim: replace, refund, or reject; recorded in the audit log. */
  decide(id: string, decision: { outcome: ClaimOutcome; note: string }, actor: AuditActor): Promise<Claim> {
    return this.owned(id, () => this.decideOwned(id, decision, actor));
  }

  private async decideOwned(id: string, decision: { outcome: ClaimOutcome; note: string }, actor: AuditActor): Promise<Claim> {
    const claim = await claimById(this.db, id);
    if (!claim) throw new NotFound(m.claimNotFound);
    if (claim.state !== 'open' && claim.state !== 'rejected') throw new Conflict(m.decided);
    const by = `admin:${actor.id}`;
    let decided: Claim;
    if (decision.outcome === 'replace') decided = await this.replace(claim, ['open', 'rejected'], by, decision.note || null);
    else if (decision.outcome === 'refund') decided = await this.refund(claim, ['open', 'rejected'], by, decision.note || 'Keystore refunded the key after looking at your report.');
    else {
      if (!(await settleClaim(this.db, claim.id, ['open', 'rejected'], 'declined', { note: decision.note || null, decidedBy: by }))) throw new Conflict(m.decided);
      const after = (await claimById(this.db, claim.id))!;
      await this.tellBuyer(after, 'Claim declined', `We looked at your report on ${after.title} and could not confirm a problem with the key.${decision.note ? ` ${decision.note}` : ''}`);
      decided = toClaim(after, { masked: true });
    }
    await recordAudit(this.db, { actor, action: 'claim.decide', target: { type: 'claim', id: claim.id }, before: { state: claim.state }, after: { state: decided.state, outcome: decision.outcome }, reason: decision.note || null });
    return decided;
  }

  // --- The clock -------------------------------------------------------------------------------------

  /** Refunds the open claims whose seller did not answer within a day (any instance: each claim moves once). */
  async refundUnanswered(now = new Date()): Promise<number> {
    let refunded = 0;
    for (const { id } of await claimsDue(this.db, now, DUE_BATCH)) {
      const release = await this.deps.database.own(`claim:${id}`);
      // The seller or the owner is answering it right now: their answer decides, or the next run does.
      if (!release) continue;
      try {
        const claim = await claimById(this.db, id);
        if (!claim || claim.state !== 'open') continue;
        await this.refund(claim, ['open'], 'system:claims', `${claim.sellerName} did not answer your report within ${CLAIM_ANSWER_HOURS} hours, so your money for the key goes back.`);
        refunded += 1;
      } catch (error) {
        this.deps.log.error({ err: error, claimId: id }, 'refund of an unanswered claim failed; the next run retries');
      } finally {
        void release();
      }
    }
    return refunded;
  }

  /**
   * Runs one answer to a claim at a time, on any instance (an advisory lock that dies with its process):
   * a seller's replacement, which may wait on its endpoint, and the day's-end refund cannot both happen.
   */
  private async owned<T>(id: string, work: () => Promise<T>): Promise<T> {
    const release = await this.deps.database.own(`claim:${id}`);
    if (!release) throw new Conflict(m.busy);
    try {
      return await work();
    } finally {
      void release();
    }
  }

  // --- Outcomes --------------------------------------------------------------------------------------

  /**
   * A new key in the purchase's place: one of the offer's uploaded keys, or one its declared seller hands
   * over for a new reservation. The old serial is kept on the claim; the buyer's library shows the new
   * key at once, and a mail links to it (never carrying it).
   */
  private async replace(claim: ClaimView, from: ClaimState[], by: string, note: string | null): Promise<Claim> {
    const { library } = this.deps;
    if (claim.sellerId === HOUSE_SELLER_ID) throw new Conflict(m.noReplacement);
    const replaced = await this.deps.offers.replaceKey(claim, async (tx, serial) => {
      const old = await library.replaceSerial(tx, claim.keyId, serial);
      if (!old) throw new Conflict(m.decided);
      if (!(await settleClaim(tx, claim.id, from, 'replaced', { replacedSerialSealed: old, decidedBy: by, note }))) throw new Conflict(m.decided);
    });
    if (!replaced) throw new Conflict(m.noReplacement);
    const after = (await claimById(this.db, claim.id))!;
    await this.tellBuyer(after, 'Key replaced', `Your key for ${after.title} was replaced: the new one is in your library.`, true);
    return toClaim(after, { masked: true });
  }

  private async refund(claim: ClaimView, from: ClaimState[], by: string, reason: string): Promise<Claim> {
    try {
      await this.deps.refunds.refundClaimedKey({ id: claim.id, orderId: claim.orderId, lineId: claim.lineId, keyId: claim.keyId }, reason, async (tx: Db) => {
        if (!(await settleClaim(tx, claim.id, from, 'refunded', { decidedBy: by, note: reason }))) throw new Conflict(m.decided);
      });
    } catch (error) {
      if (!(error instanceof KeyAlreadyRefunded)) throw error;
      // The key's money went back with its order or line: the claim ends so, with nothing more refunded.
      await settleClaim(this.db, claim.id, from, 'refunded', { decidedBy: by, note: 'Refunded with the whole order.' });
      return toClaim((await claimById(this.db, claim.id))!, { masked: true });
    }
    const after = (await claimById(this.db, claim.id))!;
    await this.tellBuyer(after, 'Key refunded', `Your money for the key to ${after.title} goes back: ${reason}`);
    return toClaim(after, { masked: true });
  }


  // --- Telling people --------------------------------------------------------------------------------

  private async tellBuyer(claim: ClaimView, title: string, text: string, mail = false): Promise<void> {
    const { notifications, mailer, mailContext, log } = this.deps;
    try {
      if (claim.userId) await notifications.publish({ userId: claim.userId, kind: 'claim', title, text, link: `/library?order=${claim.orderId}` });
      // A guest has no notifications: it hears by mail, with its order's link.
      if (!mail && claim.userId) return;
      // A gift's claim is its recipient's to hear of, with the gift's page; any other, the order's buyer.
      const buyer = (await this.deps.gifts.recipientOf(claim.orderId)) ?? (await this.deps.orders.recipientOf(claim.orderId));
      if (!buyer) return;
      const where = buyer.orderPage ? 'on your order page' : 'in your library';
      await this.db.transaction((tx) =>
        mailer.enqueue(
          tx,
          compose(mailContext, buyer.email, {
            subject: mail ? `Your Keystore key for ${claim.title} was replaced` : `Your Keystore order: ${title.toLowerCase()}`,
            greeting: `Hi ${buyer.username ?? 'there'},`,
            paragraphs: [text, `For your safety we never send keys by e-mail: reveal it ${where}.`],
            button: { label: buyer.orderPage ? 'Open my order' : 'Open my library', href: buyer.orderPage ?? `${mailContext.publicUrl}/library?order=${encodeURIComponent(claim.orderId)}` },
            after: [],
          }),
        ),
      );
      mailer.flush();
    } catch (error) {
      log.error({ err: error, claimId: claim.id }, 'could not tell a buyer about their claim');
    }
  }

  private async tellSeller(claim: ClaimView): Promise<void> {
    const sellerUser = (await this.deps.sellers.find(claim.sellerId))?.userId;
    if (!sellerUser) return;
    await this.deps.notifications
      .publish({
        userId: sellerUser,
        kind: 'claim',
        title: 'A buyer reported a key',
        text: `${CLAIM_REASON_LABELS[claim.reason]}: a key of ${claim.title}. Replace it or answer within ${CLAIM_ANSWER_HOURS} hours, or its price is refunded from your balance.`,
        link: '/seller/claims',
      })
      .catch((error: unknown) => this.deps.log.error({ err: error, claimId: claim.id }, 'could not tell a seller about a claim'));
  }
}

function toClaim(claim: ClaimView, options: { masked?: boolean } = {}): Claim {
  return {
    _id: claim.id,
    purchaseId: claim.keyId,
    orderId: claim.orderId,
    gameId: claim.gameId,
    title: claim.title,
    seller: claim.sellerName,
    reason: claim.reason,
    message: claim.message,
    state: claim.state,
    sellerMessage: claim.sellerMessage,
    note: claim.note,
    ...(options.masked && claim.masked ? { maskedKey: claim.masked } : {}),
    createdAt: new Date(claim.createdAt).toISOString(),
    dueAt: new Date(claim.dueAt).toISOString(),
    decidedAt: claim.decidedAt ? new Date(claim.decidedAt).toISOString() : null,
  };
}
