import { isNotNull, sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, pgView, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { LEDGER_KINDS, PAYOUT_STATUSES, type PayoutStatus } from '@keystore/contract';
import { listOf, moment } from '../../db/columns.ts';

/**
 * What an entry records beyond the seller-facing kinds: a payout's bank transfer done, and the store's
 * own money added to a failed-over line moved to a dearer offer (shown to its seller as a commission in its favour).
 */
export const ENTRY_KINDS = [...LEDGER_KINDS, 'transfer', 'failover-extra', 'fraud-loss', 'dispute-fee', 'dispute-won'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** The kinds of account: the store's three, and each seller's two. */
export const ACCOUNT_KINDS = ['payments', 'commission', 'payouts', 'seller-held', 'seller-available'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/**
 * The ledger's accounts (issue 28): every line names one. Its kind, its currency, and whether its
 * balance may go below zero: `payments` (money in is negative), `commission` (a failover the store pays
 * for) and a seller's available balance (a refund after its payout) may; `payouts` and a seller's held
 * money may not, which the ledger's postings check under the account's row lock. A seller's two
 * accounts are made with its first posting.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: text('id').primaryKey(),
    kind: text('kind').$type<AccountKind>().notNull(),
    sellerId: text('seller_id'),
    currency: text('currency').notNull().default('EUR'),
    mayGoNegative: boolean('may_go_negative').notNull(),
    createdAt: moment('created_at').notNull().default(sql`now()`),
  },
  (table) => [check('ledger_accounts_kind_check', sql`${table.kind} in (${listOf(ACCOUNT_KINDS)})`), check('ledger_accounts_seller_check', sql`(${table.sellerId} is null) = (${table.kind} not like 'seller-%')`)],
);

/**
 * The double-entry ledger (issue 23). Every movement of money is an entry of two or more lines whose
 * amounts (cents, never zero) sum to zero: a deferred constraint trigger refuses a transaction that
 * leaves an entry unbalanced or with fewer than two lines, none at all included (migrations 0013 and
 * 0015), and other triggers refuse any UPDATE or DELETE (migration 0013). A
 * balance is the sum of an account's lines. Accounts: `payments` (buyers' money in, less transfers out),
 * `commission` (the store's earnings), `payouts` (owed to sellers' banks), `seller:<id>:held` and
 * `seller:<id>:available`.
 *
 * The unique indexes make each posting happen once: one sale, one commission and one refund per order
 * line, one release per sale, one entry per payout and per transfer.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: text('id').primaryKey(),
    kind: text('kind').$type<EntryKind>().notNull(),
    at: moment('at').notNull().default(sql`now()`),
    sellerId: text('seller_id'),
    orderId: text('order_id'),
    lineId: text('line_id'),
    payoutId: text('payout_id'),
    /** A sale's: when its held money becomes available (its seller's hold days at the time of the sale). */
    releaseAt: moment('release_at'),
    /** A release's: the sale it releases. */
    releases: text('releases'),
  },
  (table) => [
    // A claim's refund (one key of a line) may happen more than once per line: each is posted once by its id.
    uniqueIndex('ledger_entries_line_kind_idx').on(table.lineId, table.kind).where(sql`${table.lineId} is not null and ${table.kind} <> 'claim'`),
    uniqueIndex('ledger_entries_releases_idx').on(table.releases).where(sql`${table.releases} is not null`),
    uniqueIndex('ledger_entries_payout_kind_idx').on(table.payoutId, table.kind).where(sql`${table.payoutId} is not null`),
    index('ledger_entries_seller_at_idx').on(table.sellerId, table.at),
    index('ledger_entries_unreleased_idx').on(table.releaseAt).where(sql`${table.kind} = 'sale'`),
    check('ledger_entries_kind_check', sql`${table.kind} in (${listOf(ENTRY_KINDS)})`),
  ],
);

export const ledgerLines = pgTable(
  'ledger_lines',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    entryId: text('entry_id')
      .notNull()
      .references(() => ledgerEntries.id),
    account: text('account')
      .notNull()
      .references(() => ledgerAccounts.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (table) => [
    index('ledger_lines_entry_idx').on(table.entryId),
    index('ledger_lines_account_idx').on(table.account),
    check('ledger_lines_amount_check', sql`${table.amountCents} <> 0`),
  ],
);

/**
 * A sale whose hold ended with nothing of it left held (refunds took the seller's held money first):
 * there is nothing to release, and an entry must move money, so the release is recorded here instead.
 * A sale is released by a release entry or by a row here, never both.
 */
export const ledgerEmptyReleases = pgTable('ledger_empty_releases', {
  saleId: text('sale_id')
    .primaryKey()
    .references(() => ledgerEntries.id),
  at: moment('at').notNull().default(sql`now()`),
});

/** A payout: a seller's whole available balance, owed until the owner marks the bank transfer done. */
export const payouts = pgTable(
  'payouts',
  {
    id: text('id').primaryKey(),
    sellerId: text('seller_id').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    status: text('status').$type<PayoutStatus>().notNull().default('pending'),
    reference: text('reference'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    paidAt: moment('paid_at'),
  },
  (table) => [
    index('payouts_seller_idx').on(table.sellerId, table.createdAt),
    check('payouts_status_check', sql`${table.status} in (${listOf(PAYOUT_STATUSES)})`),
    check('payouts_amount_check', sql`${table.amountCents} > 0`),
  ],
);

/** The read model of postings other modules may read (decision 033): a seller's entries by kind and time, no amounts. A seller's score counts its refunds. */
export const sellerPostings = pgView('seller_postings').as((qb) =>
  qb.select({ sellerId: ledgerEntries.sellerId, kind: ledgerEntries.kind, at: ledgerEntries.at }).from(ledgerEntries).where(isNotNull(ledgerEntries.sellerId)),
);
