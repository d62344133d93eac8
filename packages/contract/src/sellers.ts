// Requests and answers of the marketplace (issue 23): /api/sellers, /api/seller/*, a game's offers, and the
// back office's sellers, payouts and ledger. Money in answers is euro with two decimals, as everywhere.
import { z } from 'zod';
import { identityConfirmationFields } from './security.ts';
import { MAX_SEARCH_LENGTH, ORDER_CURRENCY } from './constants.ts';
import { idField, safeText } from './fields.ts';
import { SCORE_FLOOR_MESSAGE as scoreFloorInvalid } from './seller-delivery-rules.ts';
import { offerDeliveryFields, sellerScoreSchema } from './seller-delivery.ts';
import { validationMessages } from './messages.ts';
import { emailProblem, normalizeEmail } from './rules.ts';
import {
  apiKeyNameProblem,
  COMMISSION_FIXED_MAX_CENTS,
  COMMISSION_PERCENT_MAX,
  countryProblem,
  HOLD_DAYS_MAX,
  KEYS_PER_UPLOAD,
  LEDGER_KINDS,
  netPriceProblem,
  OFFER_DELIVERIES,
  OFFER_STATUSES,
  PAYOUT_STATUSES,
  payoutReferenceProblem,
  SELLER_KEY_STATES,
  SELLER_STATUSES,
  sellerMessages as m,
  sellerNameProblem,
} from './seller-rules.ts';

/** A rule of seller-rules.ts (the web app's forms use it too) as a refinement: its message, when it finds a problem. */
const byRule =
  (rule: (value: string) => string | undefined) =>
  (value: string | number, context: z.core.$RefinementCtx) => {
    const problem = rule(String(value));
    if (problem) context.addIssue({ code: 'custom', message: problem });
  };

/** Euro with at most two decimals (a cent is the smallest amount). */
const euro = (message: string, min: number, max: number) =>
  z.coerce
    .number({ error: message })
    .refine((value) => Number.isFinite(value) && Math.abs(Math.round(value * 100) - value * 100) < 1e-6, message)
    .refine((value) => value * 100 >= min - 1e-6 && value * 100 <= max + 1e-6, message);
/**
 * A net price in euro (a number, or a query's text) by the forms' rule, netPriceProblem: whole cents from
 * €0.10 to €10,000. The number is written out to the 8th decimal, so a float's noise (0.1 + 0.2) is no decimal.
 */
const netPrice = z.coerce
  .number({ error: m.netPriceInvalid })
  .superRefine((value, context) => byRule(netPriceProblem)(Number.isFinite(value) ? Math.round(value * 1e8) / 1e8 : value, context));
const page = z.coerce.number().int().min(1).max(10_000).default(1);
const pageOf = <Item extends z.ZodType>(item: Item, id: string) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }).meta({ id });

// --- Sellers -------------------------------------------------------------------------------------

/** POST /api/sellers: a signed-in, verified customer applies. */
export const sellerApplicationSchema = z.object({
  name: safeText(m.nameInvalid).trim().superRefine(byRule(sellerNameProblem)),
  contactEmail: safeText(m.contactEmailInvalid)
    // A business address: any well-formed one, not only the big providers a customer's must be at.
    .refine((value) => { const problem = emailProblem(value); return problem === undefined || problem === validationMessages.emailProvider; }, m.contactEmailInvalid)
    .transform(normalizeEmail),
  country: z
    .string({ error: m.countryInvalid })
    .superRefine(byRule(countryProblem))
    .transform((value) => value.trim().toUpperCase()),
});
export type SellerApplication = z.input<typeof sellerApplicationSchema>;

const commissionSchema = z.object({ percent: z.number(), fixed: z.number() });
const balanceSchema = z.object({ held: z.number(), available: z.number(), currency: z.literal(ORDER_CURRENCY) }).meta({ id: 'SellerBalance' });

/** GET /api/seller: the signed-in user's seller account. */
export const sellerSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    contactEmail: z.string(),
    country: z.string(),
    status: z.enum(SELLER_STATUSES),
    commission: commissionSchema,
    holdDays: z.number().int(),
    balance: balanceSchema,
    /** Offers the seller has, any status. */
    offers: z.number().int(),
    /** Available keys over every offer. */
    keysInStock: z.number().int(),
    /** The score from outcomes over the last 90 days (issue 24). */
    score: sellerScoreSchema,
    createdAt: z.string(),
  })
  .meta({ id: 'Seller' });
export type Seller = z.infer<typeof sellerSchema>;
export const sellerAnswerSchema = z.object({ seller: sellerSchema }).meta({ id: 'SellerAnswer' });

// --- API keys ------------------------------------------------------------------------------------

/** A new API key: its name, and the password (and authenticator code) typed again (issue 30). */
export const apiKeyRequestSchema = z.object({
  name: safeText(m.apiKeyNameInvalid).trim().superRefine(byRule(apiKeyNameProblem)),
  ...identityConfirmationFields,
});
export type ApiKeyRequest = z.input<typeof apiKeyRequestSchema>;
/** The key itself is in this answer only, once. */
export const createdApiKeySchema = z.object({ _id: z.string(), name: z.string(), key: z.string() }).meta({ id: 'CreatedApiKey' });
export const apiKeySchema = z
  .object({ _id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeyListSchema = z.array(apiKeySchema);
export const apiKeyIdParamsSchema = z.object({ id: idField(m.apiKeyNotFound) });

/** `X-Api-Key` on /api/seller/*: a seller's system calls without a session. */
export const sellerApiHeadersSchema = z.looseObject({
  'x-api-key': z.string().max(200).optional().meta({ description: "A seller's API key (POST /api/seller/api-keys); instead of a session" }),
});

// --- Offers and keys -----------------------------------------------------------------------------

export const offerSchema = z
  .object({
    _id: z.string(),
    gameId: z.string(),
    title: z.string(),
    /** What the seller receives per key, euro. */
    netPrice: z.number(),
    /** What the buyer pays: the net price plus the commission. */
    price: z.number(),
    /** Keys available. */
    stock: z.number().int(),
    status: z.enum(OFFER_STATUSES),
    sold: z.number().int(),
    /** Uploaded keys, or keys handed over when sold through the seller's webhook (issue 24). */
    delivery: z.enum(OFFER_DELIVERIES),
    /** What a declared-stock offer still promises (0 for uploaded keys). */
    declaredStock: z.number().int(),
    /** Set while the circuit breaker keeps the offer out of the store after failures. */
    hiddenUntil: z.string().nullable(),
    /** Paused by the store after failed reservations in a row (not by the seller): resuming starts over. */
    pausedAfterFailures: z.boolean(),
  })
  .meta({ id: 'Offer' });
export type Offer = z.infer<typeof offerSchema>;
export const offerListSchema = z.array(offerSchema);
export const offerAnswerSchema = z.object({ offer: offerSchema }).meta({ id: 'OfferAnswer' });
export const offerRequestSchema = z.object({
  gameId: idField(m.gameNotFound),
  netPrice,
  status: z.enum(OFFER_STATUSES, { error: m.offerStatusInvalid }).default('active'),
  /** Declared stock from the start (issue 24), or uploaded keys (the default). */
  ...offerDeliveryFields,
});
export type OfferRequest = z.input<typeof offerRequestSchema>;
export const offerPatchSchema = z.object({
  netPrice: netPrice.optional(),
  status: z.enum(OFFER_STATUSES, { error: m.offerStatusInvalid }).optional(),
  ...offerDeliveryFields,
});
export type OfferPatch = z.input<typeof offerPatchSchema>;
export const offerIdParamsSchema = z.object({ id: idField(m.offerNotFound) });
export const offerKeyParamsSchema = z.object({ id: idField(m.offerNotFound), keyId: idField(m.keyNotFound) });

/** GET /api/seller/price-preview?netPrice=: what a buyer would pay, by the seller's commission. */
export const pricePreviewQuerySchema = z.object({ netPrice });
export const pricePreviewSchema = z.object({ netPrice: z.number(), commission: z.number(), price: z.number() }).meta({ id: 'PricePreview' });
export type PricePreview = z.infer<typeof pricePreviewSchema>;

/** Keys as pasted: each is trimmed and checked by the server; an invalid one is counted, not a 400. */
export const keyUploadSchema = z.object({
  keys: z.array(z.string({ error: m.keysInvalid }), { error: m.keysInvalid }).min(1, m.keysInvalid).max(KEYS_PER_UPLOAD, m.keysInvalid),
});
export const keyUploadAnswerSchema = z
  .object({ added: z.number().int(), duplicates: z.number().int(), invalid: z.number().int() })
  .meta({ id: 'KeyUpload' });
export type KeyUploadAnswer = z.infer<typeof keyUploadAnswerSchema>;
export const sellerKeySchema = z.object({ _id: z.string(), masked: z.string(), state: z.enum(SELLER_KEY_STATES) }).meta({ id: 'SellerKey' });
export type SellerKey = z.infer<typeof sellerKeySchema>;
export const sellerKeyListSchema = z.array(sellerKeySchema);

// --- Sales, ledger, payouts ----------------------------------------------------------------------

export const sellerPageQuerySchema = z.object({ page });
export const SALE_STATES = ['awaiting delivery', 'held', 'available', 'refunded'] as const;
export const sellerSaleSchema = z
  .object({
    orderId: z.string(),
    date: z.string(),
    gameId: z.string(),
    title: z.string(),
    quantity: z.number().int(),
    /** The buyer's price per key, euro. */
    price: z.number(),
    /** The seller's part of the line (price less commission, times quantity), euro. */
    net: z.number(),
    state: z.enum(SALE_STATES),
  })
  .meta({ id: 'SellerSale' });
export type SellerSale = z.infer<typeof sellerSaleSchema>;
export const sellerSalesSchema = pageOf(sellerSaleSchema, 'SellerSales');

export const ledgerEntrySchema = z
  .object({ _id: z.string(), date: z.string(), kind: z.enum(LEDGER_KINDS), amount: z.number(), orderId: z.string().nullable() })
  .meta({ id: 'SellerLedgerEntry' });
export type SellerLedgerEntry = z.infer<typeof ledgerEntrySchema>;
export const sellerLedgerSchema = pageOf(ledgerEntrySchema, 'SellerLedger');

export const payoutSchema = z
  .object({
    _id: z.string(),
    sellerId: z.string(),
    sellerName: z.string(),
    amount: z.number(),
    currency: z.literal(ORDER_CURRENCY),
    status: z.enum(PAYOUT_STATUSES),
    reference: z.string().nullable(),
    createdAt: z.string(),
    paidAt: z.string().nullable(),
  })
  .meta({ id: 'Payout' });
export type Payout = z.infer<typeof payoutSchema>;
export const payoutListSchema = z.array(payoutSchema);
export const payoutRunSchema = z.object({ created: z.array(payoutSchema) }).meta({ id: 'PayoutRun' });
export const payoutIdParamsSchema = z.object({ id: idField(m.payoutNotFound) });
export const payoutPaidSchema = z.object({
  reference: safeText(m.referenceInvalid).trim().superRefine(byRule(payoutReferenceProblem)),
});

// --- A game's offers (the store) -----------------------------------------------------------------

export const gameOfferSchema = z
  .object({ offerId: z.string(), seller: z.object({ name: z.string(), score: z.number().int() }), price: z.number(), stock: z.number().int() })
  .meta({ id: 'GameOffer' });
export type GameOffer = z.infer<typeof gameOfferSchema>;
export const gameOfferListSchema = z.array(gameOfferSchema);

// --- Back office ---------------------------------------------------------------------------------

export const adminSellersQuerySchema = z.object({
  status: z.enum(SELLER_STATUSES).optional(),
  q: safeText().trim().max(MAX_SEARCH_LENGTH).optional(),
  page,
});
export const adminSellerSchema = sellerSchema
  .extend({
    userId: z.string().nullable(),
    /** True when the owner set this seller's commission; false when it follows the store's default. */
    customCommission: z.boolean(),
    house: z.boolean(),
  })
  .meta({ id: 'AdminSeller' });
export type AdminSeller = z.infer<typeof adminSellerSchema>;
export const adminSellerListSchema = pageOf(adminSellerSchema, 'AdminSellerList');
export type AdminSellerList = z.infer<typeof adminSellerListSchema>;
export const adminSellerIdParamsSchema = z.object({ id: z.string().regex(/^[0-9a-z]{5,24}$/, m.sellerNotFound) });
const commissionPercent = z.number({ error: m.commissionInvalid }).min(0, m.commissionInvalid).max(COMMISSION_PERCENT_MAX, m.commissionInvalid);
const commissionFixed = euro(m.commissionInvalid, 0, COMMISSION_FIXED_MAX_CENTS);
export const adminSellerPatchSchema = z.object({
  status: z.enum(['active', 'suspended']).optional(),
  /** null: the store's default again. */
  commissionPercent: commissionPercent.nullable().optional(),
  commissionFixed: commissionFixed.nullable().optional(),
  holdDays: z.number({ error: m.holdDaysInvalid }).int(m.holdDaysInvalid).min(0, m.holdDaysInvalid).max(HOLD_DAYS_MAX, m.holdDaysInvalid).optional(),
});
export type AdminSellerPatch = z.input<typeof adminSellerPatchSchema>;
export const sellerCommissionSettingsSchema = {
  sellerCommissionPercent: commissionPercent.optional(),
  sellerCommissionFixed: commissionFixed.optional(),
  sellerScoreFloor: z.number({ error: scoreFloorInvalid }).int(scoreFloorInvalid).min(0, scoreFloorInvalid).max(100, scoreFloorInvalid).optional(),
};

export const ledgerBalanceSchema = z
  .object({ accounts: z.array(z.object({ account: z.string(), balance: z.number() })), total: z.number(), currency: z.literal(ORDER_CURRENCY) })
  .meta({ id: 'LedgerBalance' });
export type LedgerBalance = z.infer<typeof ledgerBalanceSchema>;
