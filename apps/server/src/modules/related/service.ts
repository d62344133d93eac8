// "Customers also bought" (issue 31): the games paid for in the same orders as a game, filled up with
// games of its genre and platform; each in stock and shown by the store, never the game itself, once.
// What was bought together is read from the orders module and kept a few minutes per game; whether a
// game is in stock or hidden is asked of the catalogue at every answer.
import { LRUCache } from 'lru-cache';
import { catalogMessages, type GameListItem } from '@keystore/contract';
import { NotFound } from '../../platform/errors.ts';
import type { CatalogService } from '../catalog/ports.ts';
import type { OrdersService } from '../orders/ports.ts';

/** How many games the row shows. */
export const RELATED_LIMIT = 8;
/** Orders paid this many days back count as bought together. */
const TOGETHER_DAYS = 180;
/** What was bought together with a game is read again after this long. */
const TOGETHER_KEPT_MS = 10 * 60_000;

export class RelatedGames {
  private readonly catalog: CatalogService;
  private readonly orders: OrdersService;
  private readonly together = new LRUCache<string, string[]>({ max: 5_000, ttl: TOGETHER_KEPT_MS });

  constructor(deps: { catalog: CatalogService; orders: OrdersService }) {
    this.catalog = deps.catalog;
    this.orders = deps.orders;
  }

  /** Up to 8 games for the game page's and the cart's "You may also like"; 404 for a game the store does not show. */
  async of(gameId: string): Promise<GameListItem[]> {
    if (!this.catalog.listItems([gameId]).has(gameId)) throw new NotFound(catalogMessages.gameNotFound);
    let ids = this.together.get(gameId);
    if (!ids) {
      ids = await this.orders.boughtWith(gameId, TOGETHER_DAYS, RELATED_LIMIT * 3);
      this.together.set(gameId, ids);
    }
    const picked = new Map<string, GameListItem>();
    const bought = this.catalog.listItems(ids);
    for (const item of [...ids.flatMap((id) => bought.get(id) ?? []), ...this.catalog.similar(gameId, RELATED_LIMIT)]) {
      if (item._id !== gameId && item.stock > 0 && !picked.has(item._id) && picked.size < RELATED_LIMIT) picked.set(item._id, item);
    }
    return [...picked.values()];
  }
}
