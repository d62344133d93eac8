// The store-busy text, apart from messages.ts: every page's first chunk shows it, and a chunk that
// imports a file carries all of it (`@keystore/contract/load-messages`, decision 027).

/** What any call may answer when the store sheds load (503 with Retry-After), and what the web app shows. */
export const loadMessages = {
  storeBusy: 'The store is busy, try again in a moment',
  /** A heart on a game card could not change the wishlist and gives no reason (no answer). */
  wishlistUnchanged: 'Your wishlist could not be changed. Try again in a moment.',
} as const;
