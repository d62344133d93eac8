// What the stubbed API answers about the marketplace (issue 23), built through the contract's zod
// schemas like contract-fixtures.ts: a fixture that drifts from the contract fails its test.
import {
  adminSellerSchema,
  claimSchema,
  offerSchema,
  payoutSchema,
  reservationSchema,
  sellerSchema,
  type AdminSeller,
  type Claim,
  type Offer,
  type Payout,
  type Reservation,
  type Seller,
} from '@keystore/contract';

/** An approved seller with an empty balance. */
export function testSeller(overrides: Partial<Seller> = {}): Seller {
  return sellerSchema.parse({
    _id: 's1',
    name: 'KeyShack',
    contactEmail: 'sales@keyshack.example',
    country: 'DE',
    status: 'active',
    commission: { percent: 10, fixed: 0 },
    holdDays: 14,
    balance: { held: 0, available: 0, currency: 'EUR' },
    offers: 0,
    keysInStock: 0,
    score: { value: 90, onFirstTry: 1, p90ProvideSeconds: 0, claimsPer100: 0, refunds: 0, deliveries: 0 },
    createdAt: '2026-01-01T00:00:00Z',
    ...overrides,
  });
}

/** The seller as the back office lists it. */
export function testAdminSeller(overrides: Partial<AdminSeller> = {}): AdminSeller {
  return adminSellerSchema.parse({ ...testSeller(), userId: 'u1', customCommission: false, house: false, ...overrides });
}

/** An active offer of Hades at €10 net (€11 to buyers), with uploaded keys. */
export function testOffer(overrides: Partial<Offer> = {}): Offer {
  return offerSchema.parse({
    _id: 'o1',
    gameId: 'g1',
    title: 'Hades',
    netPrice: 10,
    price: 11,
    stock: 2,
    status: 'active',
    sold: 0,
    delivery: 'uploaded',
    declaredStock: 0,
    hiddenUntil: null,
    pausedAfterFailures: false,
    ...overrides,
  });
}

/** A declared-stock reservation of one key of Hades, delivered after one reserve and one provide. */
export function testReservation(overrides: Partial<Reservation> = {}): Reservation {
  return reservationSchema.parse({
    _id: 'r1',
    orderId: 'ord1',
    offerId: 'o1',
    gameId: 'g1',
    title: 'Hades',
    quantity: 1,
    unitNetPrice: 10,
    state: 'delivered',
    createdAt: '2026-02-01T10:00:00Z',
    moves: [
      { at: '2026-02-01T10:00:00Z', from: null, to: 'requested', reason: null },
      { at: '2026-02-01T10:00:01Z', from: 'requested', to: 'reserved', reason: null },
      { at: '2026-02-01T10:01:00Z', from: 'reserved', to: 'provided', reason: null },
      { at: '2026-02-01T10:01:01Z', from: 'provided', to: 'delivered', reason: null },
    ],
    attempts: [
      { at: '2026-02-01T10:00:00Z', type: 'reserve', status: 200, error: null, durationMs: 120 },
      { at: '2026-02-01T10:01:00Z', type: 'provide', status: 200, error: null, durationMs: 340 },
    ],
    ...overrides,
  });
}

/** An open claim on a key of Hades sold by KeyShack: already redeemed, the seller has a day to answer. */
export function testClaim(overrides: Partial<Claim> = {}): Claim {
  return claimSchema.parse({
    _id: 'c1',
    purchaseId: 'k1',
    orderId: 'ord1',
    gameId: 'g1',
    title: 'Hades',
    seller: 'KeyShack',
    reason: 'already-redeemed',
    message: 'Steam says the key was used.',
    state: 'open',
    sellerMessage: null,
    note: null,
    createdAt: '2026-02-02T09:00:00Z',
    dueAt: '2026-02-03T09:00:00Z',
    decidedAt: null,
    ...overrides,
  });
}

/** A payout waiting to be paid. */
export function testPayout(overrides: Partial<Payout> = {}): Payout {
  return payoutSchema.parse({
    _id: 'p1',
    sellerId: 's1',
    sellerName: 'KeyShack',
    amount: 42.5,
    currency: 'EUR',
    status: 'pending',
    reference: null,
    createdAt: '2026-02-01T00:00:00Z',
    paidAt: null,
    ...overrides,
  });
}
