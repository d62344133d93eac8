// What other modules may use of the wishlist module (eslint.config.js lets them import only this file).
export type { WishlistService } from './service.ts';
