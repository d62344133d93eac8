// The marketplace without zod (issue 23): sellers, offers, uploaded keys, commission and payouts.
// Imported by the schemas in sellers.ts, the server, and the web app's seller pages
// (`@keystore/contract/seller-rules`). Money is integer euro cents here; answers carry euro.

export const SELLER_STATUSES = ['pending', 'active', 'suspended'] as const;
export type SellerStatus = (typeof SELLER_STATUSES)[number];
export const OFFER_STATUSES = ['active', 'paused'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];
export const SELLER_KEY_STATES = ['available', 'reserved', 'sold'] as const;
export type SellerKeyState = (typeof SELLER_KEY_STATES)[number];
export const LEDGER_KINDS = ['sale', 'commission', 'release', 'refund', 'payout', 'fee', 'claim', 'chargeback'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
/** How an offer's keys reach the store: uploaded in advance, or handed over when sold through the seller's webhook (issue 24). */
export const OFFER_DELIVERIES = ['uploaded', 'declared'] as const;
export type OfferDelivery = (typeof OFFER_DELIVERIES)[number];
/** The most keys a declared-stock offer may promise. */
export const DECLARED_STOCK_MAX = 100_000;
export const PAYOUT_STATUSES = ['pending', 'paid'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** The house seller: the supplier's feed, whose keys are bought after payment. Its id never changes. */
export const HOUSE_SELLER_ID = 'house';
export const HOUSE_SELLER_NAME = 'Keystore';

/** The store's default commission on a seller's net price, until the owner sets another (back office). */
export const DEFAULT_COMMISSION_PERCENT = 10;
export const DEFAULT_COMMISSION_FIXED_CENTS = 0;
export const COMMISSION_PERCENT_MAX = 50;
/** The most a fixed commission may be, in cents (€10). */
export const COMMISSION_FIXED_MAX_CENTS = 1000;
/** Days a sale's money is held before it can be paid out (Eneba holds 14). */
export const DEFAULT_HOLD_DAYS = 14;
export const HOLD_DAYS_MAX = 90;
/** A payout is made only for an available balance of at least this (cents), unless PAYOUT_MINIMUM says otherwise. */
export const DEFAULT_PAYOUT_MINIMUM_CENTS = 2000;

/** An offer's net price: from €0.10 to €10,000. */
export const NET_PRICE_MIN_CENTS = 10;
export const NET_PRICE_MAX_CENTS = 1_000_000;
/** Keys one upload call may carry, and a key's length once trimmed. */
export const KEYS_PER_UPLOAD = 1000;
export const KEY_MIN_LENGTH = 5;
export const KEY_MAX_LENGTH = 200;
export const SELLER_NAME_MIN = 2;
export const SELLER_NAME_MAX = 60;
export const API_KEY_NAME_MAX = 60;
/** A seller's API keys, at most. */
export const API_KEYS_MAX = 10;
/** The most characters of a payout's bank reference. */
export const PAYOUT_REFERENCE_MAX = 100;
/** Rows per page of a seller's sales and ledger. */
export const SELLER_PAGE_SIZE = 25;

/** A commission rule: a percent of the net price (two decimals at most) plus a fixed amount in cents. */
export interface Commission {
  percent: number;
  fixedCents: number;
}

/**
 * The commission on a net price: `percent` of it, rounded half up to the cent, plus the fixed part.
 * Computed in integers (percent in hundredths), so 10 % of €0.15 is 2 cents, never 1.4999….
 */
export function commissionCents(netCents: number, commission: Commission): number {
  const hundredths = Math.round(commission.percent * 100);
  return Math.floor((netCents * hundredths + 5000) / 10000) + commission.fixedCents;
}

/** What a buyer pays for an offer: the seller's net price plus the commission. */
export function buyerPriceCents(netCents: number, commission: Commission): number {
  return netCents + commissionCents(netCents, commission);
}

/** A key as compared for duplicates: without spaces, dashes and case. */
export function normalizedSerial(serial: string): string {
  return serial.replace(/[\s-]+/g, '').toUpperCase();
}

/** Whether an uploaded key (already trimmed) can be stored: printable, 5 to 200 characters. */
export function keyIsValid(serial: string): boolean {
  return serial.length >= KEY_MIN_LENGTH && serial.length <= KEY_MAX_LENGTH && /^[\x20-\x7E]+$/.test(serial) && normalizedSerial(serial).length > 0;
}

/** Every text the marketplace answers or shows. */
export const sellerMessages = {
  notSignedIn: 'Please sign in to continue',
  verifyFirst: 'Please verify your e-mail address before applying as a seller',
  alreadySeller: 'You already have a seller account',
  notSeller: 'You have no seller account yet',
  sellerNotFound: 'Seller not found',
  sellerSuspended: 'This seller account is suspended',
  nameInvalid: `Seller name must be ${SELLER_NAME_MIN} to ${SELLER_NAME_MAX} characters`,
  nameTaken: 'This seller name is already taken',
  contactEmailInvalid: 'Please enter a valid contact e-mail',
  countryInvalid: 'Country must be a two-letter ISO code, e.g. DE',
  apiKeyInvalid: 'Invalid API key',
  apiKeyNameInvalid: `API key name must be 1 to ${API_KEY_NAME_MAX} characters`,
  apiKeyNotFound: 'API key not found',
  tooManyApiKeys: `A seller may have at most ${API_KEYS_MAX} API keys`,
  gameNotFound: 'Game not found',
  offerNotFound: 'Offer not found',
  offerExists: 'You already have an offer for this game',
  netPriceInvalid: `Net price must be between €${(NET_PRICE_MIN_CENTS / 100).toFixed(2)} and €${(NET_PRICE_MAX_CENTS / 100).toLocaleString('en')}`,
  offerStatusInvalid: 'Status must be active or paused',
  keysInvalid: `Send 1 to ${KEYS_PER_UPLOAD} keys`,
  keyNotFound: 'Key not found',
  keyNotAvailable: 'Only an available key can be deleted',
  commissionInvalid: `Commission must be 0 to ${COMMISSION_PERCENT_MAX} % plus at most €${(COMMISSION_FIXED_MAX_CENTS / 100).toFixed(2)}`,
  holdDaysInvalid: `Hold days must be a whole number from 0 to ${HOLD_DAYS_MAX}`,
  payoutNotFound: 'Payout not found',
  payoutAlreadyPaid: 'This payout is already marked paid',
  referenceInvalid: `A bank reference of 1 to ${PAYOUT_REFERENCE_MAX} characters is required`,
  priceChanged: 'Prices changed since you added these games to your cart. Please review the new prices.',
  offerUnavailable: 'This offer is no longer available',
  soldBy: (seller: string) => `Sold by ${seller}`,
  otherOffers: (count: number, from: string) => `${count} other offer${count === 1 ? '' : 's'} from ${from}`,
} as const;

// The marketplace's form rules, written once: the web app's forms call them (byRule), the schemas in
// sellers.ts through `.superRefine`, so a form refuses what the server would, with the same text. Each
// answers its message, or undefined when the value is fine. (The contact e-mail's rule builds on the
// shared e-mail rule of rules.ts, which this file does not import: rules.ts brings its word filter, and
// the storefront's game page and cart import this file for sellerMessages.)


/** A euro amount as typed ("12", "12.5", "12,50") in cents, or undefined when it is not one with at most two decimals. */
export function euroCents(value: string): number | undefined {
  const text = value.trim().replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return undefined;
  return Math.round(Number(text) * 100);
}

/** A seller's name, once trimmed: 2 to 60 characters. */
export function sellerNameProblem(value: string): string | undefined {
  const name = value.trim();
  return name.length < SELLER_NAME_MIN || name.length > SELLER_NAME_MAX ? sellerMessages.nameInvalid : undefined;
}

/** A country as a two-letter ISO code, either case ("de" is stored as DE). */
export function countryProblem(value: string): string | undefined {
  return /^[A-Za-z]{2}$/.test(value.trim()) ? undefined : sellerMessages.countryInvalid;
}

/** An offer's net price in euro, as typed or as a number written out: €0.10 to €10,000, whole cents. */
export function netPriceProblem(euroText: string): string | undefined {
  const cents = euroCents(euroText);
  return cents === undefined || cents < NET_PRICE_MIN_CENTS || cents > NET_PRICE_MAX_CENTS ? sellerMessages.netPriceInvalid : undefined;
}

/** An API key's name, once trimmed: 1 to 60 characters. */
export function apiKeyNameProblem(value: string): string | undefined {
  const name = value.trim();
  return name.length < 1 || name.length > API_KEY_NAME_MAX ? sellerMessages.apiKeyNameInvalid : undefined;
}

/** A commission's percent as typed in the back office: 0 to 50. */
export function commissionPercentProblem(value: string): string | undefined {
  const percent = Number(value.trim().replace(',', '.'));
  return value.trim() === '' || !Number.isFinite(percent) || percent < 0 || percent > COMMISSION_PERCENT_MAX ? sellerMessages.commissionInvalid : undefined;
}

/** A commission's fixed part in euro as typed in the back office: €0 to €10.00, whole cents. */
export function commissionFixedProblem(value: string): string | undefined {
  const cents = euroCents(value);
  return cents === undefined || cents > COMMISSION_FIXED_MAX_CENTS ? sellerMessages.commissionInvalid : undefined;
}

/** Days a sale's money is held, as typed in the back office: a whole number from 0 to 90. */
export function holdDaysProblem(value: string): string | undefined {
  const text = value.trim();
  return /^\d{1,3}$/.test(text) && Number(text) <= HOLD_DAYS_MAX ? undefined : sellerMessages.holdDaysInvalid;
}

/** A payout's bank reference, once trimmed: 1 to 100 characters. */
export function payoutReferenceProblem(value: string): string | undefined {
  const reference = value.trim();
  return reference.length < 1 || reference.length > PAYOUT_REFERENCE_MAX ? sellerMessages.referenceInvalid : undefined;
}
