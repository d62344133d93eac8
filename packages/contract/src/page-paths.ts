// The store's pages by key and route (SPEC §2): the half of the page table that the web app's router
// needs. The other half, each page's head, is in pages.ts, which only the server reads: kept apart,
// the titles and descriptions of every page stay out of the web app's first chunk (decision 027). No zod.

/** Each page's route, as the router writes it: `:name` is one path segment, a final `*` any rest of the path. */
export const PAGE_PATHS = {
  home: '/',
  store: '/store',
  game: '/game/:id',
  cart: '/cart',
  pay: '/pay/:orderId',
  // An order or a gift reached by the link its mail carries (issue 29): `?token=` opens it without an account.
  order: '/orders/:id',
  gift: '/gifts/:id',
  library: '/library',
  wishlist: '/wishlist',
  // One click from an alert mail's footer (issue 31): `?token=` names the account.
  'alerts-unsubscribe': '/alerts/unsubscribe',
  profile: '/profile',
  support: '/support',
  news: '/news',
  'news-item': '/news/:id',
  // The back office (issue 15): one page for every /admin address, whose sections the page routes itself.
  admin: '/admin/*',
  // The marketplace's seller area (issue 23): one page for every /seller address, whose sections the page routes itself.
  seller: '/seller/*',
  'confirm-email': '/confirm-email',
  // These two open their dialog over the home page (SPEC §2: /reset-password; §4: /login after a 401).
  login: '/login',
  'reset-password': '/reset-password',
  terms: '/terms',
  'cookie-policy': '/cookie-policy',
  'privacy-policy': '/privacy-policy',
} as const;

export type PageKey = keyof typeof PAGE_PATHS;
export const PAGE_KEYS = Object.keys(PAGE_PATHS) as PageKey[];

/** Where the build keeps a page's module, so the manifest names its chunk by the page's key. */
export function pageModule(key: PageKey): string {
  return `src/pages/${key}.tsx`;
}
