// The offline news writer (DESIGN §5): without an AI provider, generate-text drafts real news from
// the store's own catalogue, so every title and price it names is one a customer can buy.
import { PLATFORM_GROUPS, PLATFORMS, type GameListItem, type Platform } from '@keystore/contract';
import type { CatalogService } from '../catalog/ports.ts';

/** How many games one draft names. */
const GAMES_PER_DRAFT = 5;

export interface Draft {
  title: string;
  content: string;
}

type Catalogue = Pick<CatalogService, 'list' | 'priceDrops'>;

const SALE_WORDS = /\b(sales?|discounts?|deals?|price|prices|cheap|cheaper|offers?|drops?|bargains?|save|savings)\b/i;

/** Other names people use for the platform groups of the store's tabs. */
const GROUP_ALIASES: Record<string, string[]> = {
  PC: ['pc', 'computer', 'steam', 'windows'],
  XBOX: ['xbox'],
  PSN: ['psn', 'playstation', 'sony', 'ps'],
  Nintendo: ['nintendo', 'switch'],
};

/** The platforms a topic names: one platform by its name (PS5), or a whole group (PlayStation). */
export function platformsIn(topic: string): { label: string; platforms: Platform[] } | undefined {
  const text = ` ${topic.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ')} `;
  // Longest names first, so "Xbox Series X" wins over "Xbox" and "PS5" is not read as "PS".
  const named = [...PLATFORMS].sort((a, b) => b.length - a.length).find((platform) => text.includes(` ${platform.toLowerCase()} `));
  if (named && !['PC', 'Steam'].includes(named)) return { label: named, platforms: [named] };
  for (const group of PLATFORM_GROUPS) {
    const aliases = GROUP_ALIASES[group.label] ?? [group.label.toLowerCase()];
    if (aliases.some((alias) => text.includes(` ${alias} `))) return { label: group.label === 'PSN' ? 'PlayStation' : group.label === 'XBOX' ? 'Xbox' : group.label, platforms: [...group.platforms] };
  }
  return undefined;
}

/** A news draft about the topic from the catalogue: a platform's best sellers, the biggest price drops, or the newest arrivals. */
export async function draftFromCatalogue(topic: string, catalog: Catalogue): Promise<Draft> {
  const platform = platformsIn(topic);
  if (platform) {
    const games = catalog.list({ sort: 'popularity', page: 1, pageSize: GAMES_PER_DRAFT, filters: { platform: platform.platforms } }).items;
    if (games.length > 0) return bestSellers(platform.label, games);
  }
  if (SALE_WORDS.test(topic)) {
    const games = await catalog.priceDrops(GAMES_PER_DRAFT);
    if (games.length > 0) return priceDrops(games);
  }
  const games = catalog.list({ sort: 'newest', page: 1, pageSize: GAMES_PER_DRAFT, filters: {} }).items;
  return newArrivals(games);
}

function bestSellers(label: string, games: GameListItem[]): Draft {
  const [top] = games as [GameListItem];
  return {
    title: `${label} best sellers this week: ${top.title} leads the chart`,
    content: paragraphs(
      `These are the ${label} keys Keystore customers are buying most right now.`,
      `${top.title} (${top.platform}) tops the chart at ${euro(top.price)}.`,
      games.map((game, i) => `${i + 1}. ${game.title} (${game.platform}): ${euro(game.price)}`).join('\n'),
      'Every key is delivered to your library within one business day, and all prices are in euro.',
    ),
  };
}

function priceDrops(games: GameListItem[]): Draft {
  const [top] = games as [GameListItem];
  return {
    title: `Price drops: ${top.title} now ${percentOff(top)}% off`,
    content: paragraphs(
      `Prices just fell on some of the store's favourites. The biggest cut: ${top.title} (${top.platform}) is down from ${euro(top.originalPrice ?? top.price)} to ${euro(top.price)}.`,
      games.map((game) => `${game.title} (${game.platform}): ${euro(game.price)} instead of ${euro(game.originalPrice ?? game.price)}, ${percentOff(game)}% off`).join('\n'),
      'Prices follow our supplier and can change at every catalogue update, so grab a deal while it lasts.',
    ),
  };
}

function newArrivals(games: GameListItem[]): Draft {
  if (games.length === 0) {
    return { title: 'New keys are on their way', content: paragraphs('Our catalogue is being refreshed right now.', 'Check back soon for the newest games, DLC and gift cards.') };
  }
  const [top] = games as [GameListItem];
  return {
    title: `New at Keystore: ${top.title} and ${games.length - 1} more arrivals`,
    content: paragraphs(
      `Fresh keys have just landed in the store. Headlining the new arrivals is ${top.title} for ${top.platform} at ${euro(top.price)}.`,
      games.map((game) => `${game.title} (${game.platform}): ${euro(game.price)}`).join('\n'),
      'Find them all in the store sorted by Newest. Keys are delivered to your library within one business day.',
    ),
  };
}

function paragraphs(...parts: string[]): string {
  return parts.join('\n\n');
}

/** "€19.99": the store shows euro everywhere (DESIGN §5). */
function euro(amount: number): string {
  return `€${amount.toFixed(2)}`;
}

function percentOff(game: GameListItem): number {
  return game.originalPrice ? Math.round((1 - game.price / game.originalPrice) * 100) : 0;
}
