/**
 * Where the browser keeps the web app's state (SPEC §3, local storage): product-specific keys,
 * versioned. Only the web app reads them (and the browser journeys in e2e/, which look inside).
 */
export const STORAGE_KEYS = {
  cart: 'keystore.cart.v1',
  token: 'keystore.token',
  sessionId: 'keystore.sessionId',
  readNotifications: 'keystore.readNotifications',
  cookieConsent: 'keystore.cookieConsent.v1',
  /** A visitor's wished games (game id → when wished), joined to the account at sign-in. */
  wishlist: 'keystore.wishlist.v1',
} as const;
