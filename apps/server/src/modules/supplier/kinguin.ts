import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { GENRES, LANGUAGES, type Category, type Genre, type Language, type Platform, type Region, type SystemRequirements } from '@keystore/contract';
import { euroToCents, SupplierError, SupplierPriceRefused, type Supplier, type SupplierKey, type SupplierOrderLine, type SupplierPage, type SupplierProduct } from './supplier.ts';
import { requestIdHeaders } from '../../platform/request-context.ts';

const PAGE_LIMIT = 100;
const ATTEMPTS = 3;

export interface KinguinOptions {
  apiUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** Pause before retry n (1-based); tests shorten it. */
  backoffMs?: (attempt: number) => number;
}

const productSchema = z.object({
  kinguinId: z.number().int(),
  productId: z.string().min(1),
  name: z.string().min(1),
  description: z.string().nullish(),
  coverImage: z.string().nullish(),
  coverImageOriginal: z.string().nullish(),
  genres: z.array(z.string()).nullish(),
  platform: z.string().min(1),
  qty: z.number().int().min(0),
  price: z.number().positive(),
  regionId: z.number().int().nullish(),
  languages: z.array(z.string()).nullish(),
  systemRequirements: z.array(z.object({ system: z.string(), requirement: z.array(z.string()) })).nullish(),
  ageRating: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  releaseDate: z.string().nullish(),
  updatedAt: z.string().nullish(),
});
type KinguinProduct = z.infer<typeof productSchema>;

const pageSchema = z.object({ results: z.array(z.unknown()), item_count: z.number().int().min(0) });
const orderSchema = z.object({ orderId: z.string().min(1) });
const priceSchema = z.object({ productId: z.string().min(1), price: z.number().positive() });
const orderSearchSchema = z.object({ results: z.array(orderSchema) });
const keysSchema = z.array(
  z.object({ serial: z.string(), type: z.string().nullish(), name: z.string().nullish(), productId: z.string() }),
);

/** Speaks the Kinguin eCommerce API (X-Api-Key; v1 products, v2 orders and keys). */
export class KinguinSupplier implements Supplier {
  readonly name = 'kinguin';
  private readonly options: KinguinOptions;

  constructor(options: KinguinOptions) {
    this.options = options;
  }

  async *listProducts(since: Date | null): AsyncIterable<SupplierPage> {
    for (let page = 1; ; page += 1) {
      const query = new URLSearchParams({ page: String(page), limit: String(PAGE_LIMIT) });
      if (since) query.set('updatedSince', since.toISOString());
      const answer = pageSchema.safeParse(await this.request('GET', `/v1/products?${query}`));
      if (!answer.success) throw new SupplierError('Kinguin answered a product page of an unexpected shape', { retryable: false });
      const mapped = answer.data.results.map(toSupplierProduct);
      const products = mapped.filter((product) => product !== undefined);
      yield { products, skipped: mapped.length - products.length };
      if (answer.data.results.length < PAGE_LIMIT || page * PAGE_LIMIT >= answer.data.item_count) return;
    }
  }

  async placeOrder(orderExternalId: string, lines: SupplierOrderLine[]): Promise<{ orderId: string }> {
    const body = {
      products: lines.map((line) => ({ productId: line.productId, qty: line.quantity, price: line.priceCents / 100 })),
      orderExternalId,
    };
    let placed: unknown;
    try {
      placed = await this.request('POST', '/v2/order', body);
    } catch (error) {
      // Kinguin refuses an order priced below its current price (400 ProductUnavailable): placed again at that price.
      if (error instanceof SupplierError && error.status === 400 && /price/i.test(error.message)) {
        throw new SupplierPriceRefused(error.message, { status: 400, cause: error });
      }
      // Kinguin refuses a second order with the same orderExternalId: the first one is ours.
      if (!(error instanceof SupplierError) || error.status !== 409) throw error;
      const found = orderSearchSchema.safeParse(await this.request('GET', `/v2/order?${new URLSearchParams({ orderExternalId })}`));
      const existing = found.success ? found.data.results[0] : undefined;
      if (!existing) throw error;
      return { orderId: existing.orderId };
    }
    const answer = orderSchema.safeParse(placed);
    if (!answer.success) throw new SupplierError('Kinguin answered an order of an unexpected shape', { retryable: false });
    return { orderId: answer.data.orderId };
  }

  async orderKeys(orderId: string): Promise<SupplierKey[]> {
    const answer = keysSchema.safeParse(await this.request('GET', `/v2/order/${encodeURIComponent(orderId)}/keys`));
    if (!answer.success) throw new SupplierError('Kinguin answered keys of an unexpected shape', { retryable: false });
    return answer.data.map((key) => ({ productId: key.productId, serial: key.serial, demo: false }));
  }

  async currentPrices(productIds: string[]): Promise<Map<string, number>> {
    const prices = new Map<string, number>();
    for (const productId of new Set(productIds)) {
      let answer: unknown;
      try {
        answer = await this.request('GET', `/v2/products/${encodeURIComponent(productId)}`);
      } catch (error) {
        // A product Kinguin no longer has is left out: that line cannot be bought.
        if (error instanceof SupplierError && error.status === 404) continue;
        throw error;
      }
      const product = priceSchema.safeParse(answer);
      if (!product.success) throw new SupplierError('Kinguin answered a product of an unexpected shape', { retryable: false });
      prices.set(productId, euroToCents(product.data.price));
    }
    return prices;
  }

  /** One call, retried on timeouts, network errors and 5xx; 4xx answers are final. */
  private async request(method: 'GET' | 'POST', pathAndQuery: string, body?: unknown): Promise<unknown> {
    const backoff = this.options.backoffMs ?? ((attempt: number) => 250 * 2 ** (attempt - 1));
    let lastError: SupplierError | undefined;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      if (attempt > 1) await sleep(backoff(attempt - 1));
      try {
        return await this.requestOnce(method, pathAndQuery, body);
      } catch (error) {
        if (!(error instanceof SupplierError) || !error.retryable) throw error;
        lastError = error;
      }
    }
    throw lastError ?? new SupplierError('Kinguin request failed', { retryable: true });
  }

  private async requestOnce(method: string, pathAndQuery: string, body?: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.options.apiUrl}${pathAndQuery}`, {
        method,
        headers: {
          'X-Api-Key': this.options.apiKey,
          Accept: 'application/json',
          // The store's request this call works for, so both sides' logs can be matched (issue 32).
          ...requestIdHeaders(),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new SupplierError(timedOut ? `Kinguin did not answer within ${this.options.timeoutMs} ms` : 'Kinguin could not be reached', {
        retryable: true,
        cause: error,
      });
    }
    if (!response.ok) {
      const detail = (await response.text().catch(() => '')).slice(0, 200);
      throw new SupplierError(`Kinguin answered ${response.status} to ${method} ${pathAndQuery.split('?')[0]}: ${detail}`, {
        status: response.status,
        retryable: response.status >= 500 || response.status === 429,
      });
    }
    try {
      return await response.json();
    } catch (error) {
      throw new SupplierError('Kinguin answered something that is not JSON', { status: response.status, retryable: false, cause: error });
    }
  }
}

/** Maps one feed item onto the store's vocabulary; undefined when it is malformed or unsellable here. */
function toSupplierProduct(item: unknown): SupplierProduct | undefined {
  const parsed = productSchema.safeParse(item);
  if (!parsed.success) return undefined;
  const product = parsed.data;
  const platform = platformOf(product.platform);
  const region = regionOf(product.regionId);
  if (!platform || !region) return undefined;
  const updatedAt = product.updatedAt ? new Date(product.updatedAt) : null;
  return {
    productId: product.productId,
    title: product.name,
    description: product.description ? decodeEntities(product.description) : null,
    coverImage: product.coverImageOriginal || product.coverImage || null,
    type: typeOf(product.tags),
    platform,
    // A plain PC key keeps the launcher the feed named, for its activation guide.
    ...(platform === 'PC' && /epic|battle\.net|ubisoft|uplay|rockstar|microsoft store/i.test(product.platform) ? { launcher: product.platform } : {}),
    genres: genresOf(product.genres ?? []),
    region,
    languages: (product.languages ?? []).filter((language): language is Language => (LANGUAGES as readonly string[]).includes(language)),
    pegi: pegiOf(product.ageRating),
    systemRequirements: requirementsOf(product),
    priceCents: euroToCents(product.price),
    originalPriceCents: null,
    stock: product.qty,
    releaseDate: product.releaseDate && /^\d{4}-\d{2}-\d{2}/.test(product.releaseDate) ? product.releaseDate.slice(0, 10) : null,
    popularity: 0,
    updatedAt: updatedAt && !Number.isNaN(updatedAt.getTime()) ? updatedAt : null,
  };
}

function platformOf(name: string): Platform | undefined {
  const text = name.toLowerCase();
  if (text.includes('steam')) return 'Steam';
  if (text.includes('gog')) return 'GOG';
  if (text.includes('origin') || text.includes('ea app')) return 'Origin';
  if (text.includes('series s') || text.includes('series x|s')) return 'Xbox Series S';
  if (text.includes('series x')) return 'Xbox Series X';
  if (text.includes('xbox one')) return 'Xbox One';
  if (text.includes('360')) return 'Xbox 360';
  if (text.includes('ps5') || text.includes('playstation 5')) return 'PS5';
  if (text.includes('ps4') || text.includes('playstation 4')) return 'PS4';
  if (text.includes('ps3') || text.includes('playstation 3')) return 'PS3';
  if (text.includes('switch')) return 'Nintendo Switch';
  if (text.includes('3ds')) return 'Nintendo 3DS';
  if (text.includes('wii')) return 'Nintendo Wii';
  if (text.startsWith('pc') || text.includes('windows') || text.includes('epic') || text.includes('battle.net') || text.includes('ubisoft')) return 'PC';
  return undefined;
}

/** Kinguin's region ids (its products API documents the list) onto the store's four regions. */
const REGION_IDS: Record<number, Region> = {
  1: 'Europe', 3: 'Global', 8: 'Europe', 13: 'Europe', 19: 'Europe', 29: 'Europe', 30: 'Europe',
  2: 'US', 18: 'US', 28: 'US',
  9: 'Asia', 12: 'Asia', 17: 'Asia', 22: 'Asia', 23: 'Asia', 24: 'Asia', 25: 'Asia', 26: 'Asia',
};

function regionOf(regionId: number | null | undefined): Region | undefined {
  if (regionId === null || regionId === undefined) return 'Global';
  return REGION_IDS[regionId];
}

function typeOf(tags: string[] | null | undefined): Category {
  if (tags?.includes('dlc')) return 'DLC';
  if (tags?.includes('prepaid')) return 'Gift Cards';
  return 'Games';
}

const GENRE_ALIASES: Record<string, Genre> = {
  action: 'Action', fps: 'Action', shooter: 'Action', fighting: 'Action', "hack and slash": 'Action',
  rpg: 'RPG', 'role-playing': 'RPG', mmo: 'RPG',
  strategy: 'Strategy', rts: 'Strategy', 'turn-based strategy': 'Strategy',
  sport: 'Sports', sports: 'Sports', racing: 'Sports',
  adventure: 'Adventure', 'point & click': 'Adventure', 'open world': 'Adventure',
};

function genresOf(names: string[]): Genre[] {
  const genres = new Set<Genre>();
  for (const name of names) {
    const genre = GENRE_ALIASES[name.toLowerCase()] ?? GENRES.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    if (genre) genres.add(genre);
  }
  return [...genres];
}

const ESRB: Record<string, number> = { E: 3, EC: 3, 'E10+': 7, T: 12, M: 18, AO: 18 };

/** "PEGI 16", "16" or an ESRB letter onto a PEGI age; 18 when unknown, the store's default. */
function pegiOf(rating: string | null | undefined): number {
  if (!rating) return 18;
  const digits = /(\d+)/.exec(rating);
  if (digits?.[1]) {
    const age = Number(digits[1]);
    return [3, 7, 12, 16, 18].find((pegi) => pegi >= age) ?? 18;
  }
  return ESRB[rating.trim().toUpperCase().replace(/^ESRB\s*/, '')] ?? 18;
}

function requirementsOf(product: KinguinProduct): SystemRequirements | null {
  const windows = product.systemRequirements?.find((entry) => entry.system.toLowerCase().startsWith('win'));
  if (!windows) return null;
  const field = (...labels: string[]): string => {
    for (const line of windows.requirement) {
      const [label, ...rest] = line.split(':');
      if (label && labels.includes(label.trim().toLowerCase())) return rest.join(':').trim();
    }
    return 'Not specified';
  };
  return {
    os: field('os'),
    processor: field('processor', 'cpu'),
    memory: field('memory', 'ram'),
    graphics: field('graphics', 'video card', 'gpu'),
    storage: field('storage', 'hard drive', 'hard disk space', 'disk space'),
  };
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>');
}
