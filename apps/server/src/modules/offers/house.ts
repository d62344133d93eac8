// The house seller's offer of a game: the games row itself (the supplier's feed, priced with the
// markup or the owner's override, its stock the supplier's less our reservations). Its id is the game's
// with an `h` in front, so a cart line can name it like any seller's offer.
import { HOUSE_SELLER_ID, HOUSE_SELLER_NAME, SCORE_PRIOR } from '@keystore/contract';
import type { Db } from '../../db/client.ts';
import type { GameStockRows } from '../catalog/ports.ts';
import type { MarketOffer } from './store.ts';

export const houseOfferId = (gameId: string) => `h${gameId}`;
/** The game a house offer id names, or undefined for a seller's offer id. */
export const gameOfHouseOffer = (offerId: string) => (offerId.startsWith('h') && offerId.length === 17 ? offerId.slice(1) : undefined);

/** The house's offer of a game when it has keys to sell; 'missing' for a game not in the store. */
export async function houseOffer(gameStock: GameStockRows, db: Db, gameId: string): Promise<MarketOffer | undefined | 'missing'> {
  const game = await gameStock.houseRow(db, gameId);
  if (!game || game.hidden) return 'missing';
  if (!game.active || game.stock <= 0) return undefined;
  return houseMarketOffer(game);
}

/** The house's offer of a game read from its row: the supplier's stock at the store's price, a new seller's score. */
export function houseMarketOffer(game: { id: string; priceCents: number; supplierPriceCents: number; stock: number; createdAt: Date }): MarketOffer {
  return {
    offerId: houseOfferId(game.id),
    sellerId: HOUSE_SELLER_ID,
    sellerName: HOUSE_SELLER_NAME,
    priceCents: game.priceCents,
    netPriceCents: game.supplierPriceCents,
    stock: game.stock,
    createdAt: game.createdAt.getTime(),
    delivery: 'supplier',
    score: SCORE_PRIOR,
  };
}
