// Data access for the ledger: entries and their lines, balances as sums, payouts. The balance of every
// entry is the database's to enforce (migration 0013's deferred constraint trigger): this file only
// writes what the service composed, and reads sums.
import { and, desc, eq, sql } from 'drizzle-orm';
import { inList, queryRows, type Db } from '../../db/client.ts';
import { newId } from '../../platform/ids.ts';
import { ledgerEmptyReleases, ledgerEntries, ledgerLines, payouts, type AccountKind, type EntryKind } from './schema.ts';

export type PayoutRow = typeof payouts.$inferSelect;

/** One line of an entry: an account and a signed amount in cents (lines of one account are added up; a zero is dropped). */
export interface Posting {
  account: string;
  amountCents: number;
}

export interface EntryHead {
  /** An id of the caller's, when the entry must be posted once per something with no column of its own (a failure fee: per reservation). */
  id?: string;
  kind: EntryKind;
  sellerId?: string | null;
  orderId?: string | null;
  lineId?: string | null;
  payoutId?: string | null;
  releaseAt?: Date | null;
  releases?: string | null;
  at?: Date;
}


/** The accounts of the ledger. */
export const accounts = {
  payments: 'payments',
  commission: 'commission',
  payouts: 'payouts',
  held: (sellerId: string) => `seller:${sellerId}:held`,
  available: (sellerId: string) => `seller:${sellerId}:available`,
} as const;

/** The kind of an account by its name, and whether its balance may go below zero. */
function accountOf(id: string): { kind: AccountKind; sellerId: string | null; mayGoNegative: boolean } {
  if (id.startsWith('seller:')) {
    const held = id.endsWith(':held');
    return { kind: held ? 'seller-held' : 'seller-available', sellerId: id.split(':')[1]!, mayGoNegative: !held };
  }
  return { kind: id as AccountKind, sellerId: null, mayGoNegative: id !== accounts.payouts };
}

/** Makes the accounts named that do not exist yet (a seller's, on its first posting). */
export async function ensureAccounts(tx: Db, ids: string[]): Promise<void> {
  const wanted = [...new Set(ids)].sort();
  if (wanted.length === 0) return;
  await tx.execute(
    sql`insert into ledger_accounts (id, kind, seller_id, may_go_negative)
        values ${sql.join(wanted.map((id) => { const account = accountOf(id); return sql`(${id}, ${account.kind}, ${account.sellerId}, ${account.mayGoNegative})`; }), sql`, `)}
        on conflict do nothing`,
  );
}

/**
 * Locks accounts (in id order) against every posting that reads a balance before it writes, so a
 * balance read after this stays true until the transaction ends. The lock a key-less UPDATE takes: the
 * foreign-key checks of postings that only add lines (a sale) do not wait on it.
 */
export async function lockAccounts(tx: Db, ids: string[]): Promise<void> {
  const wanted = [...new Set(ids)].sort();
  if (wanted.length === 0) return;
  await ensureAccounts(tx, wanted);
  await tx.execute(sql`select id from ledger_accounts where id in ${inList(wanted)} order by id for no key update`);
}

/** A posting that would break an account's rule (a balance that may not go below zero would): a bug, never a customer's error. */
export class LedgerRuleBroken extends Error {}

/**
 * Writes an entry and its lines (lines of one account added up, zeros dropped); answers its id, or
 * undefined when an entry of this kind was already posted for the same line, sale or payout (the
 * unique indexes: each posting happens once) or nothing is left to move (fewer than two lines, which
 * the database refuses anyway). An account whose balance may not go below zero is locked and checked
 * before a line takes from it.
 */
export async function postEntry(tx: Db, { id = newId(20), ...head }: EntryHead, lines: Posting[]): Promise<string | undefined> {
  const merged = new Map<string, number>();
  for (const line of lines) merged.set(line.account, (merged.get(line.account) ?? 0) + line.amountCents);
  const kept = [...merged].filter(([, amount]) => amount !== 0).map(([account, amountCents]) => ({ account, amountCents }));
  if (kept.length < 2) return undefined;
  const guarded = kept.filter((line) => line.amountCents < 0 && !accountOf(line.account).mayGoNegative);
  await lockAccounts(tx, guarded.map((line) => line.account));
  await ensureAccounts(tx, kept.map((line) => line.account).filter((account) => !guarded.some((line) => line.account === account)));
  for (const line of guarded) {
    const balance = await balanceOf(tx, line.account);
    if (balance + line.amountCents < 0) throw new LedgerRuleBroken(`${head.kind} would take ${-line.amountCents} from ${line.account}, which holds ${balance} and may not go below zero`);
  }
  const [written] = await tx
    .insert(ledgerEntries)
    .values({ id, ...head })
    .onConflictDoNothing()
    .returning({ id: ledgerEntries.id });
  if (!written) return undefined;
  await tx.insert(ledgerLines).values(kept.map((line) => ({ entryId: id, account: line.account, amountCents: line.amountCents })));
  return id;
}

/** An account's balance: the sum of its lines (true until the transaction ends once the account is locked: lockAccounts). */
export async function balanceOf(db: Db, account: string): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string | null>`sum(${ledgerLines.amountCents})` })
    .from(ledgerLines)
    .where(eq(ledgerLines.account, account));
  return Number(row?.sum ?? 0);
}

/** Held and available of some sellers (every seller asked is in the answer). */
export async function sellerBalances(db: Db, sellerIds: string[]): Promise<Map<string, { held: number; available: number }>> {
  const balances = new Map(sellerIds.map((id) => [id, { held: 0, available: 0 }]));
  if (sellerIds.length === 0) return balances;
  const wanted = sellerIds.flatMap((id) => [accounts.held(id), accounts.available(id)]);
  const rows = await queryRows<{ account: string; sum: string }>(
    db,
    sql`select account, sum(amount_cents)::text as sum from ledger_lines where account in ${inList(wanted)} group by account`,
  );
  for (const row of rows) {
    const [, sellerId, part] = row.account.split(':') as [string, string, 'held' | 'available'];
    balances.get(sellerId)![part] = Number(row.sum);
  }
  return balances;
}

/** Every account's balance. */
export function allBalances(db: Db): Promise<Array<{ account: string; balance: string }>> {
  return queryRows(db, sql`select account, sum(amount_cents)::text as balance from ledger_lines group by account order by account`);
}

/** The posted sale and commission of an order line: what a refund reverses. */
/**
 * A line's sale as the ledger holds it: its price and commission, less what claims already refunded of
 * it (one key at a time), and whether the line was refunded.
 */
export async function saleOfLine(tx: Db, lineId: string): Promise<{ sellerId: string; priceCents: number; commissionCents: number; refunded: boolean } | undefined> {
  const rows = await queryRows<{ kind: EntryKind; seller_id: string; amount: string; payments: string; commission: string }>(
    tx,
    sql`select e.kind, e.seller_id, coalesce(sum(l.amount_cents) filter (where l.account like 'seller:%'), 0)::text as amount,
          coalesce(sum(l.amount_cents) filter (where l.account = 'payments'), 0)::text as payments,
          coalesce(sum(l.amount_cents) filter (where l.account = 'commission'), 0)::text as commission
        from ledger_entries e left join ledger_lines l on l.entry_id = e.id
        where e.line_id = ${lineId} group by e.id, e.kind, e.seller_id`,
  );
  const sale = rows.find((row) => row.kind === 'sale');
  if (!sale) return undefined;
  const commission = rows.find((row) => row.kind === 'commission' || row.kind === 'failover-extra');
  const claims = rows.filter((row) => row.kind === 'claim');
  return {
    sellerId: sale.seller_id,
    priceCents: Number(sale.amount) - claims.reduce((sum, row) => sum + Number(row.payments), 0),
    commissionCents: (commission ? -Number(commission.amount) : 0) + claims.reduce((sum, row) => sum + Number(row.commission), 0),
    refunded: rows.some((row) => row.kind === 'refund'),
  };
}

/**
 * What the ledger still holds of each line's sale for its buyer (cents): the price its sale took in,
 * less what claims and a refund gave back. Lines with no sale posted (not delivered) are not in the answer.
 */
export async function salePricesLeft(db: Db, lineIds: string[]): Promise<Map<string, number>> {
  if (lineIds.length === 0) return new Map();
  const rows = await queryRows<{ line_id: string; left: string }>(
    db,
    sql`select e.line_id, (-sum(l.amount_cents))::text as left from ledger_entries e join ledger_lines l on l.entry_id = e.id
        where e.line_id in ${inList(lineIds)} and l.account = ${accounts.payments}
        group by e.line_id having bool_or(e.kind = 'sale')`,
  );
  return new Map(rows.map((row) => [row.line_id, Number(row.left)]));
}

/** Sales whose hold is over and which are neither released nor refunded, oldest first, after `after` (a sale's release time and id). */
export function salesDue(db: Db, now: Date, limit: number, after?: { at: Date; id: string }): Promise<Array<{ id: string; seller_id: string; line_id: string; net: string; release_at: Date }>> {
  return queryRows(
    db,
    sql`select s.id, s.seller_id, s.line_id, s.release_at,
          (select coalesce(sum(l.amount_cents), 0) from ledger_lines l join ledger_entries c on c.id = l.entry_id
             where c.line_id = s.line_id and c.kind in ('sale', 'commission', 'failover-extra', 'claim') and l.account = 'seller:' || s.seller_id || ':held')::text as net
        from ledger_entries s
        where s.kind = 'sale' and s.release_at <= ${now.toISOString()}::timestamptz
          and not exists (select 1 from ledger_entries r where r.releases = s.id)
          and not exists (select 1 from ledger_empty_releases z where z.sale_id = s.id)
          and not exists (select 1 from ledger_entries f where f.line_id = s.line_id and f.kind = 'refund')
          ${after ? sql`and (s.release_at, s.id) > (${new Date(after.at).toISOString()}::timestamptz, ${after.id})` : sql``}
        order by s.release_at, s.id limit ${limit}`,
  );
}

/** One page of the entries that touch a seller's accounts, newest first, with what each did to its balance. */
export async function sellerEntries(
  db: Db,
  sellerId: string,
  page: number,
  pageSize: number,
): Promise<{ total: number; items: Array<{ id: string; at: Date; kind: EntryKind; order_id: string | null; amount: string }> }> {
  const held = accounts.held(sellerId);
  const available = accounts.available(sellerId);
  const [counted] = await queryRows<{ total: number }>(
    db,
    sql`select count(distinct entry_id)::int as total from ledger_lines where account in (${held}, ${available})`,
  );
  const items = await queryRows<{ id: string; at: Date; kind: EntryKind; order_id: string | null; amount: string }>(
    db,
    sql`select e.id, e.at, e.kind, e.order_id,
          sum(case when e.kind = 'release' then case when l.account = ${available} then l.amount_cents else 0 end else l.amount_cents end)::text as amount
        from ledger_entries e join ledger_lines l on l.entry_id = e.id
        where l.account in (${held}, ${available})
        group by e.id, e.at, e.kind, e.order_id
        order by e.at desc, e.id desc limit ${pageSize} offset ${(page - 1) * pageSize}`,
  );
  return { total: counted?.total ?? 0, items: items.map((item) => ({ ...item, at: new Date(item.at) })) };
}

/** How the sales of some order lines stand in the ledger: posted, released, refunded. */
export async function saleStates(db: Db, lineIds: string[]): Promise<Map<string, { sold: boolean; released: boolean; refunded: boolean }>> {
  const states = new Map<string, { sold: boolean; released: boolean; refunded: boolean }>();
  if (lineIds.length === 0) return states;
  const rows = await queryRows<{ line_id: string; sold: boolean; released: boolean; refunded: boolean }>(
    db,
    sql`select s.line_id, true as sold,
          (exists (select 1 from ledger_entries r where r.releases = s.id) or exists (select 1 from ledger_empty_releases z where z.sale_id = s.id)) as released,
          exists (select 1 from ledger_entries f where f.line_id = s.line_id and f.kind = 'refund') as refunded
        from ledger_entries s where s.kind = 'sale' and s.line_id in ${inList(lineIds)}`,
  );
  for (const row of rows) states.set(row.line_id, row);
  return states;
}

export async function insertPayout(tx: Db, sellerId: string, amountCents: number): Promise<PayoutRow> {
  const [row] = await tx.insert(payouts).values({ id: newId(), sellerId, amountCents }).returning();
  return row!;
}

export function listPayouts(db: Db, sellerId?: string): Promise<PayoutRow[]> {
  return db
    .select()
    .from(payouts)
    .where(sellerId === undefined ? undefined : eq(payouts.sellerId, sellerId))
    .orderBy(desc(payouts.createdAt), desc(payouts.id))
    .limit(500);
}

export async function markPayoutPaid(tx: Db, id: string, reference: string): Promise<PayoutRow | undefined> {
  const [row] = await tx
    .update(payouts)
    .set({ status: 'paid', reference, paidAt: new Date() })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'pending')))
    .returning();
  return row;
}

export async function findPayout(db: Db, id: string): Promise<PayoutRow | undefined> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, id));
  return row;
}

/** Every seller (the house excepted) whose available balance is at least `minimum`. */
export function payableSellers(tx: Db, minimum: number, except: string): Promise<Array<{ seller_id: string; available: string }>> {
  return queryRows(
    tx,
    sql`select split_part(account, ':', 2) as seller_id, sum(amount_cents)::text as available
        from ledger_lines where account like 'seller:%:available' and account <> ${accounts.available(except)}
        group by account having sum(amount_cents) >= ${minimum} order by account`,
  );
}

/** Records that a sale's hold ended with nothing left held to release (once). */
export async function recordEmptyRelease(tx: Db, saleId: string): Promise<void> {
  await tx.insert(ledgerEmptyReleases).values({ saleId }).onConflictDoNothing();
}
