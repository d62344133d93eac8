import type { Category, Genre, Language, Platform, Region, SystemRequirements } from '@keystore/contract';

/** A product as a supplier describes it, already mapped onto the store's vocabulary. */
export interface SupplierProduct {
  productId: string;
  title: string;
  description: string | null;
  /** Absent when the supplier has no art; the store then draws a cover from the title. */
  coverImage: string | null;
  type: Category;
  platform: Platform;
  /** The launcher a PC key is for, when the feed names one ("Epic Games", "Battle.net"): its activation guide (issue 31). */
  launcher?: string;
  genres: Genre[];
  region: Region;
  languages: Language[];
  pegi: number;
  systemRequirements: SystemRequirements | null;
  /** The supplier's price in euro cents, before our markup. */
  priceCents: number;
  originalPriceCents: number | null;
  stock: number;
  releaseDate: string | null;
  popularity: number;
  updatedAt: Date | null;
}

/** One page of a feed: the usable products, and how many items were malformed and skipped. */
export interface SupplierPage {
  products: SupplierProduct[];
  skipped: number;
}

export interface SupplierOrderLine {
  productId: string;
  quantity: number;
  /** The supplier price we expect to pay, in cents. */
  priceCents: number;
}

export interface SupplierKey {
  productId: string;
  serial: string;
  /** Demo keys activate nothing; they are marked so nobody mistakes them for real ones. */
  demo: boolean;
}

/** What the store needs from a key supplier: its catalogue, and keys for our orders. */
export interface Supplier {
  readonly name: string;
  /** Products changed since `since` (all of them when null), one page at a time. */
  listProducts(since: Date | null): AsyncIterable<SupplierPage>;
  /** Buys keys for one of our orders. The same `orderExternalId` never buys twice. */
  placeOrder(orderExternalId: string, lines: SupplierOrderLine[]): Promise<{ orderId: string }>;
  /** The keys of a supplier order, as far as they are delivered. */
  orderKeys(orderId: string): Promise<SupplierKey[]>;
  /**
   * The supplier's price of each product now, in cents (products it no longer sells are left out):
   * asked when it refused an order on price, since its prices move between two syncs.
   */
  currentPrices(productIds: string[]): Promise<Map<string, number>>;
}

/** A supplier failure: bad credentials, an outage, a timeout, a malformed answer. */
export class SupplierError extends Error {
  readonly status: number | undefined;
  readonly retryable: boolean;
  constructor(message: string, options: { status?: number; retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'SupplierError';
    this.status = options.status;
    this.retryable = options.retryable;
  }
}

/**
 * The supplier refused an order because a price we offered is below its current one (Kinguin:
 * `400 ProductUnavailable: requested price lower than the current price`). Not retried as it is:
 * the order must be placed again at the current price.
 */
export class SupplierPriceRefused extends SupplierError {
  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { ...options, retryable: false });
    this.name = 'SupplierPriceRefused';
  }
}

/** Euro amount (a float from a feed) to whole cents. */
export function euroToCents(amount: number): number {
  return Math.round(amount * 100);
}
