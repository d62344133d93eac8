// What the stubbed API answers about the marketplace (issue 23), built through the contract's zod
// schemas like contract-fixtures.ts: a fixture that drifts from the contract fails its test.
import {
  adminSellerSchema,
  offerSchema,
  payoutSchema,
  sellerSchema,
  type AdminSeller,
  type Offer,
  type Payout,
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
    createdAt: '2026-01-01T00:00:00Z',
    ...overrides,
  });
}

/** The seller as the back office lists it. */
export function testAdminSeller(overrides: Partial<AdminSeller> = {}): AdminSeller {
  return adminSellerSchema.parse({ ...testSeller(), userId: 'u1', customCommission: false, house: false, ...overrides });
}

/** An active offer of Hades at €10 net (€11 to buyers). */
export function testOffer(overrides: Partial<Offer> = {}): Offer {
  return offerSchema.parse({ _id: 'o1', gameId: 'g1', title: 'Hades', netPrice: 10, price: 11, stock: 2, status: 'active', sold: 0, ...overrides });
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
