// What other modules may use of the sellers module (eslint.config.js lets them import only this file).
export type { SellersService } from './service.ts';
export type { SellerRow } from './store.ts';
export { confirmedIdentity, IDENTITY_GUESSES, sellerGuards, SELLER_API } from './routes.ts';
// The read model of a seller (decision 033).
export { sellerFacts } from './schema.ts';
