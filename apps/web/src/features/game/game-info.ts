import type { Game } from '@keystore/contract';

/** What the page shows when the supplier sent no description (SPEC §2 Game detail: a default fallback text). */
export const DESCRIPTION_FALLBACK =
  'No description is available for this product yet. Activate the key on the platform shown above; the key works in the region listed.';

/** The breadcrumb genre when a game has none (SPEC §2 shows 'Adventure' there). */
export const DEFAULT_GENRE = 'Adventure';

type InfoSource = Pick<Game, 'platform' | 'region' | 'languages' | 'pegi'>;

/** The info rows of the game page, with SPEC's defaults for what the supplier left empty. */
export function infoRows(game: InfoSource): Array<{ label: string; value: string }> {
  return [
    { label: 'Platform', value: game.platform },
    { label: 'Region', value: game.region || 'Global' },
    { label: 'Available Languages', value: game.languages.length > 0 ? game.languages.join(', ') : 'English, Polish, Russian' },
    { label: 'PEGI Rating', value: game.pegi > 0 ? `${game.pegi}+` : '18+' },
  ];
}

/** 'There are N keys left', in the singular for the last key. */
export function keysLeftText(stock: number): string {
  return stock === 1 ? 'There is 1 key left' : `There are ${stock} keys left`;
}

/** The store view of one filter value, e.g. /store?platform=Xbox%20One. */
export function storeFilterLink(filter: 'platform' | 'genre', value: string): string {
  return `/store?${filter}=${encodeURIComponent(value)}`;
}
