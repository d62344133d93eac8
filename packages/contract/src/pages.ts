// The store's pages (SPEC §2), written once: the web app's router makes one route of each, and the
// server gives each the head it serves before the app takes over (title, description, indexing) and
// preloads the page's chunk, which the build manifest names by the page's key (DESIGN §3). The keys
// and routes are page-paths.ts, which the router imports alone (decision 027); this file adds the
// heads, which must name every page and no other. No zod.
import { PAGE_KEYS, PAGE_PATHS, type PageKey } from './page-paths.ts';

export { PAGE_KEYS, PAGE_PATHS, pageModule, type PageKey } from './page-paths.ts';

/** What the server serves of a page before the app takes over. */
export interface PageHeadTexts {
  /** The title and description the server serves; a page about one thing (a game, a news item) replaces them with its own. */
  title: string;
  description: string;
  /** Whether search engines may list it (and the sitemap carries it). */
  indexed: boolean;
}

export interface PageEntry extends PageHeadTexts {
  /** The route, as the router writes it (page-paths.ts). */
  path: string;
}

const ADMIN_DESCRIPTION = 'The store’s back office.';

const HEADS = {
  home: {
    title: 'Keystore: digital game keys for PC, Xbox, PlayStation and Nintendo',
    description: 'Game keys, DLC and gift cards at fair prices in euro, delivered to your library within one business day.',
    indexed: true,
  },
  store: {
    title: 'Store · Keystore',
    description: 'Browse thousands of game keys, DLC and gift cards. Filter by platform, genre, region and language.',
    indexed: true,
  },
  game: { title: 'Game · Keystore', description: 'A game key at Keystore.', indexed: true },
  cart: { title: 'Cart · Keystore', description: 'Your cart at Keystore.', indexed: false },
  pay: { title: 'Payment · Keystore', description: 'Pay for your Keystore order.', indexed: false },
  order: { title: 'Your order · Keystore', description: 'Your Keystore order and its keys.', indexed: false },
  gift: { title: 'Your gift · Keystore', description: 'A game someone sent you on Keystore, and its key.', indexed: false },
  library: { title: 'Library · Keystore', description: 'Your purchased games and their keys.', indexed: false },
  wishlist: { title: 'Wishlist · Keystore', description: 'The games you wished for, their prices and your alerts.', indexed: false },
  'alerts-unsubscribe': { title: 'Alert e-mails · Keystore', description: 'Turn off price and stock alert e-mails.', indexed: false },
  profile: { title: 'Profile · Keystore', description: 'Your Keystore account.', indexed: false },
  support: {
    title: 'Support · Keystore',
    description: 'Write to Keystore support or ask our AI assistant about refunds, delivery, payment and keys.',
    indexed: true,
  },
  news: { title: 'News · Keystore', description: 'New arrivals, price drops and store news from Keystore.', indexed: true },
  'news-item': { title: 'News · Keystore', description: 'Store news from Keystore.', indexed: true },
  // The back office: admins only, never indexed, and anyone else gets the 404 page.
  admin: { title: 'Back office · Keystore', description: ADMIN_DESCRIPTION, indexed: false },
  seller: { title: 'Sell on Keystore · Keystore', description: 'Sell your game keys on Keystore: offers, keys, sales and payouts.', indexed: false },
  'confirm-email': { title: 'Confirm your email · Keystore', description: 'Confirming the email address of your Keystore account.', indexed: false },
  login: { title: 'Login · Keystore', description: 'Log in to your Keystore account.', indexed: false },
  'reset-password': { title: 'Reset password · Keystore', description: 'Choose a new password for your Keystore account.', indexed: false },
  terms: { title: 'Terms & Conditions · Keystore', description: 'The terms of sale of Keystore Digital Ltd.', indexed: true },
  'cookie-policy': { title: 'Cookie Policy · Keystore', description: 'Which cookies Keystore uses and how to change your consent.', indexed: true },
  'privacy-policy': { title: 'Privacy Policy · Keystore', description: 'How Keystore handles your personal data.', indexed: true },
} as const satisfies Record<PageKey, PageHeadTexts>;

/** Each page's route and head. */
export const PAGES = Object.fromEntries(PAGE_KEYS.map((key) => [key, { path: PAGE_PATHS[key], ...HEADS[key] }])) as {
  [Key in PageKey]: (typeof HEADS)[Key] & { path: (typeof PAGE_PATHS)[Key] };
};

const SEGMENT = /^:[A-Za-z]+$/;
/** What a parameter may be: an id or a slug, never a path or an escape. */
const PARAMETER = /^[A-Za-z0-9_-]{1,64}$/;

/** The page a path shows, with its parameters; undefined for a path no page has (the 404 page). */
export function matchPage(pathname: string): { key: PageKey; params: Record<string, string> } | undefined {
  const parts = pathname.split('/').filter(Boolean);
  for (const key of PAGE_KEYS) {
    const pattern = PAGE_PATHS[key].split('/').filter(Boolean);
    const rest = pattern.at(-1) === '*';
    if (rest) pattern.pop();
    if (rest ? parts.length < pattern.length : pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((segment, n) => {
      if (!SEGMENT.test(segment)) return segment === parts[n];
      params[segment.slice(1)] = parts[n]!;
      return PARAMETER.test(parts[n]!);
    });
    if (matches) return { key, params };
  }
  return undefined;
}
