import { GENRES, LANGUAGES, PEGI_RATINGS, PLATFORMS, REGIONS, type Category } from '@keystore/contract';
import type { SupplierProduct } from '../supplier/ports.ts';

/** The supplier name synthetic products are stored under. */
export const SYNTHETIC_SUPPLIER = 'synthetic';

const FIRST = ['Shadow', 'Iron', 'Crimson', 'Silent', 'Eternal', 'Neon', 'Frozen', 'Savage', 'Hidden', 'Golden', 'Broken', 'Lost', 'Rising', 'Galactic', 'Ancient', 'Wild', 'Storm', 'Dark', 'Steel', 'Emerald', 'Arcane', 'Burning', 'Hollow', 'Cosmic', 'Royal'];
const SECOND = ['Legends', 'Kingdom', 'Frontier', 'Odyssey', 'Tactics', 'Racers', 'Chronicles', 'Arena', 'Empire', 'Hunters', 'Protocol', 'Rebellion', 'Dynasty', 'Outlaws', 'Horizon', 'Siege', 'League', 'Voyage', 'Uprising', 'Saga', 'Wanderers', 'Knights', 'Drift', 'Colony', 'Crusade'];
const SUBTITLE = ['Reborn', 'Origins', 'Night Shift', 'The Last Stand', 'Deluxe Edition', 'Iron Tide', 'Red Harvest', 'Cold Front', 'Ascension', 'Twin Suns', 'Deep Space', 'Ultimate Edition', 'Lost Tapes', 'Final Hour', 'Wildlands', 'Black Ice'];
const DLC = ['Season Pass', 'Expansion Pack', 'Soundtrack', 'Character Pack', 'Map Pack', 'Story Chapter'];
const CARDS = ['PlayStation Store', 'Xbox', 'Nintendo eShop', 'Steam', 'Origin Wallet'];

/**
 * A deterministic catalogue of `count` products (the same seed gives the same products), for
 * benchmarks and tests at store scale. Titles are composed from word lists, so words repeat the
 * way they do in a real catalogue.
 */
export function syntheticProducts(count: number, seed = 1): SupplierProduct[] {
  const random = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const some = <T>(list: readonly T[], max: number): T[] => {
    const chosen = new Set<T>();
    const wanted = 1 + Math.floor(random() * max);
    while (chosen.size < wanted) chosen.add(pick(list));
    return [...chosen];
  };
  const products: SupplierProduct[] = [];
  for (let n = 0; n < count; n += 1) {
    const roll = random();
    const type: Category = roll < 0.8 ? 'Games' : roll < 0.93 ? 'DLC' : 'Gift Cards';
    const base = `${pick(FIRST)} ${pick(SECOND)}`;
    const sequel = random() < 0.3 ? ` ${2 + Math.floor(random() * 5)}` : '';
    const subtitle = random() < 0.5 ? `: ${pick(SUBTITLE)}` : '';
    const title =
      type === 'Games' ? `${base}${sequel}${subtitle}` : type === 'DLC' ? `${base}${sequel} - ${pick(DLC)}` : `${pick(CARDS)} Gift Card ${pick([10, 20, 25, 50, 100])} EUR`;
    const priceCents = 99 + Math.floor(random() * 6900);
    const year = 2005 + Math.floor(random() * 21);
    const month = 1 + Math.floor(random() * 12);
    const day = 1 + Math.floor(random() * 28);
    products.push({
      productId: `syn-${seed}-${n}`,
      title,
      description: `${title} is a ${type === 'Games' ? 'game' : type === 'DLC' ? 'downloadable expansion' : 'prepaid card'} in the synthetic benchmark catalogue.`,
      coverImage: null,
      type,
      platform: pick(PLATFORMS),
      genres: type === 'Gift Cards' ? [] : some(GENRES, 3),
      region: pick(REGIONS),
      languages: some(LANGUAGES, 4),
      pegi: pick(PEGI_RATINGS),
      systemRequirements: null,
      priceCents,
      originalPriceCents: random() < 0.3 ? priceCents + 100 + Math.floor(random() * 3000) : null,
      stock: random() < 0.05 ? 0 : Math.floor(random() * 100),
      releaseDate: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      popularity: Math.floor(random() * 1000),
      updatedAt: null,
    });
  }
  return products;
}

/** Small, fast, seedable PRNG (Mulberry32). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

