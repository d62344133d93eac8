// Requests and answers of /api/orders, /api/payments/test and /api/purchases (issue 5, DESIGN §4).
// Money in answers is euro with two decimals; ids are strings in `_id`.
import { z } from 'zod';
import { emailField, purchaseHistoryEntrySchema } from './accounts.ts';
import { giftRequestSchema } from './gifts.ts';
import { gameListItemSchema } from './catalog.ts';
import {
  DELIVERY_STATUSES,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  ORDER_CURRENCY,
  ORDER_LINE_MAX_QUANTITY,
  ORDER_MAX_LINES,
  ORDER_STATUSES,
  PAYMENT_PROVIDERS,
} from './constants.ts';
import { idField, ruled, safeText } from './fields.ts';
import { orderMessages as m } from './messages.ts';
import { sellerMessages } from './seller-rules.ts';
import { cardDigits, cardholderNameProblem, cardNumberProblem, cvcProblem, expiryProblem } from './payment-rules.ts';

/**
 * What the cart sends: game ids and quantities, with the offer chosen and the price shown where the cart
 * has them. The server prices the order from the offers; a shown price only guards against paying more
 * than the buyer saw. A game listed twice (with the same offer, or none) is one line.
 */
export const createOrderRequestSchema = z.object({
  items: z
    .array(
      z.object({
        // Any spelling of a game the catalogue does not have is the service's 404 'Game not found'.
        gameId: safeText(m.gameIdRequired).min(1, m.gameIdRequired).max(64, m.gameIdRequired),
        quantity: z
          .number({ error: m.quantityInvalid })
          .int(m.quantityInvalid)
          .min(1, m.quantityInvalid)
          .max(ORDER_LINE_MAX_QUANTITY, m.quantityInvalid),
        /** A specific offer the buyer chose on the game page; without it, the best offers are taken. */
        offerId: z.string({ error: sellerMessages.offerUnavailable }).regex(/^[0-9a-z]{16,24}$/, sellerMessages.offerUnavailable).optional(),
        /** The unit price (euro) the cart showed: when the offers now cost more, the order is a 409 with the new prices. */
        expectedPrice: z.number().nonnegative().max(1_000_000).optional(),
      }),
      { error: m.emptyOrder },
    )
    .min(1, m.emptyOrder)
    .max(ORDER_MAX_LINES, m.tooManyLines),
  /** A guest's e-mail (issue 29): an order without a session is placed for it; ignored with a session. */
  email: emailField.optional(),
  /** The order is a gift (issue 29): its keys go to this recipient, never to the buyer's library. */
  gift: giftRequestSchema.optional(),
});
export type CreateOrderRequest = z.input<typeof createOrderRequestSchema>;

/** A 409 of POST /api/orders; when the best offers now cost more than the cart showed, with the new unit prices (euro). */
export const priceConflictSchema = z
  .object({ error: z.string(), prices: z.array(z.object({ gameId: z.string(), price: z.number() })).optional() })
  .meta({ id: 'PriceConflict' });
export type PriceConflict = z.infer<typeof priceConflictSchema>;

/**
 * The headers POST /api/orders reads besides the session's. Loose: the other headers pass through
 * untouched (the validated object replaces the request's headers). Node hands header names over in
 * lower case.
 */
export const createOrderHeadersSchema = z.looseObject({
  'idempotency-key': z
    .string({ error: m.idempotencyKeyInvalid })
    .regex(new RegExp(`^[\\x20-\\x7E]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`), m.idempotencyKeyInvalid)
    .optional()
    .meta({
      description:
        'Names one checkout attempt (the web app sends a UUID). The same key with the same items answers the order placed the ' +
        'first time (201, the same order and payment page) without reserving its keys again; the same key with other items is a 422. ' +
        `1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters, kept per customer.`,
    }),
});

export const orderLineSchema = z
  .object({
    gameId: z.string(),
    title: z.string(),
    image: z.string(),
    platform: z.string(),
    quantity: z.number().int(),
    /** Euro, as priced when the order was placed. */
    unitPrice: z.number(),
    amount: z.number(),
    /** Keys in the buyer's library for this line (voided keys not counted). */
    keysDelivered: z.number().int(),
    /** The offer and seller the line's keys come from. */
    offerId: z.string(),
    seller: z.string(),
  })
  .meta({ id: 'OrderLine' });
export type OrderLine = z.infer<typeof orderLineSchema>;

/**
 * An order: the purchase-history entry of SPEC §3 (`items` text, first line's `image`, `date`,
 * status, delivery status, currency, amount) with its lines and payment details.
 */
export const orderSchema = purchaseHistoryEntrySchema
  .extend({
    status: z.enum(ORDER_STATUSES),
    deliveryStatus: z.enum(DELIVERY_STATUSES),
    currency: z.literal(ORDER_CURRENCY),
    createdAt: z.string(),
    /** When an unpaid order lapses (30 minutes after it was placed). */
    expiresAt: z.string(),
    paidAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    refundedAt: z.string().nullable(),
    paymentProvider: z.enum(PAYMENT_PROVIDERS),
    /** Why the payment was declined, when it was. */
    declineReason: z.string().nullable(),
    /** What the status means for the buyer, when it needs saying (an order in review, issue 29). */
    statusNote: z.string().nullable(),
    lines: z.array(orderLineSchema),
    /**
     * GET /api/orders/{id} only: the order's live keys, not revealed here (GET /api/orders/{id}/keys does),
     * for an order page that reveals them one by one (a guest's, issue 29).
     */
    keys: z.array(z.object({ purchaseId: z.string(), gameId: z.string(), title: z.string(), revealed: z.boolean() })).optional(),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof orderSchema>;

export const orderIdParamsSchema = z.object({ id: idField(m.orderNotFound) });
export const purchaseIdParamsSchema = z.object({ id: idField(m.keyNotFound) });

/** POST /api/orders: the new order and where to pay for it (`/pay/{id}` on the test gateway, Stripe's page otherwise). */
export const createOrderAnswerSchema = z
  .object({
    order: orderSchema,
    paymentUrl: z.string(),
    /** A guest's order token (30 days): the order page, its keys and its payment take it as `?token=`. */
    token: z.string().optional(),
  })
  .meta({ id: 'CreatedOrder' });
export type CreateOrderAnswer = z.infer<typeof createOrderAnswerSchema>;

/**
 * POST /api/orders/{id}/checkout: where to go back to paying an order still awaiting payment, after the
 * customer left the provider's page (Stripe's Cancel): the same checkout, never a second one.
 */
export const reopenedCheckoutSchema = z.object({ paymentUrl: z.string() }).meta({ id: 'ReopenedCheckout' });
export type ReopenedCheckout = z.infer<typeof reopenedCheckoutSchema>;

export const orderListSchema = z.array(orderSchema);

/** The test gateway's card form. The card number arrives as typed (groups of digits) and leaves as digits. */
export const testPaymentRequestSchema = z.object({
  cardNumber: ruled(cardNumberProblem, m.cardNumberRequired).transform(cardDigits),
  expiry: ruled((value) => expiryProblem(value), m.expiryRequired),
  cvc: ruled(cvcProblem, m.cvcInvalid),
  name: ruled(cardholderNameProblem, m.nameRequired).transform((value) => value.trim()),
});
export type TestPaymentRequest = z.input<typeof testPaymentRequestSchema>;

/**
 * The test gateway's verdict. Paid: go to `/library?order={id}`; Declined: back to `/pay/{id}`
 * with `message` (the order is closed; a new order is needed to try again).
 */
export const testPaymentAnswerSchema = z
  .object({
    status: z.enum(['Paid', 'In review', 'Declined']),
    deliveryStatus: z.enum(DELIVERY_STATUSES),
    message: z.string(),
    redirectUrl: z.string(),
  })
  .meta({ id: 'TestPayment' });
export type TestPaymentAnswer = z.infer<typeof testPaymentAnswerSchema>;

/** One delivered key in the library (SPEC §3, Purchase): `_id` is the key's id; the key itself comes separately. */
export const purchaseSchema = z
  .object({
    _id: z.string(),
    product: gameListItemSchema,
    orderId: z.string(),
    purchasedAt: z.string(),
    /** Whether its owner has revealed the key: a problem with it can be reported only then (issue 24). */
    revealed: z.boolean(),
    /** A key sent as a gift (issue 29): to whom, and when they first revealed it. Its buyer never sees the key. */
    gift: z.object({ to: z.string(), revealedAt: z.string().nullable() }).optional(),
  })
  .meta({ id: 'Purchase' });
export type Purchase = z.infer<typeof purchaseSchema>;
export const purchaseListSchema = z.array(purchaseSchema);

export const purchaseKeySchema = z.object({ key: z.string() }).meta({ id: 'PurchaseKey' });

/** `?token=`: a signed order token, for whoever holds the order's link (a guest); its signed-in owner needs none. */
export const orderTokenQuerySchema = z.object({ token: z.string().max(2000).optional() });
/** `?token=` where only the order's link opens the call (an order's claims, followed by a guest). */
export const orderLinkQuerySchema = z.object({ token: z.string().min(1).max(2000) });
/** GET /api/orders/{id}/keys: `keyId` reveals one key of the order, else all of them. */
export const orderKeysQuerySchema = orderTokenQuerySchema.extend({ keyId: z.string().regex(/^[0-9A-Za-z_-]{5,40}$/, m.keyNotFound).optional() });
/** GET /api/orders/{id}/keys: the order's live keys, revealed (each reveal recorded). */
export const orderKeysSchema = z
  .object({ keys: z.array(z.object({ purchaseId: z.string(), gameId: z.string(), title: z.string(), key: z.string() })) })
  .meta({ id: 'OrderKeys' });
export type OrderKeys = z.infer<typeof orderKeysSchema>;
export type PurchaseKey = z.infer<typeof purchaseKeySchema>;
