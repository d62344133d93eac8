// The ledger (issue 23): every movement of the marketplace's money as a double-entry entry, and what
// is read from it (balances, a seller's statement, payouts). Posting happens inside the caller's
// transaction, so a delivered line and its sale commit together; the database refuses an entry that
// does not balance (migration 0013), whoever wrote it.
//
//   sale        payments −price               seller held +price
//   commission  seller held −commission       commission +commission
//   failover-extra  commission −extra         seller held +extra              (a failed-over line moved to a dearer offer)
//   release     seller held −net              seller available +net           (after the hold)
//   refund      payments +price               commission −commission          seller held, then available −net
//   payout      seller available −amount      payouts +amount
//   transfer    payouts −amount               payments +amount                (the bank transfer done)
//   fee         seller available −fee         commission +fee                 (a seller failed to hand over promised keys)
//   claim       payments +price               commission −commission          seller held, then available −net (one key, after a claim)
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { centsToEuro, HOUSE_SELLER_ID, ORDER_CURRENCY, sellerMessages, type LedgerBalance, type LedgerKind, type Payout, type SellerLedgerEntry } from '@keystore/contract';
import { LOCKS, type Database, type Db } from '../../db/client.ts';
import { Conflict, NotFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { Schedule } from '../../platform/schedule.ts';
import {
  accounts,
  allBalances,
  balanceOf,
  findPayout,
  insertPayout,
  listPayouts,
  lockAccounts,
  markPayoutPaid,
  payableSellers,
  postEntry,
  recordEmptyRelease,
  saleOfLine,
  salePricesLeft,
  salesDue,
  saleStates,
  sellerBalances,
  sellerEntries,
  type PayoutRow,
} from './store.ts';
import { ledgerEntries, ledgerLines, type EntryKind } from './schema.ts';

/** A delivered order line, as the ledger posts it. All amounts in cents, for the whole line. */
export interface Sale {
  orderId: string;
  lineId: string;
  sellerId: string;
  priceCents: number;
  commissionCents: number;
}

/** Namespace of the transaction-level advisory lock under which payouts are made (one run at a time, cluster-wide). */
const PAYOUT_LOCK = 7_301_030;
const RELEASE_BATCH = 500;

export class Ledger {
  private readonly database: Database;
  private readonly log: FastifyBaseLogger | undefined;
  private release: Schedule | undefined;

  constructor(database: Database, log?: FastifyBaseLogger) {
    this.database = database;
    this.log = log;
  }

  /** Every minute (LEDGER_RELEASE_CRON), on one instance of the cluster at a time: held money whose hold is over becomes available. */
  start(schedule = '30 * * * * *'): void {
    this.release = new Schedule(
      schedule,
      'release of held sales',
      async () => {
        const run = await this.database.withAdvisoryLock(LOCKS.ledgerRelease, () => this.releaseDue());
        if (run.ran && run.value > 0) this.log?.info({ released: run.value }, 'held sales released to sellers');
      },
      this.log,
    );
    this.release.start();
  }

  async stop(): Promise<void> {
    await this.release?.stop();
  }

  /**
   * Posts a delivered line's sale and commission, once per line (a second call posts nothing), in one
   * statement with the seller's accounts made on its first sale: the delivery's transaction pays one
   * round trip per line. It only adds to the seller's held balance, so it reads and locks no balance. The hold is the seller's hold
   * days now, so a change of them applies to sales from then on.
   */
  async postSale(tx: Db, sale: Sale, at = new Date()): Promise<void> {
    // A line given away moves no money, and an entry must move some.
    if (sale.priceCents === 0 && sale.commissionCents === 0) return;
    const held = accounts.held(sale.sellerId);
    const moment = at.toISOString();
    await tx.execute(sql`
      with made as (
        insert into ledger_accounts (id, kind, seller_id, may_go_negative)
        values (${held}, 'seller-held', ${sale.sellerId}, false), (${accounts.available(sale.sellerId)}, 'seller-available', ${sale.sellerId}, true)
        on conflict do nothing
      ), sale as (
        insert into ledger_entries (id, kind, seller_id, order_id, line_id, at, release_at)
        select ${newId(20)}, 'sale', s.id, ${sale.orderId}, ${sale.lineId}, ${moment}::timestamptz, ${moment}::timestamptz + make_interval(days => s.hold_days)
        from seller_facts s where s.id = ${sale.sellerId}
        on conflict do nothing returning id
      ), sale_lines as (
        insert into ledger_lines (entry_id, account, amount_cents)
        select sale.id, v.account, v.amount from sale, (values (${accounts.payments}, ${-sale.priceCents}::bigint), (${held}, ${sale.priceCents}::bigint)) v(account, amount)
        where v.amount <> 0
      ), commission as (
        insert into ledger_entries (id, kind, seller_id, order_id, line_id, at)
        select ${newId(20)}, ${sale.commissionCents < 0 ? 'failover-extra' : 'commission'}, ${sale.sellerId}, ${sale.orderId}, ${sale.lineId}, ${moment}::timestamptz from sale where ${sale.commissionCents}::bigint <> 0
        returning id
      )
      insert into ledger_lines (entry_id, account, amount_cents)
      select commission.id, v.account, v.amount from commission, (values (${held}, ${-sale.commissionCents}::bigint), (${accounts.commission}, ${sale.commissionCents}::bigint)) v(account, amount)`);
  }

  /**
   * Reverses refunded lines' sales and commissions: the buyer's price back, the commission given up,
   * and each seller's net taken from its held balance first, then its available one (which may go
   * below zero). Nothing for a line never posted (undelivered) or already reversed. Every seller's
   * accounts are locked first, in id order, as a payout run takes them, so the two never deadlock.
   */
  async postRefunds(tx: Db, orderId: string, lineIds: string[]): Promise<void> {
    const sales = (await Promise.all(lineIds.map(async (lineId) => ({ lineId, sale: await saleOfLine(tx, lineId) })))).filter(
      (line): line is { lineId: string; sale: NonNullable<typeof line.sale> } => line.sale !== undefined && !line.sale.refunded,
    );
    await lockAccounts(tx, sales.flatMap(({ sale }) => [accounts.held(sale.sellerId), accounts.available(sale.sellerId)]));
    for (const { lineId, sale } of sales) {
      const net = sale.priceCents - sale.commissionCents;
      const held = await balanceOf(tx, accounts.held(sale.sellerId));
      const fromHeld = Math.min(net, Math.max(held, 0));
      await postEntry(tx, { kind: 'refund', sellerId: sale.sellerId, orderId, lineId }, [
        { account: accounts.payments, amountCents: sale.priceCents },
        { account: accounts.commission, amountCents: -sale.commissionCents },
        { account: accounts.held(sale.sellerId), amountCents: -fromHeld },
        { account: accounts.available(sale.sellerId), amountCents: -(net - fromHeld) },
      ]);
    }
  }

  /**
   * One key of a delivered line refunded after a claim (issue 24): its price back to the buyer, its
   * commission given up, and the seller's net taken from its held balance first, then its available one.
   * Once per claim; a later refund of the whole line reverses only what is left of it (saleOfLine).
   */
  async postClaimRefund(tx: Db, refund: { claimId: string; orderId: string; lineId: string; sellerId: string; priceCents: number; commissionCents: number }): Promise<void> {
    const net = refund.priceCents - refund.commissionCents;
    await lockAccounts(tx, [accounts.held(refund.sellerId), accounts.available(refund.sellerId)]);
    const held = await balanceOf(tx, accounts.held(refund.sellerId));
    const fromHeld = Math.min(Math.max(net, 0), Math.max(held, 0));
    await postEntry(tx, { id: `claim-${refund.claimId}`, kind: 'claim', sellerId: refund.sellerId, orderId: refund.orderId, lineId: refund.lineId }, [
      { account: accounts.payments, amountCents: refund.priceCents },
      { account: accounts.commission, amountCents: -refund.commissionCents },
      { account: accounts.held(refund.sellerId), amountCents: -fromHeld },
      { account: accounts.available(refund.sellerId), amountCents: -(net - fromHeld) },
    ]);
  }

  /**
   * A payment disputed with the card network (issue 29), which took the money back, once per order: each
   * line's keys that came back unrevealed reverse their share of its sale (the seller loses that sale, its
   * net taken from held first; the commission given up), the keys that stay revealed are the store's fraud
   * loss (their sellers keep what they earned), and the network's fee is the store's. Not a refund: a
   * seller's score does not count it.
   */
  async postChargeback(tx: Db, dispute: { orderId: string; returned: Array<{ lineId: string; sellerId: string; priceCents: number; commissionCents: number }>; keptCents: number; feeCents: number }): Promise<void> {
    const { orderId } = dispute;
    const returned = [...dispute.returned].sort((a, b) => (a.sellerId < b.sellerId ? -1 : 1));
    await lockAccounts(tx, [...new Set(returned.flatMap((line) => [accounts.held(line.sellerId), accounts.available(line.sellerId)]))].sort());
    for (const line of returned) {
      const net = line.priceCents - line.commissionCents;
      const held = await balanceOf(tx, accounts.held(line.sellerId));
      const fromHeld = Math.min(Math.max(net, 0), Math.max(held, 0));
      await postEntry(tx, { kind: 'chargeback', sellerId: line.sellerId, orderId, lineId: line.lineId }, [
        { account: accounts.payments, amountCents: line.priceCents },
        { account: accounts.commission, amountCents: -line.commissionCents },
        { account: accounts.held(line.sellerId), amountCents: -fromHeld },
        { account: accounts.available(line.sellerId), amountCents: -(net - fromHeld) },
      ]);
    }
    const storeBears = (id: string, kind: 'fraud-loss' | 'dispute-fee', cents: number) =>
      postEntry(tx, { id, kind, orderId }, [
        { account: accounts.payments, amountCents: cents },
        { account: accounts.commission, amountCents: -cents },
      ]);
    if (dispute.keptCents > 0) await storeBears(`fraud-loss-${orderId}`, 'fraud-loss', dispute.keptCents);
    if (dispute.feeCents > 0) await storeBears(`dispute-fee-${orderId}`, 'dispute-fee', dispute.feeCents);
  }

  /**
   * A dispute won (issue 29): the network gives the money and its fee back, once per order, to the store
   * (the keys that came back are back on their sellers' shelves, to be sold again).
   */
  async postDisputeWon(tx: Db, won: { orderId: string; amountCents: number }): Promise<boolean> {
    if (won.amountCents <= 0) return false;
    const posted = await postEntry(tx, { id: `dispute-won-${won.orderId}`, kind: 'dispute-won', orderId: won.orderId }, [
      { account: accounts.payments, amountCents: -won.amountCents },
      { account: accounts.commission, amountCents: won.amountCents },
    ]);
    return posted !== undefined;
  }

  /** What a dispute cost the store in the ledger: its chargeback and fee, what a won dispute gives back (issue 29). */
  async disputedCents(db: Db, orderId: string): Promise<number> {
    const [row] = await db
      .select({ cents: sql<string | null>`sum(${ledgerLines.amountCents})` })
      .from(ledgerLines)
      .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerLines.entryId))
      .where(and(eq(ledgerEntries.orderId, orderId), inArray(ledgerEntries.kind, ['chargeback', 'fraud-loss', 'dispute-fee']), eq(ledgerLines.account, accounts.payments)));
    return Number(row?.cents ?? 0);
  }

  /**
   * What a refund of these lines gives back, read from the ledger (decision 031): for a delivered line,
   * what its sale took in less what claims gave back since; a line with no sale posted moved no money
   * in the ledger, and is not in the answer (its buyer's payment for it is still whole).
   */
  salePricesLeft(db: Db, lineIds: string[]): Promise<Map<string, number>> {
    return salePricesLeft(db, lineIds);
  }

  /**
   * A seller failed to hand over keys it had promised (issue 24): it pays the commission the sale would
   * have earned, from its available balance (which may go below zero). Once per reservation.
   */
  async postFee(tx: Db, fee: { reservationId: string; sellerId: string; orderId: string; amountCents: number }): Promise<void> {
    if (fee.amountCents <= 0) return;
    await postEntry(tx, { id: `fee-${fee.reservationId}`, kind: 'fee', sellerId: fee.sellerId, orderId: fee.orderId }, [
      { account: accounts.available(fee.sellerId), amountCents: -fee.amountCents },
      { account: accounts.commission, amountCents: fee.amountCents },
    ]);
  }

  /**
   * Makes the held money of sales whose hold is over available (run every minute, once per cluster):
   * each sale's net, or what is left held when a refund took some first. Answers how many sales.
   */
  async releaseDue(now = new Date()): Promise<number> {
    let released = 0;
    let after: { at: Date; id: string } | undefined;
    for (;;) {
      const due = await salesDue(this.database.db, now, RELEASE_BATCH, after);
      for (const sale of due) {
        const posted = await this.database.db.transaction(async (tx) => {
          await lockAccounts(tx, [accounts.held(sale.seller_id), accounts.available(sale.seller_id)]);
          const held = await balanceOf(tx, accounts.held(sale.seller_id));
          const amount = Math.min(Number(sale.net), Math.max(held, 0));
          // Nothing held left to release (refunds took it first, or claims the whole sale): an entry must
          // move money, so the release is recorded without one, and the sale is never due again.
          if (amount <= 0) {
            await recordEmptyRelease(tx, sale.id);
            return true;
          }
          return postEntry(tx, { kind: 'release', sellerId: sale.seller_id, lineId: null, releases: sale.id }, [
            { account: accounts.held(sale.seller_id), amountCents: -amount },
            { account: accounts.available(sale.seller_id), amountCents: amount },
          ]);
        });
        if (posted) released += 1;
      }
      if (due.length < RELEASE_BATCH) return released;
      after = { at: due.at(-1)!.release_at, id: due.at(-1)!.id };
    }
  }

  /**
   * One payout per seller (the house excepted) whose available balance reaches `minimumCents`, for the
   * whole of it, which leaves the available balance at once. Runs one at a time over the cluster, so two
   * runs, or one run twice, never pay the same money twice. Answers the payouts made.
   */
  async runPayouts(minimumCents: number): Promise<PayoutRow[]> {
    return this.database.db.transaction(async (tx) => {
      await tx.execute(sqlLock(PAYOUT_LOCK));
      const made: PayoutRow[] = [];
      for (const candidate of await payableSellers(tx, minimumCents, HOUSE_SELLER_ID)) {
        // The balance read again under the account's lock: a claim's refund taking from it meanwhile is counted.
        await lockAccounts(tx, [accounts.available(candidate.seller_id)]);
        const seller = { ...candidate, available: String(await balanceOf(tx, accounts.available(candidate.seller_id))) };
        if (Number(seller.available) < minimumCents) continue;
        const amount = Number(seller.available);
        const payout = await insertPayout(tx, seller.seller_id, amount);
        await postEntry(tx, { kind: 'payout', sellerId: seller.seller_id, payoutId: payout.id }, [
          { account: accounts.available(seller.seller_id), amountCents: -amount },
          { account: accounts.payouts, amountCents: amount },
        ]);
        made.push(payout);
      }
      return made;
    });
  }

  /** The owner made the bank transfer of a payout. 404 for no such payout, 409 when already marked. */
  async recordTransfer(id: string, reference: string): Promise<PayoutRow> {
    return this.database.db.transaction(async (tx) => {
      const paid = await markPayoutPaid(tx, id, reference);
      if (!paid) {
        if (await findPayout(tx, id)) throw new Conflict(sellerMessages.payoutAlreadyPaid);
        throw new NotFound(sellerMessages.payoutNotFound);
      }
      await postEntry(tx, { kind: 'transfer', sellerId: paid.sellerId, payoutId: paid.id }, [
        { account: accounts.payouts, amountCents: -paid.amountCents },
        { account: accounts.payments, amountCents: paid.amountCents },
      ]);
      return paid;
    });
  }

  payouts(sellerId?: string): Promise<PayoutRow[]> {
    return listPayouts(this.database.db, sellerId);
  }

  /** Held and available of each seller asked for, in cents. */
  balances(sellerIds: string[], db: Db = this.database.db): Promise<Map<string, { held: number; available: number }>> {
    return sellerBalances(db, sellerIds);
  }

  /** Every account's balance in euro, and their total (always 0). */
  async trialBalance(): Promise<LedgerBalance> {
    const rows = await allBalances(this.database.db);
    const total = rows.reduce((sum, row) => sum + Number(row.balance), 0);
    return { accounts: rows.map((row) => ({ account: row.account, balance: centsToEuro(Number(row.balance)) })), total: centsToEuro(total), currency: ORDER_CURRENCY };
  }

  /** The sum of every account (0, or the ledger is broken) and the payouts not transferred yet, in cents: the metrics. */
  async totals(): Promise<{ totalCents: number; payoutsDueCents: number }> {
    const rows = await allBalances(this.database.db);
    const totalCents = rows.reduce((sum, row) => sum + Number(row.balance), 0);
    return { totalCents, payoutsDueCents: Number(rows.find((row) => row.account === accounts.payouts)?.balance ?? 0) };
  }

  /** The store's commission earned so far, in cents. */
  commissionEarned(): Promise<number> {
    return balanceOf(this.database.db, accounts.commission);
  }

  /** What the store owes sellers (every seller's held and available, and payouts not yet transferred), in cents. */
  async owedToSellers(): Promise<number> {
    const rows = await allBalances(this.database.db);
    return rows
      .filter((row) => row.account === accounts.payouts || (row.account.startsWith('seller:') && !row.account.startsWith(`seller:${HOUSE_SELLER_ID}:`)))
      .reduce((sum, row) => sum + Number(row.balance), 0);
  }

  async statement(sellerId: string, page: number, pageSize: number): Promise<{ items: SellerLedgerEntry[]; total: number }> {
    const { items, total } = await sellerEntries(this.database.db, sellerId, page, pageSize);
    return {
      total,
      items: items.map((item) => ({ _id: item.id, date: item.at.toISOString(), kind: sellerKind(item.kind), amount: centsToEuro(Number(item.amount)), orderId: item.order_id })),
    };
  }

  saleStates(lineIds: string[]) {
    return saleStates(this.database.db, lineIds);
  }
}

/** A payout as answered, with its seller's name. */
export function toPayout(row: PayoutRow, sellerName: string): Payout {
  return {
    _id: row.id,
    sellerId: row.sellerId,
    sellerName,
    amount: centsToEuro(row.amountCents),
    currency: ORDER_CURRENCY,
    status: row.status,
    reference: row.reference,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
  };
}

/** How a seller's statement names an entry: a transfer is its payout's, the store's failover extra a commission in its favour. */
function sellerKind(kind: EntryKind): LedgerKind {
  if (kind === 'transfer') return 'payout';
  if (kind === 'failover-extra') return 'commission';
  // The store's own entries of a dispute (they name no seller, so a statement never shows them).
  if (kind === 'fraud-loss' || kind === 'dispute-fee' || kind === 'dispute-won') return 'chargeback';
  return kind;
}

function sqlLock(key: number) {
  return sql`select pg_advisory_xact_lock(${key})`;
}
