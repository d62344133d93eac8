import { sql } from 'drizzle-orm';
import { bigint, boolean, check, customType, index, inet, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { DELIVERY_STATUSES, ORDER_STATUSES, type DeliveryStatus, type OrderStatus, type PaymentProviderName, type Role, type SystemRequirements } from '@keystore/contract';

/** `'a', 'b'`: a list of known values for a CHECK constraint. */
const listOf = (values: readonly string[]) => sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', '));

/** The catalogue: one row per supplier product. Money is held in euro cents. */
export const games = pgTable(
  'games',
  {
    id: text('id').primaryKey(),
    supplier: text('supplier').notNull(),
    supplierProductId: text('supplier_product_id').notNull(),
    title: text('title').notNull(),
    image: text('image'),
    coverImage: text('cover_image'),
    platform: text('platform').notNull(),
    type: text('type').notNull(),
    genres: text('genres').array().notNull(),
    region: text('region').notNull(),
    languages: text('languages').array().notNull(),
    pegi: integer('pegi').notNull(),
    description: text('description'),
    systemRequirements: jsonb('system_requirements').$type<SystemRequirements>(),
    supplierPriceCents: integer('supplier_price_cents').notNull(),
    priceCents: integer('price_cents').notNull(),
    originalPriceCents: integer('original_price_cents'),
    /** What the supplier says it has: only a sync writes it (and a delivery, which bought keys from it). */
    supplierStock: integer('supplier_stock').notNull(),
    /** Keys our open orders hold (awaiting payment, or paid and not yet delivered); a sync never touches it. */
    reserved: integer('reserved').notNull().default(0),
    /** What can still be sold: the supplier's quantity less our reservations, never below zero (decision 013). */
    stock: integer('stock').notNull().generatedAlwaysAs(sql`greatest(supplier_stock - reserved, 0)`),
    popularity: integer('popularity').notNull().default(0),
    releaseDate: text('release_date'),
    /** Release date when known, else when we first listed it: what "Newest" sorts by. */
    releasedAt: timestamp('released_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** False once the product has left the supplier's feed; it stays listed as out of stock. */
    active: boolean('active').notNull().default(true),
    /** The owner's choices (back office), which no sync touches: a hidden game is out of the store, a featured one leads the home carousel. */
    hidden: boolean('hidden').notNull().default(false),
    featured: boolean('featured').notNull().default(false),
    /** A price the owner set by hand; while set, the sync's price is ignored. */
    priceOverrideCents: integer('price_override_cents'),
    /** Hash of everything the feed said about the product, so an unchanged product is not rewritten. */
    feedHash: text('feed_hash').notNull(),
    supplierUpdatedAt: timestamp('supplier_updated_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`now()`),
  },
  (table) => [
    uniqueIndex('games_supplier_product_idx').on(table.supplier, table.supplierProductId),
    index('games_updated_at_idx').on(table.updatedAt),
    check('games_supplier_stock_check', sql`${table.supplierStock} >= 0`),
    check('games_reserved_check', sql`${table.reserved} >= 0`),
    check('games_price_override_check', sql`${table.priceOverrideCents} is null or ${table.priceOverrideCents} > 0`),
  ],
);

/** One row per supplier sync: when it ran, what it changed, and how it ended. */
export const syncRuns = pgTable('sync_runs', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  supplier: text('supplier').notNull(),
  full: boolean('full').notNull(),
  since: timestamp('since', { withTimezone: true, mode: 'date' }),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  added: integer('added').notNull().default(0),
  updated: integer('updated').notNull().default(0),
  unchanged: integer('unchanged').notNull().default(0),
  skipped: integer('skipped').notNull().default(0),
  deactivated: integer('deactivated').notNull().default(0),
  error: text('error'),
});

const moment = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Customers and admins. E-mails are stored lowercase; usernames are unique without regard to case. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<Role>().notNull().default('customer'),
    emailVerifiedAt: moment('email_verified_at'),
    /** File name of the re-encoded avatar (`images` row `avatars/<file>`), or null for the default icon. */
    avatar: text('avatar'),
    /** Set by an admin: the account's sessions end and it cannot sign in until unblocked. */
    blockedAt: moment('blocked_at'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    updatedAt: moment('updated_at').notNull().default(sql`now()`),
  },
  (table) => [uniqueIndex('users_email_idx').on(table.email), uniqueIndex('users_username_lower_idx').on(sql`lower(${table.username})`)],
);

/** A signed-in device. A JWT names its session, so ending the row ends the token at once. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    expiresAt: moment('expires_at').notNull(),
    revokedAt: moment('revoked_at'),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/**
 * Single-use secrets sent by e-mail: 6-digit codes (e-mail verification, new device) and password
 * reset tokens. Only a hash is stored; a code dies when used, expired or tried too often.
 */
export const accountCodes = pgTable(
  'account_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'verify-email' | 'new-device' | 'reset-password'>().notNull(),
    secretHash: text('secret_hash').notNull(),
    /** For a new-device code: the address it will trust once verified. */
    ip: text('ip'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    expiresAt: moment('expires_at').notNull(),
    usedAt: moment('used_at'),
  },
  (table) => [index('account_codes_user_purpose_idx').on(table.userId, table.purpose)],
);

/** Addresses from which an account has verified a login; a login from elsewhere asks for a code. */
export const trustedIps = pgTable(
  'trusted_ips',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    verifiedAt: moment('verified_at').notNull().default(sql`now()`),
  },
  (table) => [primaryKey({ columns: [table.userId, table.ip] })],
);

/**
 * Every e-mail the store sends. With SMTP it is the retry queue; without, it is the dev outbox
 * listed at /dev/mail.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    sentAt: moment('sent_at'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: moment('next_attempt_at').notNull().default(sql`now()`),
    lastError: text('last_error'),
  },
  (table) => [index('mail_outbox_pending_idx').on(table.nextAttemptAt).where(sql`${table.sentAt} is null`)],
);

/**
 * Orders. Money in euro cents, priced from the catalogue when placed. The buyer is kept
 * as a reference that turns null when the account is deleted: the order stays for the books.
 */
export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').$type<OrderStatus>().notNull(),
    deliveryStatus: text('delivery_status').$type<DeliveryStatus>().notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('EUR'),
    provider: text('provider').$type<PaymentProviderName>().notNull(),
    /** The provider's reference for the payment (a Stripe Checkout Session or payment intent). */
    providerRef: text('provider_ref'),
    declineReason: text('decline_reason'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    expiresAt: moment('expires_at').notNull(),
    paidAt: moment('paid_at'),
    deliveredAt: moment('delivered_at'),
    refundedAt: moment('refunded_at'),
    /** The supplier's order for our keys, once placed (placed with our order id, so never twice). */
    supplierOrderId: text('supplier_order_id'),
    /** Allocation runs so far; the retry delay grows with it. (A run holds the order by an advisory lock, decision 013.) */
    allocationAttempts: integer('allocation_attempts').notNull().default(0),
    /** When the retry job next tries a paid order whose keys are not all in. */
    nextAllocationAt: moment('next_allocation_at'),
    lastAllocationError: text('last_allocation_error'),
    /** The "delivery is delayed" mail goes out once. */
    delayNoticeAt: moment('delay_notice_at'),
    /** The Idempotency-Key the order was placed with, if any: one order per key and customer (decision 015). */
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of the items the key was first sent with, so the same key with other items is refused. */
    requestHash: text('request_hash'),
    /** The client address the order was placed from: what one address holds unpaid is capped (decision 016). */
    placedFrom: inet('placed_from'),
  },
  (table) => [
    index('orders_user_created_idx').on(table.userId, table.createdAt),
    index('orders_awaiting_placed_from_idx').on(table.placedFrom).where(sql`${table.status} = 'Awaiting payment'`),
    uniqueIndex('orders_user_idempotency_key_idx').on(table.userId, table.idempotencyKey).where(sql`${table.idempotencyKey} is not null`),
    index('orders_awaiting_expiry_idx').on(table.expiresAt).where(sql`${table.status} = 'Awaiting payment'`),
    index('orders_undelivered_idx').on(table.nextAllocationAt).where(sql`${table.status} = 'Paid' and ${table.deliveryStatus} <> 'Delivered'`),
    // The states of orders/transitions.ts; the moves between them are checked there (decision 019).
    check('orders_status_check', sql`${table.status} in (${listOf(ORDER_STATUSES)})`),
    check('orders_delivery_status_check', sql`${table.deliveryStatus} in (${listOf(DELIVERY_STATUSES)})`),
  ],
);

/**
 * Every change of an order's status or delivery status (decision 019): the timeline the back office
 * shows. `from_status` is null for the first event (the order placed); `actor` is `customer:<id>`,
 * `admin:<id>`, `provider:<name>` or `system:<job>`.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    at: moment('at').notNull().default(sql`now()`),
    kind: text('kind').$type<'status' | 'delivery'>().notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actor: text('actor').notNull(),
    reason: text('reason'),
  },
  (table) => [
    index('order_events_order_idx').on(table.orderId, table.id),
    check('order_events_kind_check', sql`${table.kind} in ('status', 'delivery')`),
  ],
);

/** The lines of an order, with what the catalogue said when it was placed (title, image, prices). */
export const orderLines = pgTable(
  'order_lines',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    supplierProductId: text('supplier_product_id').notNull(),
    title: text('title').notNull(),
    image: text('image'),
    platform: text('platform').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    /** The supplier's price when the order was placed; the keys are bought at its price when paid (allocation.ts). */
    supplierPriceCents: integer('supplier_price_cents').notNull(),
    /** Set when this line's money went back without its keys (the supplier's price rose above what the buyer paid). */
    refundedAt: moment('refunded_at'),
    refundReason: text('refund_reason'),
  },
  (table) => [uniqueIndex('order_lines_order_game_idx').on(table.orderId, table.gameId)],
);

/**
 * Keys bought for orders. The serial is stored encrypted (AES-256-GCM: iv, tag and ciphertext,
 * base64url) and as a keyed hash; the unique (game, hash) index makes a key sellable once, ever.
 */
export const productKeys = pgTable(
  'product_keys',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id),
    lineId: text('line_id')
      .notNull()
      .references(() => orderLines.id),
    /** Which of the line's keys this is (0-based): a second allocation run writes the same rows, not more. */
    position: integer('position').notNull(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    serialEncrypted: text('serial_encrypted').notNull(),
    serialHash: text('serial_hash').notNull(),
    demo: boolean('demo').notNull().default(false),
    deliveredAt: moment('delivered_at').notNull().default(sql`now()`),
    voidedAt: moment('voided_at'),
    voidReason: text('void_reason'),
  },
  (table) => [
    uniqueIndex('product_keys_game_serial_idx').on(table.gameId, table.serialHash),
    uniqueIndex('product_keys_line_position_idx').on(table.lineId, table.position),
    index('product_keys_user_idx').on(table.userId, table.deliveredAt),
    index('product_keys_order_idx').on(table.orderId),
  ],
);

/** Every time a key was shown to its owner, and from where. */
export const keyReveals = pgTable(
  'key_reveals',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    keyId: text('key_id')
      .notNull()
      .references(() => productKeys.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    at: moment('at').notNull().default(sql`now()`),
    ip: text('ip'),
  },
  (table) => [index('key_reveals_key_idx').on(table.keyId)],
);

/** Payment provider events already handled (webhook idempotency): the same event twice changes nothing. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').$type<PaymentProviderName>().notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    orderId: text('order_id'),
    receivedAt: moment('received_at').notNull().default(sql`now()`),
  },
  (table) => [primaryKey({ columns: [table.provider, table.eventId] })],
);

/**
 * News. `author` is 'Admin' for manual news, 'ChatGPT' for news written by the AI
 * provider, 'Keystore AI' for the offline generator's. The cover is the file name of a re-encoded
 * WebP (`images` row `news/<file>`) or null for the placeholder.
 */
export const news = pgTable(
  'news',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    category: text('category').notNull(),
    content: text('content').notNull(),
    coverImage: text('cover_image'),
    author: text('author').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: moment('created_at').notNull().default(sql`now()`),
  },
  (table) => [index('news_created_idx').on(table.createdAt)],
);

/**
 * Notifications: public ones (userId null) for everyone, personal ones for one account,
 * made by events (order paid, keys delivered, payment declined, password changed, new device).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    text: text('text').notNull(),
    /** What made it: 'admin', 'news', 'order-paid', 'keys-delivered', 'payment-declined', 'password-changed', 'new-device'. */
    kind: text('kind').notNull(),
    /** A page of the store it is about (/news/{id}, /library), or null. */
    link: text('link'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
  },
  (table) => [index('notifications_user_created_idx').on(table.userId, table.createdAt)],
);

/** Which notifications a signed-in user has read (visitors keep theirs in localStorage). */
export const notificationReads = pgTable(
  'notification_reads',
  {
    notificationId: text('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: moment('read_at').notNull().default(sql`now()`),
  },
  (table) => [primaryKey({ columns: [table.userId, table.notificationId] })],
);

/** Messages sent through the support form, kept whether or not the e-mail to support went out. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    ip: text('ip'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    /** `open` until an admin answers it from the back office. */
    status: text('status').$type<'open' | 'answered'>().notNull().default('open'),
    reply: text('reply'),
    answeredAt: moment('answered_at'),
    answeredBy: text('answered_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('support_messages_created_idx').on(table.createdAt),
    check('support_messages_status_check', sql`${table.status} in ('open', 'answered')`),
  ],
);

/**
 * Keys the library keeps wrapped (encrypted under KEY_ENCRYPTION_KEY, see library/key-vault.ts): the
 * key of the serial hashes, which must outlive a rotation of the encryption key.
 */
export const vaultKeys = pgTable('vault_keys', {
  purpose: text('purpose').primaryKey(),
  wrapped: text('wrapped').notNull(),
  createdAt: moment('created_at').notNull().default(sql`now()`),
});

/** PostgreSQL's bytea as a Buffer from both drivers (PGlite answers a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * Uploaded pictures (avatars, news covers), re-encoded WebP of at most a few hundred kilobytes, kept
 * in the database so that every instance serves what any instance stored. A name is never reused.
 */
export const images = pgTable('images', {
  /** `<folder>/<file>`, e.g. `avatars/<userId>-<random>.webp`. */
  name: text('name').primaryKey(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  byteSize: integer('byte_size').notNull(),
  /** SHA-256 of the bytes (base64url): the strong ETag. */
  sha256: text('sha256').notNull(),
  createdAt: moment('created_at').notNull().default(sql`now()`),
});

/** Settings the owner changes in the back office (`markupPercent` …), one JSON value per key. */
export const storeSettings = pgTable('store_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: moment('updated_at').notNull().default(sql`now()`),
});

/**
 * Every admin action, append-only (a trigger refuses UPDATE and DELETE): who, when, what, on what,
 * and the values before and after where they apply.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: moment('at').notNull().default(sql`now()`),
    /** The admin; kept as text (with the e-mail) so the record outlives the account. */
    actorId: text('actor_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
  },
  (table) => [index('audit_log_at_idx').on(table.at), index('audit_log_target_idx').on(table.targetType, table.targetId)],
);

/** When the operators were last mailed about each cause (at most once an hour per cause). */
export const operatorAlerts = pgTable('operator_alerts', {
  cause: text('cause').primaryKey(),
  lastSentAt: moment('last_sent_at').notNull(),
});
