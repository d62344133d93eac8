// The contract's public surface: every schema, rule, message and constant both apps share.
//
// Each area is two files: `<area>-rules.ts` (or rules.ts, constants.ts, messages.ts) holds its
// constants, texts and rule functions without zod, and is imported anywhere, the web app's initial
// chunk included, through its own path (`@keystore/contract/news-rules`); `<area>.ts` holds the zod
// schemas of the API's requests and answers, imported where parsing happens (the server, tests).
// This index re-exports both for the server and for `import type` in the web app.

// Zod-free: constants, messages and rules.
export * from './constants.ts';
export * from './messages.ts';
export * from './rules.ts';
export * from './text-rules.ts';
export * from './email-domains.ts';
export * from './catalog-rules.ts';
export * from './payment-rules.ts';
export * from './support-rules.ts';
export * from './notification-rules.ts';
export * from './news-rules.ts';
export * from './pages.ts';
export * from './admin-rules.ts';
export * from './seller-rules.ts';
export * from './risk-rules.ts';
export * from './security-rules.ts';
export * from './wishlist-rules.ts';
export * from './activation-rules.ts';

// Zod schemas of requests and answers.
export * from './fields.ts';
export * from './health.ts';
export * from './catalog.ts';
export * from './accounts.ts';
export * from './orders.ts';
export * from './support.ts';
export * from './notifications.ts';
export * from './news.ts';
export * from './admin.ts';
export * from './sellers.ts';
export * from './seller-delivery-rules.ts';
export * from './seller-delivery.ts';
export * from './claim-rules.ts';
export * from './claims.ts';
export * from './gift-rules.ts';
export * from './gifts.ts';
export * from './risk.ts';
export * from './security.ts';
export * from './wishlist.ts';
