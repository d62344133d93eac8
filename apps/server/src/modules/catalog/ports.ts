// What other modules may use of the catalog module (eslint.config.js lets them import only this file).
export type { CatalogService } from './service.ts';
export { coverUrl } from './cover-art.ts';
export type { GameStockRows, HouseOnlyTake, LockedGame, MarketColumns } from './game-stock.ts';
// The read model of a game (decision 033).
export { gameFacts, priceMoves } from './schema.ts';
