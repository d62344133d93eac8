/**
 * Business constants shared by the server and the web app (SPEC.md §9, DESIGN.md §4).
 * Both sides import them from here; nobody re-declares them. What only the web app uses (delays,
 * breakpoints, its storage keys, display labels) lives in apps/web, beside the code that uses it.
 */

export const STORE_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const MAX_SEARCH_LENGTH = 200;
export const SEARCH_RESULTS_LIMIT = 50;
export const QUICK_SEARCH_LIMIT = 8;
export const TOP_SALES_COUNT = 10;

/** Product types ("Category" in the store's filter). Books and Merchandise are named by the filter list too. */
export const CATEGORIES = ['Games', 'DLC', 'Gift Cards', 'Books', 'Merchandise'] as const;
export type Category = (typeof CATEGORIES)[number];
/** The filter's "All" entry: no category restriction. */
export const ALL_CATEGORIES = 'All';

export const PLATFORMS = [
  'PC',
  'Xbox One',
  'Xbox Series X',
  'Xbox Series S',
  'Xbox 360',
  'PS4',
  'PS5',
  'PS3',
  'Nintendo Switch',
  'Nintendo Wii',
  'Nintendo 3DS',
  'Origin',
  'Steam',
  'GOG',
] as const;
export type Platform = (typeof PLATFORMS)[number];

/** URL slugs of SPEC §3, plus `steam`, which the slug list leaves out. */
export const PLATFORM_SLUGS: Record<string, Platform> = {
  pc: 'PC',
  'xbox-one': 'Xbox One',
  'xbox-series-x': 'Xbox Series X',
  'xbox-series-s': 'Xbox Series S',
  'xbox-360': 'Xbox 360',
  ps4: 'PS4',
  ps5: 'PS5',
  ps3: 'PS3',
  'nintendo-switch': 'Nintendo Switch',
  'nintendo-wii': 'Nintendo Wii',
  'nintendo-3ds': 'Nintendo 3DS',
  origin: 'Origin',
  steam: 'Steam',
  gog: 'GOG',
};

/** The store's platform tabs and the platforms each groups (SPEC §2, Store). */
export const PLATFORM_GROUPS: ReadonlyArray<{ label: string; platforms: readonly Platform[] }> = [
  { label: 'PC', platforms: ['PC', 'Origin', 'Steam', 'GOG'] },
  { label: 'XBOX', platforms: ['Xbox One', 'Xbox Series X', 'Xbox Series S', 'Xbox 360'] },
  { label: 'PSN', platforms: ['PS4', 'PS5', 'PS3'] },
  { label: 'Nintendo', platforms: ['Nintendo Switch', 'Nintendo Wii', 'Nintendo 3DS'] },
];

export const GENRES = ['Action', 'RPG', 'Strategy', 'Sports', 'Adventure'] as const;
export type Genre = (typeof GENRES)[number];

export const REGIONS = ['Europe', 'US', 'Asia', 'Global'] as const;
export type Region = (typeof REGIONS)[number];

export const LANGUAGES = ['English', 'Spanish', 'French', 'German', 'Japanese'] as const;
export type Language = (typeof LANGUAGES)[number];

export const PEGI_RATINGS = [3, 7, 12, 16, 18] as const;

export const SORTS = ['popularity', 'price-asc', 'price-desc', 'newest'] as const;
export type Sort = (typeof SORTS)[number];
export const DEFAULT_SORT: Sort = 'popularity';

/** The five catalogue filters, their query parameter names and their known values, in display order. */
export const FILTERS = {
  category: CATEGORIES,
  platform: PLATFORMS,
  genre: GENRES,
  region: REGIONS,
  language: LANGUAGES,
} as const;
export type FilterName = keyof typeof FILTERS;
export const FILTER_NAMES = Object.keys(FILTERS) as FilterName[];

/**
 * The shop's support address when SUPPORT_EMAIL is not configured. The server's configuration is the
 * one value: mails use it, and every page it serves carries it (STORE_META.supportEmail), so the
 * footer and the legal pages show the address the shop configured.
 */
export const DEFAULT_SUPPORT_EMAIL = 'support@keystore.example';
/** The shop's support hours (SPEC §1), shown in the footer and the legal pages. */
export const SUPPORT_HOURS = '10:00–22:00 UK time';

/** Names of the meta tags in which the server hands its configuration to the web app. */
export const STORE_META = { supportEmail: 'keystore:support-email' } as const;

/** Accounts (SPEC §5, §9, issue 4): lengths, codes, delays of the auth dialogs. */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 20;
export const PASSWORD_MIN_LENGTH = 6;
/** From this length a password is a passphrase and needs no uppercase letter (issue 13, decision 017). */
export const PASSPHRASE_MIN_LENGTH = 16;
/** Above this a password is refused before hashing, so nobody can make the server hash megabytes. */
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;
export const CODE_LENGTH = 6;
export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_ATTEMPTS = 5;
export const RESEND_LOCK_SECONDS = 30;
export const RESET_TOKEN_TTL_MINUTES = 30;
export const AVATAR_MAX_BYTES = 5_242_880;

export const ROLES = ['customer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Membership tiers by total spend in euro (SPEC §4): a tier holds from its `from` up to the next one's. */
export const MEMBERSHIP_TIERS = [
  { name: 'Key Newb', from: 0 },
  { name: 'Bundle Raider', from: 100 },
  { name: 'Loot Veteran', from: 250 },
  { name: 'Deal Architect', from: 400 },
  { name: 'Cart King', from: 800 },
] as const;
export type Membership = (typeof MEMBERSHIP_TIERS)[number]['name'];

/** The tier a customer holds after spending `totalSpent` euro. */
export function membershipFor(totalSpent: number): Membership {
  let tier: Membership = MEMBERSHIP_TIERS[0].name;
  for (const candidate of MEMBERSHIP_TIERS) if (totalSpent >= candidate.from) tier = candidate.name;
  return tier;
}

/** Orders and payment (issue 5, DESIGN §4): how long an unpaid order holds its keys, and the order's limits. */
export const ORDER_TTL_MINUTES = 30;
export const ORDER_MAX_LINES = 50;
export const ORDER_LINE_MAX_QUANTITY = 10;
/**
 * What may wait for payment at once (issue 13, decision 016): every unpaid order holds its keys for up
 * to 30 minutes, so one customer, or one address with many throwaway accounts, must not be able to
 * empty the shelf. Paid orders never count: a customer buys as much as they like, a batch at a time.
 * Per account: orders, and keys over all of them; no game more than one line's worth (ORDER_LINE_MAX_QUANTITY).
 */
export const MAX_UNPAID_ORDERS = 3;
export const MAX_UNPAID_KEYS = 20;
/** Per client address (an IPv6 client's /64): room for a household or an office sharing one address. */
export const MAX_UNPAID_ORDERS_PER_ADDRESS = 10;
export const MAX_UNPAID_KEYS_PER_ADDRESS = 60;
/** Every purchase is in euro (SPEC §1). */
export const ORDER_CURRENCY = 'EUR';
/** The terms: a refund is possible within 30 days (SPEC §1). */
export const REFUND_WINDOW_DAYS = 30;

/** The other figures of the terms (SPEC §1), written once for the support assistant and the AI's prompt. */
export const REFUND_PROCESSING_BUSINESS_DAYS = 7;
export const DELIVERY_MAX_BUSINESS_DAYS = 1;
export const SUPPORT_REPLY_HOURS = 24;
export const SUPPORT_RESOLUTION_BUSINESS_DAYS = 5;
export const MINIMUM_AGE = 18;
export const CATALOGUE_REFRESH_HOURS = 4;

/**
 * 'Cancelled': the customer closed it unpaid (POST /api/orders/{id}/cancel), and its keys went back at once.
 * 'In review' (issue 29): the payment is authorised, not charged, and the risk desk holds the order until
 * the owner (or the review deadline) approves it (Paid) or cancels it (Cancelled, the hold released).
 * 'Disputed' (issue 29): the card's holder disputed the payment and the card network took the money back;
 * the order's unrevealed keys were taken back.
 */
export const ORDER_STATUSES = ['Awaiting payment', 'In review', 'Paid', 'Declined', 'Expired', 'Cancelled', 'Refunded', 'Disputed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** 'Pending' until the keys are in (or the order ends unpaid); SPEC §4 shows anything but 'Delivered' as not delivered. */
export const DELIVERY_STATUSES = ['Pending', 'Delivered', 'Not delivered'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const PAYMENT_PROVIDERS = ['test', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/**
 * POST /api/orders takes an Idempotency-Key (issue 12, decision 015): the same key with the same
 * items answers the order it placed the first time, so a checkout retried after a lost answer
 * never reserves its keys twice. 1 to 200 printable ASCII characters; the web app sends a UUID.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;

/**
 * The built-in test gateway's cards (DESIGN §4, issue 5), digits only. Any future expiry, any
 * 3-digit CVC. Any other card that passes the Luhn check is declined as an unknown test card.
 */
export const TEST_CARDS = {
  pays: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

/** Support (SPEC §5, §9): the form's and the chat's limits. */
export const SUPPORT_MESSAGE_MAX_LENGTH = 450;
export const SUPPORT_NAME_MAX_LENGTH = 100;
export const SUPPORT_TITLE_MAX_LENGTH = 150;
/** How many earlier chat messages the web app sends and the server reads: enough for a follow-up question, short enough for a small prompt. */
export const CHAT_CONTEXT_MESSAGES = 10;
/** How long one earlier chat message may be (bot answers run longer than the 450 a customer may type). */
export const CHAT_CONTEXT_TEXT_MAX_LENGTH = 4000;
