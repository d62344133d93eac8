// What other modules may use of the sellers module (eslint.config.js lets them import only this file).
export type { SellersService } from './service.ts';
export type { MarketOffer, SellerRow } from './store.ts';
export { bestOfferFirst, insertKeys, lockGames, marketOffers, OFFER_STOCK, refreshMarket, sealedSellerKeys, releaseLineKeys, reserveKeys, restockKeys, sellLineKeys, soldKeysOfLines, SHOWN_PRICE, SHOWN_STOCK } from './store.ts';
export { gameOfHouseOffer, houseOfferId } from './house.ts';
export { sellerGuards, SELLER_API } from './routes.ts';
export { houseMarketOffer } from './house.ts';
