import { createHash, createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { GENRES, LANGUAGES, PEGI_RATINGS, PLATFORMS, REGIONS, CATEGORIES, systemRequirementsSchema } from '@keystore/contract';
import { Lru } from '../../platform/lru.ts';
import { euroToCents, SupplierError, type Supplier, type SupplierKey, type SupplierOrderLine, type SupplierPage, type SupplierProduct } from './supplier.ts';

/** When the bundled feed was last edited: an incremental sync after it finds nothing new. */
const DEMO_FEED_UPDATED_AT = new Date('2026-11-01T00:00:00Z');

const demoItemSchema = z.object({
  productId: z.string().min(1),
  name: z.string().min(1),
  type: z.enum(CATEGORIES),
  platform: z.enum(PLATFORMS),
  genres: z.array(z.enum(GENRES)),
  region: z.enum(REGIONS),
  languages: z.array(z.enum(LANGUAGES)).min(1),
  pegi: z.number().refine((value) => (PEGI_RATINGS as readonly number[]).includes(value)),
  description: z.string().min(1),
  systemRequirements: systemRequirementsSchema.nullable(),
  price: z.number().positive(),
  originalPrice: z.number().positive().nullable(),
  qty: z.number().int().min(0),
  releaseDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  popularity: z.number().int().min(0),
});

const feedFolder = path.join(import.meta.dirname, 'demo-feed');
const PAGE_SIZE = 100;

/** Reads the bundled feed files; an item that does not fit the schema is counted, not loaded. */
export function loadDemoFeed(folder = feedFolder): { products: SupplierProduct[]; skipped: number } {
  const products: SupplierProduct[] = [];
  let skipped = 0;
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json')).sort()) {
    const items: unknown[] = JSON.parse(readFileSync(path.join(folder, file), 'utf8'));
    for (const item of items) {
      const parsed = demoItemSchema.safeParse(item);
      if (!parsed.success) {
        skipped += 1;
        continue;
      }
      const p = parsed.data;
      products.push({
        productId: p.productId,
        title: p.name,
        description: p.description,
        coverImage: null,
        type: p.type,
        platform: p.platform,
        genres: p.genres,
        region: p.region,
        languages: p.languages,
        pegi: p.pegi,
        systemRequirements: p.systemRequirements,
        priceCents: euroToCents(p.price),
        originalPriceCents: p.originalPrice === null ? null : euroToCents(p.originalPrice),
        stock: p.qty,
        releaseDate: p.releaseDate,
        popularity: p.popularity,
        updatedAt: DEMO_FEED_UPDATED_AT,
      });
    }
  }
  return { products, skipped };
}

const DEMO_ORDERS_KEPT = 10_000;

/**
 * The default supplier: a bundled feed of real titles, and keys that are generated on order and
 * prefixed DEMO- so nobody takes them for real ones. Orders are derived from our order id alone,
 * so placing the same order twice gives the same supplier order and the same keys.
 */
export class DemoSupplier implements Supplier {
  readonly name = 'demo';
  private feed: { products: SupplierProduct[]; skipped: number } | undefined;
  /**
   * The lines of recent orders, for orderKeys. Bounded: a store that runs for months must not keep
   * every order in memory, and an allocation asks for the keys right after placing its order (a
   * retry places it again first), so only the newest orders are ever looked up.
   */
  private readonly orders = new Lru<string, SupplierOrderLine[]>(DEMO_ORDERS_KEPT);

  async *listProducts(since: Date | null): AsyncIterable<SupplierPage> {
    this.feed ??= loadDemoFeed();
    const changed = this.feed.products.filter((product) => !since || !product.updatedAt || product.updatedAt > since);
    const pages = Math.max(1, Math.ceil(changed.length / PAGE_SIZE));
    for (let page = 0; page < pages; page += 1) {
      const products = changed.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
      yield { products, skipped: page === 0 && !since ? this.feed.skipped : 0 };
    }
  }

  async placeOrder(orderExternalId: string, lines: SupplierOrderLine[]): Promise<{ orderId: string }> {
    this.feed ??= loadDemoFeed();
    for (const line of lines) {
      const product = this.feed.products.find((candidate) => candidate.productId === line.productId);
      if (!product) throw new SupplierError(`Unknown demo product ${line.productId}`, { status: 404, retryable: false });
      if (line.quantity > product.stock) {
        throw new SupplierError(`Not enough demo keys for ${line.productId}`, { status: 409, retryable: false });
      }
    }
    const orderId = `DEMO-ORDER-${createHash('sha256').update(orderExternalId).digest('hex').slice(0, 16).toUpperCase()}`;
    if (!this.orders.get(orderId)) this.orders.set(orderId, lines);
    return { orderId };
  }

  async currentPrices(productIds: string[]): Promise<Map<string, number>> {
    this.feed ??= loadDemoFeed();
    const wanted = new Set(productIds);
    return new Map(this.feed.products.filter((product) => wanted.has(product.productId)).map((product) => [product.productId, product.priceCents]));
  }

  async orderKeys(orderId: string): Promise<SupplierKey[]> {
    const lines = this.orders.get(orderId);
    if (!lines) throw new SupplierError(`Unknown demo order ${orderId}`, { status: 404, retryable: false });
    return lines.flatMap((line) =>
      Array.from({ length: line.quantity }, (_, index) => ({
        productId: line.productId,
        serial: demoSerial(orderId, line.productId, index),
        demo: true,
      })),
    );
  }
}

/** A key-shaped serial, DEMO-XXXXX-XXXXX-XXXXX, unique per order, product and position. */
function demoSerial(orderId: string, productId: string, index: number): string {
  const digest = createHmac('sha256', 'keystore-demo-keys').update(`${orderId}:${productId}:${index}`).digest('base64url');
  const chars = digest.toUpperCase().replace(/[^A-Z0-9]/g, '').padEnd(15, 'X');
  return `DEMO-${chars.slice(0, 5)}-${chars.slice(5, 10)}-${chars.slice(10, 15)}`;
}
