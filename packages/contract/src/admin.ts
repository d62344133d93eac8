// The back office's API (issue 15): /api/admin/*, for the admin role only. Requests and answers as zod
// schemas; the limits and texts they use are zod-free, in admin-rules.ts.
import { z } from 'zod';
import { DELIVERY_STATUSES, MAX_SEARCH_LENGTH, MEMBERSHIP_TIERS, ORDER_CURRENCY, ORDER_STATUSES, PAYMENT_PROVIDERS, ROLES, type OrderStatus } from './constants.ts';
import {
  ADMIN_MAX_PAGE_SIZE,
  ADMIN_PAGE_SIZE,
  ADMIN_REASON_MAX,
  AUDIT_ACTIONS,
  adminMessages as m,
  GUEST_LIMIT_MAX,
  MARKUP_PERCENT_MAX,
  MARKUP_PERCENT_MIN,
  SUPPORT_REPLY_MAX,
  SUPPORT_STATUSES,
} from './admin-rules.ts';
import { idField, safeText } from './fields.ts';
import { purchaseHistoryEntrySchema } from './accounts.ts';
import { orderSchema } from './orders.ts';
import { orderRiskSchema } from './risk.ts';
import { sellerCommissionSettingsSchema } from './sellers.ts';

/** A real calendar day (2026-02-30 is refused here, not by the database). */
const day = safeText(m.dateInvalid)
  .regex(/^\d{4}-\d{2}-\d{2}$/, m.dateInvalid)
  .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), m.dateInvalid);
const search = safeText().trim().max(MAX_SEARCH_LENGTH).optional();
const page = z.coerce.number().int().min(1).max(10_000).default(1);
const pageSize = z.coerce.number().int().min(1).max(ADMIN_MAX_PAGE_SIZE).default(ADMIN_PAGE_SIZE);
/** A page of a back-office table. */
const pageOf = <Item extends z.ZodType>(item: Item, id: string) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }).meta({ id });

// --- Dashboard ---------------------------------------------------------------------------------

/** GET /api/admin/stats: a period of whole days, UTC (default: the last 30 days, today included). */
export const adminStatsQuerySchema = z.object({ from: day.optional(), to: day.optional() });
export type AdminStatsQuery = z.input<typeof adminStatsQuerySchema>;

export const adminStatsSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    revenue: z.object({
      /** Euro, paid orders not refunded, by payment day. */
      total: z.number(),
      currency: z.literal(ORDER_CURRENCY),
      byDay: z.array(z.object({ date: z.string(), amount: z.number(), orders: z.number().int() })),
    }),
    /** Orders placed in the period, by status (every status present, 0 where none). */
    // An object of every status rather than a record: the OpenAPI then names each property it requires.
    ordersByStatus: z.object(Object.fromEntries(ORDER_STATUSES.map((status) => [status, z.number().int()])) as { [S in OrderStatus]: z.ZodNumber }),
    topGames: z.array(z.object({ gameId: z.string(), title: z.string(), units: z.number().int(), revenue: z.number() })),
    customers: z.object({ total: z.number().int(), new: z.number().int() }),
    refunds: z.object({ count: z.number().int(), amount: z.number() }),
    /** Paid orders whose keys are not all delivered, now. */
    undelivered: z.number().int(),
    /** Support messages not answered yet, now. */
    openSupport: z.number().int(),
    /** Revenue of today (UTC), whatever the period. */
    today: z.number(),
    /** The marketplace now (issue 23): the store's commission earned so far, and what it owes sellers (held, available, and payouts not yet transferred). */
    marketplace: z.object({ commissionEarned: z.number(), owedToSellers: z.number() }),
  })
  .meta({ id: 'AdminStats' });
export type AdminStats = z.infer<typeof adminStatsSchema>;

// --- Orders ------------------------------------------------------------------------------------

/** GET /api/admin/orders and /api/admin/orders.csv. `q`: an order id, a buyer's e-mail or username, or a game's title. */
export const adminOrdersQuerySchema = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  deliveryStatus: z.enum(DELIVERY_STATUSES).optional(),
  q: search,
  from: day.optional(),
  to: day.optional(),
  page,
  pageSize,
});
export type AdminOrdersQuery = z.input<typeof adminOrdersQuerySchema>;

const buyerSchema = z.object({ id: z.string().nullable(), email: z.string().nullable(), username: z.string().nullable() }).meta({ id: 'AdminBuyer' });

export const adminOrderRowSchema = z
  .object({
    _id: z.string(),
    createdAt: z.string(),
    status: z.enum(ORDER_STATUSES),
    deliveryStatus: z.enum(DELIVERY_STATUSES),
    amount: z.number(),
    currency: z.literal(ORDER_CURRENCY),
    items: z.string(),
    provider: z.enum(PAYMENT_PROVIDERS),
    buyer: buyerSchema,
  })
  .meta({ id: 'AdminOrderRow' });
export type AdminOrderRow = z.infer<typeof adminOrderRowSchema>;
export const adminOrderListSchema = pageOf(adminOrderRowSchema, 'AdminOrderList');
export type AdminOrderList = z.infer<typeof adminOrderListSchema>;

/** One move of the order's timeline (the order_events of decision 019). */
export const orderEventSchema = z
  .object({
    at: z.string(),
    /**
     * `action`: an admin's action that moves no state (the receipt sent again, a delivery retried); `to` says which.
     * `seller`: a declared-stock seller's reservation moving, or a call to its endpoint (issue 24).
     */
    kind: z.enum(['status', 'delivery', 'action', 'seller']),
    from: z.string().nullable(),
    to: z.string(),
    /** `customer:<id>`, `admin:<id>`, `provider:<name>` or `system:<job>`. */
    actor: z.string(),
    reason: z.string().nullable(),
    /** The request that caused the step (its `x-request-id`, to find in the logs); absent for a job's. */
    requestId: z.string().optional(),
  })
  .meta({ id: 'OrderEvent' });
export type OrderEvent = z.infer<typeof orderEventSchema>;

export const adminOrderSchema = z
  .object({
    order: orderSchema,
    buyer: buyerSchema,
    payment: z.object({ provider: z.enum(PAYMENT_PROVIDERS), reference: z.string().nullable() }),
    /** The keys delivered, masked: an admin never sees a whole key. */
    keys: z.array(z.object({ gameId: z.string(), title: z.string(), masked: z.string(), revealed: z.boolean() })),
    timeline: z.array(orderEventSchema),
    /** The risk desk's assessment, from the order's payment on (issue 29). */
    risk: orderRiskSchema.nullable(),
  })
  .meta({ id: 'AdminOrder' });
export type AdminOrder = z.infer<typeof adminOrderSchema>;

export const adminOrderIdParamsSchema = z.object({ id: idField(m.orderNotFound) });

/** The body of an order action: why (recorded in the timeline and the audit log). No body at all is no reason (Fastify hands it in as null). */
export const adminActionRequestSchema = z
  .object({ reason: safeText().trim().max(ADMIN_REASON_MAX, m.reasonTooLong).optional() })
  .nullish()
  .transform((body) => body ?? {});
export type AdminActionRequest = z.input<typeof adminActionRequestSchema>;

// --- Customers ---------------------------------------------------------------------------------

export const adminUsersQuerySchema = z.object({ q: search, page, pageSize });
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;

export const adminUserRowSchema = z
  .object({
    _id: z.string(),
    username: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    blocked: z.boolean(),
    createdAt: z.string(),
    orders: z.number().int(),
    totalSpent: z.number(),
  })
  .meta({ id: 'AdminUserRow' });
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;
export const adminUserListSchema = pageOf(adminUserRowSchema, 'AdminUserList');
export type AdminUserList = z.infer<typeof adminUserListSchema>;

export const adminUserSchema = adminUserRowSchema
  .extend({
    emailVerified: z.boolean(),
    membership: z.enum(MEMBERSHIP_TIERS.map((tier) => tier.name) as [string, ...string[]]),
    purchaseHistory: z.array(purchaseHistoryEntrySchema),
    /** Sign-ins (sessions), newest first: when, from where, with what. */
    signIns: z.array(z.object({ at: z.string(), ip: z.string().nullable(), device: z.string(), active: z.boolean() })),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserIdParamsSchema = z.object({ id: idField(m.userNotFound) });
export const adminUserPatchSchema = z.object({ role: z.enum(ROLES).optional(), blocked: z.boolean().optional() });
export type AdminUserPatch = z.input<typeof adminUserPatchSchema>;

// --- Catalogue ---------------------------------------------------------------------------------

export const syncRunSchema = z
  .object({
    id: z.number().int(),
    supplier: z.string(),
    full: z.boolean(),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    outcome: z.enum(['running', 'succeeded', 'failed']),
    added: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    skipped: z.number().int(),
    deactivated: z.number().int(),
    error: z.string().nullable(),
  })
  .meta({ id: 'SyncRun' });
export type SyncRun = z.infer<typeof syncRunSchema>;
export const syncRunListSchema = z.array(syncRunSchema).meta({ id: 'SyncRunList' });

export const adminGamesQuerySchema = z.object({ q: search, page, pageSize });
export const adminGameSchema = z
  .object({
    _id: z.string(),
    title: z.string(),
    platform: z.string(),
    /** What the store charges now (the override when set). */
    price: z.number(),
    supplierPrice: z.number(),
    priceOverride: z.number().nullable(),
    stock: z.number().int(),
    hidden: z.boolean(),
    featured: z.boolean(),
  })
  .meta({ id: 'AdminGame' });
export type AdminGame = z.infer<typeof adminGameSchema>;
export const adminGameListSchema = pageOf(adminGameSchema, 'AdminGameList');
export type AdminGameList = z.infer<typeof adminGameListSchema>;

export const adminGameIdParamsSchema = z.object({ id: idField(m.gameNotFound) });
export const adminGamePatchSchema = z.object({
  hidden: z.boolean().optional(),
  featured: z.boolean().optional(),
  /** Euro; null removes the override. */
  priceOverride: z.number({ error: m.priceOverridePositive }).positive(m.priceOverridePositive).max(100_000).nullable().optional(),
});
export type AdminGamePatch = z.input<typeof adminGamePatchSchema>;

export const adminSettingsSchema = z
  .object({
    markupPercent: z.number(),
    /** The commission every seller pays unless the owner set one for it: a percent of the net price plus a fixed euro amount. */
    sellerCommissionPercent: z.number(),
    sellerCommissionFixed: z.number(),
    /** Below this score a seller with 20 deliveries in 90 days leaves the store (issue 24). */
    sellerScoreFloor: z.number().int(),
    /** What a guest (no account) may buy (issue 29): euro per order, copies of one title per order, orders per e-mail in 24 hours. */
    guestMaxOrder: z.number(),
    guestMaxCopies: z.number().int(),
    guestOrdersPerDay: z.number().int(),
    /** Whether admins, and sellers, must have a second factor (issue 30): one without is asked to set it up at sign-in. */
    secondFactorForAdmins: z.boolean(),
    secondFactorForSellers: z.boolean(),
  })
  .meta({ id: 'AdminSettings' });
export type AdminSettings = z.infer<typeof adminSettingsSchema>;
export const adminSettingsPatchSchema = z.object({
  markupPercent: z.number({ error: m.markupRange }).min(MARKUP_PERCENT_MIN, m.markupRange).max(MARKUP_PERCENT_MAX, m.markupRange).optional(),
  ...sellerCommissionSettingsSchema,
  guestMaxOrder: z.number({ error: m.guestLimitRange }).min(0, m.guestLimitRange).max(GUEST_LIMIT_MAX.maxOrderEuro, m.guestLimitRange).optional(),
  guestMaxCopies: z.number({ error: m.guestLimitRange }).int(m.guestLimitRange).min(0, m.guestLimitRange).max(GUEST_LIMIT_MAX.maxCopies, m.guestLimitRange).optional(),
  guestOrdersPerDay: z.number({ error: m.guestLimitRange }).int(m.guestLimitRange).min(0, m.guestLimitRange).max(GUEST_LIMIT_MAX.ordersPerDay, m.guestLimitRange).optional(),
  secondFactorForAdmins: z.boolean().optional(),
  secondFactorForSellers: z.boolean().optional(),
});
export type AdminSettingsPatch = z.input<typeof adminSettingsPatchSchema>;

// --- Support -----------------------------------------------------------------------------------

export const adminSupportQuerySchema = z.object({ status: z.enum(SUPPORT_STATUSES).optional(), page, pageSize });
export const adminSupportMessageSchema = z
  .object({
    _id: z.string(),
    createdAt: z.string(),
    email: z.string(),
    name: z.string(),
    title: z.string(),
    message: z.string(),
    status: z.enum(SUPPORT_STATUSES),
    reply: z.string().nullable(),
    answeredAt: z.string().nullable(),
  })
  .meta({ id: 'AdminSupportMessage' });
export type AdminSupportMessage = z.infer<typeof adminSupportMessageSchema>;
export const adminSupportListSchema = pageOf(adminSupportMessageSchema, 'AdminSupportList');
export type AdminSupportList = z.infer<typeof adminSupportListSchema>;
export const adminSupportIdParamsSchema = z.object({ id: idField(m.supportMessageNotFound) });
export const adminSupportReplySchema = z.object({
  reply: safeText(m.replyRequired).trim().min(1, m.replyRequired).max(SUPPORT_REPLY_MAX, m.replyTooLong),
});
export type AdminSupportReply = z.input<typeof adminSupportReplySchema>;

// --- Audit log ---------------------------------------------------------------------------------

export const adminAuditQuerySchema = z.object({ page, pageSize });
export const auditEntrySchema = z
  .object({
    id: z.number().int(),
    at: z.string(),
    actor: z.object({ id: z.string(), email: z.string() }),
    action: z.enum(AUDIT_ACTIONS),
    target: z.object({ type: z.string(), id: z.string() }),
    // Any JSON value, null where it does not apply (`unknown` holds null: a nullable unknown is an illogical anyOf in the OpenAPI).
    before: z.unknown(),
    after: z.unknown(),
    reason: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditListSchema = pageOf(auditEntrySchema, 'AuditList');
export type AuditList = z.infer<typeof auditListSchema>;
