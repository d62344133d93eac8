// The wishlist's, the alerts' and the price history's requests and answers (issue 31).
import { z } from 'zod';
import { gameListItemSchema } from './catalog.ts';
import { idField } from './fields.ts';
import { catalogMessages } from './messages.ts';
import { wishlistMessages, WISHLIST_MAX_ITEMS } from './wishlist-rules.ts';

export const wishlistAlertsSchema = z
  .object({
    priceDrop: z.boolean(),
    /** Euro; null: alert at 10 % below the price when wished for. */
    targetPrice: z.number().nullable(),
    backInStock: z.boolean(),
  })
  .meta({ id: 'WishlistAlerts' });
export type WishlistAlerts = z.infer<typeof wishlistAlertsSchema>;

export const wishlistItemSchema = z
  .object({
    gameId: z.string(),
    /** The game as the store lists it now (its price is the current price). */
    game: gameListItemSchema,
    addedAt: z.string(),
    /** Euro: the shown price when the game was wished for. */
    priceAtAdd: z.number(),
    alerts: wishlistAlertsSchema,
  })
  .meta({ id: 'WishlistItem' });
export type WishlistItem = z.infer<typeof wishlistItemSchema>;

export const wishlistGameParamsSchema = z.object({ gameId: idField(catalogMessages.gameNotFound) });

export const wishlistSchema = z.array(wishlistItemSchema).meta({ id: 'Wishlist' });

const targetPrice = z
  .number({ error: wishlistMessages.targetPriceInvalid })
  .positive(wishlistMessages.targetPriceInvalid)
  .max(100_000, wishlistMessages.targetPriceInvalid)
  .refine((euro) => Number.isInteger(Math.round(euro * 100)) && Math.abs(euro * 100 - Math.round(euro * 100)) < 1e-6, wishlistMessages.targetPriceInvalid);

export const wishBodySchema = z
  .object({ priceDrop: z.boolean().optional(), targetPrice: targetPrice.nullable().optional(), backInStock: z.boolean().optional() })
  .strict()
  .meta({ id: 'WishBody' });
export type WishBody = z.infer<typeof wishBodySchema>;

/** What a visitor wished for in the browser, joined to the account at sign-in. */
export const wishlistMergeSchema = z
  .object({
    items: z
      .array(z.object({ gameId: idField(catalogMessages.gameNotFound), addedAt: z.iso.datetime({ offset: true }).optional() }).strict())
      .max(WISHLIST_MAX_ITEMS),
  })
  .strict()
  .meta({ id: 'WishlistMerge' });
export type WishlistMerge = z.infer<typeof wishlistMergeSchema>;

export const alertPreferencesSchema = z.object({ email: z.boolean() }).strict().meta({ id: 'AlertPreferences' });
export type AlertPreferences = z.infer<typeof alertPreferencesSchema>;

export const unsubscribeQuerySchema = z.object({ token: z.string().max(400).optional() });

export const pricePointSchema = z.object({ date: z.string(), price: z.number() }).meta({ id: 'PricePoint' });
export const priceSeriesSchema = z.array(pricePointSchema).meta({ id: 'PriceSeries' });
export type PriceSeries = z.infer<typeof priceSeriesSchema>;

/** Where the visitor seems to be (issue 31): the country, from the address or the browser's language, and its region; null when it cannot be told. */
export const visitorPlaceSchema = z
  .object({ country: z.string().nullable(), region: z.enum(['Europe', 'US', 'Asia']).nullable() })
  .meta({ id: 'VisitorPlace' });
export type VisitorPlace = z.infer<typeof visitorPlaceSchema>;
