// The catalogue's side of stock (decision 031): the games row is the catalogue's, so every write to it
// is here, asked for by the offers module, which alone decides what moves: the house's reservations
// (`reserved`, and `supplier_stock` once keys were bought) and the market columns, the sellers' best
// price and their keys in all. Each method joins the caller's transaction. What a game shows is worked
// out from these columns by SHOWN_STOCK and SHOWN_PRICE, which the catalogue's index reads too.
import { and, eq, sql } from 'drizzle-orm';
import { inList, queryRows, type Db } from '../../db/client.ts';
import type { GameStock } from '../../platform/events.ts';
import { games } from './schema.ts';

/** What a game shows: the house's stock (none once it left the feed) and every seller's. */
export const SHOWN_STOCK = sql.raw(`(case when g.active then g.stock else 0 end + g.market_stock)`);
/** What a game shows: the best offer's price, the house's unless a seller's is cheaper or the house has none to sell. */
export const SHOWN_PRICE = sql.raw(
  `(case when g.market_price_cents is not null and (g.market_price_cents < g.price_cents or not g.active or g.stock = 0) then g.market_price_cents else g.price_cents end)`,
);

/** A game as a reservation reads it under its row's lock. */
export interface LockedGame {
  id: string;
  title: string;
  image: string | null;
  platform: string;
  priceCents: number;
  supplierPriceCents: number;
  supplierProductId: string;
  stock: number;
  active: boolean;
  hidden: boolean;
  marketStock: number;
  createdAt: Date;
}

/** What the one-statement take of a game only the house sells answers: the game's snapshot, and what it shows after. */
export interface HouseOnlyTake extends Pick<LockedGame, 'id' | 'title' | 'image' | 'platform' | 'priceCents' | 'supplierPriceCents' | 'supplierProductId'> {
  shownStock: number;
  shownPrice: number;
}

/** The market of a game: the cheapest sellable seller offer (null for none) and the sellers' keys in all. */
export interface MarketColumns {
  gameId: string;
  priceCents: number | null;
  stock: number;
}

export class GameStockRows {
  /**
   * Locks games rows in id order, the lock an UPDATE takes (not FOR UPDATE: the key-share locks of
   * foreign keys, order lines and keys written for these games elsewhere, must not wait on it, nor it
   * on them). Every writer of offers over games on sale takes the games first, as placement does, so
   * the two orders never meet in a deadlock.
   */
  async lock(tx: Db, gameIds: Iterable<string>): Promise<void> {
    const ids = [...new Set(gameIds)].sort();
    if (ids.length > 0) await tx.execute(sql`select id from games where id in ${inList(ids)} order by id for no key update`);
  }

  /** Locks one game's row and answers what a reservation needs of it, or undefined for no such game. */
  async lockGame(tx: Db, gameId: string): Promise<LockedGame | undefined> {
    const [game] = await tx
      .select({
        id: games.id,
        title: games.title,
        image: games.image,
        platform: games.platform,
        priceCents: games.priceCents,
        supplierPriceCents: games.supplierPriceCents,
        supplierProductId: games.supplierProductId,
        stock: games.stock,
        active: games.active,
        hidden: games.hidden,
        marketStock: games.marketStock,
        createdAt: games.createdAt,
      })
      .from(games)
      .where(eq(games.id, gameId))
      .for('no key update');
    return game;
  }

  /** A game's row as the house's offer reads it, unlocked; undefined for no such game. */
  async houseRow(db: Db, gameId: string): Promise<Omit<LockedGame, 'title' | 'image' | 'platform' | 'supplierProductId' | 'marketStock'> | undefined> {
    const [game] = await db
      .select({ id: games.id, priceCents: games.priceCents, supplierPriceCents: games.supplierPriceCents, stock: games.stock, active: games.active, hidden: games.hidden, createdAt: games.createdAt })
      .from(games)
      .where(eq(games.id, gameId));
    return game;
  }

  /**
   * The usual purchase in one statement, as before the marketplace: a game no seller has keys of, whose
   * house stock covers `quantity`, is reserved at once; the conditional update never oversells.
   * Answers undefined when the game is not such a one (the caller weighs every offer then).
   */
  async takeHouseOnly(tx: Db, gameId: string, quantity: number): Promise<HouseOnlyTake | undefined> {
    const [row] = await queryRows<HouseOnlyTake>(
      tx,
      sql`update games g set reserved = g.reserved + ${quantity}
          where g.id = ${gameId} and g.active and not g.hidden and g.stock >= ${quantity} and g.market_stock = 0
          returning g.id, g.title, g.image, g.platform, g.price_cents as "priceCents", g.supplier_price_cents as "supplierPriceCents",
            g.supplier_product_id as "supplierProductId", ${SHOWN_STOCK} as "shownStock", ${SHOWN_PRICE} as "shownPrice"`,
    );
    return row;
  }

  /** Reserves `quantity` of the house's stock of a game (on sale, when `onSale`); answers whether it had them. */
  async takeHouseStock(tx: Db, gameId: string, quantity: number, onSale = false): Promise<boolean> {
    const taken = await tx
      .update(games)
      .set({ reserved: sql`${games.reserved} + ${quantity}` })
      .where(and(eq(games.id, gameId), sql`${games.stock} >= ${quantity}`, onSale ? and(eq(games.active, true), eq(games.hidden, false)) : undefined))
      .returning({ id: games.id });
    return taken.length > 0;
  }

  /**
   * Ends reservations of the house's stock, per game (in id order): given back (`bought` false), or
   * bought from the supplier (`bought`), when they leave its quantity with our reservation, so the
   * number that can be sold does not move until the next sync says what it has left.
   */
  async endHouseTakes(tx: Db, quantities: Map<string, number>, bought: boolean): Promise<void> {
    for (const gameId of [...quantities.keys()].sort()) {
      const quantity = quantities.get(gameId)!;
      if (quantity <= 0) continue;
      await tx
        .update(games)
        .set({
          reserved: sql`greatest(${games.reserved} - ${quantity}, 0)`,
          ...(bought ? { supplierStock: sql`greatest(${games.supplierStock} - ${quantity}, 0)` } : {}),
        })
        .where(eq(games.id, gameId));
    }
  }

  /** Writes games' market columns (their rows locked by the caller); answers each game's shown stock and price. */
  async writeMarket(tx: Db, markets: MarketColumns[]): Promise<GameStock[]> {
    if (markets.length === 0) return [];
    return queryRows<GameStock>(
      tx,
      sql`update games g set market_price_cents = m.price, market_stock = m.stock, updated_at = now()
          from (select unnest(${sql`array[${sql.join(markets.map((m) => sql`${m.gameId}`), sql`, `)}]::text[]`}) as id,
                       unnest(${sql`array[${sql.join(markets.map((m) => sql`${m.priceCents}`), sql`, `)}]::int[]`}) as price,
                       unnest(${sql`array[${sql.join(markets.map((m) => sql`${m.stock}`), sql`, `)}]::int[]`}) as stock) m
          where g.id = m.id
          returning g.id as "gameId", ${SHOWN_STOCK} as stock, ${SHOWN_PRICE} as "priceCents"`,
    );
  }

  /** A game's title (a refusal names it), whether or not it is on sale. */
  async title(db: Db, gameId: string): Promise<string | undefined> {
    const [game] = await db.select({ title: games.title }).from(games).where(eq(games.id, gameId));
    return game?.title;
  }

  /** A game in the store (not hidden): its title, or undefined. */
  async inStore(db: Db, gameId: string): Promise<{ title: string } | undefined> {
    const [row] = await db.select({ title: games.title }).from(games).where(and(eq(games.id, gameId), eq(games.hidden, false)));
    return row;
  }
}
