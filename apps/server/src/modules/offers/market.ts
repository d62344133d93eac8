// The market columns of the catalogue's games rows follow every change of offers and keys in the same
// transaction: the games rows are locked first (in id order, as placement takes them), the offers
// read, and the catalogue asked to write what they make (decision 031).
import type { Db } from '../../db/client.ts';
import type { GameStock } from '../../platform/events.ts';
import type { GameStockRows } from '../catalog/ports.ts';
import { marketsOf } from './store.ts';

export class Market {
  readonly games: GameStockRows;

  constructor(games: GameStockRows) {
    this.games = games;
  }

  /** Locks games rows in id order, before any offer of theirs is written (placement's order). */
  lock(tx: Db, gameIds: Iterable<string>): Promise<void> {
    return this.games.lock(tx, gameIds);
  }

  /** Rewrites these games' market columns from their offers; answers each game's shown stock and price. */
  async refresh(tx: Db, gameIds: Iterable<string>): Promise<GameStock[]> {
    const ids = [...new Set(gameIds)].sort();
    if (ids.length === 0) return [];
    await this.games.lock(tx, ids);
    return this.games.writeMarket(tx, await marketsOf(tx, ids));
  }
}
