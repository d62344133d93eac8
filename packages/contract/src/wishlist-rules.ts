// The wishlist, its alerts and a game's price history (issue 31), without zod: limits, thresholds,
// texts and the 30-day-lowest rule, shared by the server and the web app
// (`@keystore/contract/wishlist-rules`).

/** A wishlist holds at most this many games. */
export const WISHLIST_MAX_ITEMS = 200;
/** A price-drop alert needs the price this many percent below the price when the game was wished for. */
export const PRICE_DROP_PERCENT = 10;
/** At most one alert per user and game in this many days. */
export const ALERT_COOLDOWN_DAYS = 7;
/** The game page's chart covers this many days. */
export const PRICE_HISTORY_DAYS = 90;
/** The EU's reference for an announced price reduction: the lowest price in this many days before it. */
export const LOWEST_PRICE_DAYS = 30;

export const wishlistMessages = {
  full: `Your wishlist holds at most ${WISHLIST_MAX_ITEMS} games. Remove one to add another.`,
  targetPriceInvalid: 'Enter a target price above €0.00',
  unsubscribeInvalid: 'This unsubscribe link is not valid',
  unsubscribed: 'You will get no more price and stock alert e-mails. Turn them back on in your profile.',
  added: 'Added to your wishlist',
  removed: 'Removed from your wishlist',
  empty: 'Your wishlist is empty',
  emptyHint: 'Tap the heart on any game to keep it here. We tell you when its price drops or it is back in stock.',
} as const;

export const wishlistAlertTexts = {
  priceDrop: (title: string, from: string, to: string) => ({ title: `Price drop: ${title}`, text: `${title} is now ${to} (was ${from}).` }),
  backInStock: (title: string, price: string) => ({ title: `Back in stock: ${title}`, text: `${title} is back in stock at ${price}.` }),
};

/** Whether a price is low enough for a price-drop alert: below the target when one is set, else 10 % below the price when wished for. */
export function priceDropReached(priceCents: number, priceAtAddCents: number, targetPriceCents: number | null): boolean {
  if (targetPriceCents !== null) return priceCents <= targetPriceCents;
  return priceCents * 100 <= priceAtAddCents * (100 - PRICE_DROP_PERCENT);
}

export interface PriceSeriesPoint {
  /** ISO 8601. */
  date: string;
  /** Euro. */
  price: number;
}

/**
 * The lowest price in the 30 days before the current price began (the EU's rule for announcing a
 * reduction), from a series in time order whose last point is the current price; the current price
 * when the series knows nothing earlier.
 */
export function lowestPriceBefore(series: readonly PriceSeriesPoint[], days = LOWEST_PRICE_DAYS): number | undefined {
  const last = series.at(-1);
  if (!last) return undefined;
  let start = series.length - 1;
  while (start > 0 && series[start - 1]!.price === last.price) start -= 1;
  const began = Date.parse(series[start]!.date);
  const from = began - days * 86_400_000;
  let lowest: number | undefined;
  for (let i = 0; i < start; i += 1) {
    const until = Date.parse(series[i + 1]!.date);
    if (until > from) lowest = Math.min(lowest ?? Infinity, series[i]!.price);
  }
  return lowest ?? last.price;
}
