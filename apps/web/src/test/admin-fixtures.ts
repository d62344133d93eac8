// What the stubbed back-office API (issue 15) answers in the admin's component tests, built through
// the contract's zod schemas like every fixture (contract-fixtures.ts): one that drifts from the
// contract throws, and its test fails.
import {
  adminGameListSchema,
  adminGameSchema,
  adminOrderListSchema,
  adminOrderRowSchema,
  adminOrderSchema,
  adminStatsSchema,
  adminSupportListSchema,
  adminSupportMessageSchema,
  adminUserListSchema,
  adminUserRowSchema,
  adminUserSchema,
  syncRunSchema,
  type AdminGame,
  type AdminGameList,
  type AdminOrder,
  type AdminOrderList,
  type AdminOrderRow,
  type AdminStats,
  type AdminSupportList,
  type AdminSupportMessage,
  type AdminUser,
  type AdminUserList,
  type AdminUserRow,
  type SyncRun,
} from '@keystore/contract';
import { testHistoryEntry, testOrder, testOrderLine } from './contract-fixtures.ts';

/** The dashboard's figures for a period of three days. */
export function testAdminStats(overrides: Partial<AdminStats> = {}): AdminStats {
  return adminStatsSchema.parse({
    from: '2026-11-23',
    to: '2026-11-25',
    revenue: {
      total: 1234.5,
      currency: 'EUR',
      byDay: [
        { date: '2026-11-23', amount: 400, orders: 20 },
        { date: '2026-11-24', amount: 500, orders: 25 },
        { date: '2026-11-25', amount: 334.5, orders: 17 },
      ],
    },
    ordersByStatus: { 'Awaiting payment': 2, 'In review': 0, Paid: 62, Declined: 3, Expired: 4, Cancelled: 1, Refunded: 2, Disputed: 0 },
    topGames: [
      { gameId: 'g1', title: 'Hades', units: 30, revenue: 600 },
      { gameId: 'g2', title: 'Celeste', units: 12, revenue: 240 },
    ],
    customers: { total: 410, new: 37 },
    refunds: { count: 2, amount: 39.98 },
    undelivered: 3,
    openSupport: 5,
    today: 334.5,
    marketplace: { commissionEarned: 87.25, owedToSellers: 410.6 },
    ...overrides,
  });
}

/** A row of the orders table: a paid, delivered order of Hades. */
export function testAdminOrderRow(overrides: Partial<AdminOrderRow> = {}): AdminOrderRow {
  return adminOrderRowSchema.parse({
    _id: 'o1',
    createdAt: '2026-11-24T10:15:00Z',
    status: 'Paid',
    deliveryStatus: 'Delivered',
    amount: 19.99,
    currency: 'EUR',
    items: 'Hades x1',
    provider: 'test',
    buyer: { id: 'u1', email: 'player@example.org', username: 'keymaster' },
    ...overrides,
  });
}

/** A page of the orders table. */
export function testAdminOrderList(items: AdminOrderRow[], overrides: Partial<AdminOrderList> = {}): AdminOrderList {
  return adminOrderListSchema.parse({ items, total: items.length, page: 1, pageSize: 25, ...overrides });
}

/** A paid, delivered order as an admin sees it: one key, masked, and its timeline. */
export function testAdminOrder(overrides: Partial<AdminOrder> = {}): AdminOrder {
  return adminOrderSchema.parse({
    order: testOrder({
      status: 'Paid',
      deliveryStatus: 'Delivered',
      createdAt: '2026-11-24T10:15:00Z',
      paidAt: '2026-11-24T10:16:00Z',
      deliveredAt: '2026-11-24T10:16:30Z',
      lines: [testOrderLine({ keysDelivered: 1 })],
    }),
    buyer: { id: 'u1', email: 'player@example.org', username: 'keymaster' },
    payment: { provider: 'test', reference: 'pay_123' },
    keys: [{ gameId: 'g1', title: 'Hades', masked: '••••••••••••7Q2Z', revealed: false }],
    timeline: [
      { at: '2026-11-24T10:15:00Z', kind: 'status', from: null, to: 'Awaiting payment', actor: 'customer:u1', reason: null, requestId: '4f1c2a9e-5b7d-4c3e-9a81-2d6f0b3e7c55' },
      { at: '2026-11-24T10:16:00Z', kind: 'status', from: 'Awaiting payment', to: 'Paid', actor: 'provider:test', reason: null, requestId: 'b2e8d0c4-1f6a-4d92-8e3b-7a5c9f1d0e24' },
      { at: '2026-11-24T10:16:30Z', kind: 'delivery', from: 'Pending', to: 'Delivered', actor: 'system:delivery', reason: null },
    ],
    risk: null,
    ...overrides,
  });
}

/** A row of the customers table. */
export function testAdminUserRow(overrides: Partial<AdminUserRow> = {}): AdminUserRow {
  return adminUserRowSchema.parse({
    _id: 'u1',
    username: 'keymaster',
    email: 'player@example.org',
    role: 'customer',
    blocked: false,
    createdAt: '2026-01-01T00:00:00Z',
    orders: 1,
    totalSpent: 19.99,
    ...overrides,
  });
}

export function testAdminUserList(items: AdminUserRow[], overrides: Partial<AdminUserList> = {}): AdminUserList {
  return adminUserListSchema.parse({ items, total: items.length, page: 1, pageSize: 25, ...overrides });
}

/** A customer as an admin sees them: one order, two sign-ins. */
export function testAdminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return adminUserSchema.parse({
    ...testAdminUserRow(),
    emailVerified: true,
    membership: 'Key Newb',
    purchaseHistory: [testHistoryEntry()],
    signIns: [
      { at: '2026-11-24T09:00:00Z', ip: '203.0.113.7', device: 'Firefox on Linux', active: true },
      { at: '2026-11-01T18:30:00Z', ip: null, device: 'Safari on iPhone', active: false },
    ],
    ...overrides,
  });
}

/** A finished supplier sync. */
export function testSyncRun(overrides: Partial<SyncRun> = {}): SyncRun {
  return syncRunSchema.parse({
    id: 1,
    supplier: 'test',
    full: true,
    startedAt: '2026-11-25T03:00:00Z',
    finishedAt: '2026-11-25T03:02:00Z',
    outcome: 'succeeded',
    added: 3,
    updated: 10,
    unchanged: 400,
    skipped: 0,
    deactivated: 1,
    error: null,
    ...overrides,
  });
}

/** A game as the catalogue page lists it: shown, not featured, no override. */
export function testAdminGame(overrides: Partial<AdminGame> = {}): AdminGame {
  return adminGameSchema.parse({
    _id: 'g1',
    title: 'Hades',
    platform: 'PC',
    price: 19.99,
    supplierPrice: 18.5,
    priceOverride: null,
    stock: 12,
    hidden: false,
    featured: false,
    ...overrides,
  });
}

export function testAdminGameList(items: AdminGame[]): AdminGameList {
  return adminGameListSchema.parse({ items, total: items.length, page: 1, pageSize: 25 });
}

/** An open message of the support form. */
export function testSupportMessage(overrides: Partial<AdminSupportMessage> = {}): AdminSupportMessage {
  return adminSupportMessageSchema.parse({
    _id: 's1',
    createdAt: '2026-11-25T08:00:00Z',
    email: 'player@example.org',
    name: 'Kim',
    title: 'Where is my key?',
    message: 'I paid an hour ago.',
    status: 'open',
    reply: null,
    answeredAt: null,
    ...overrides,
  });
}

export function testSupportList(items: AdminSupportMessage[]): AdminSupportList {
  return adminSupportListSchema.parse({ items, total: items.length, page: 1, pageSize: 25 });
}
