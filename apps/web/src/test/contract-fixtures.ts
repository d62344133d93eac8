// What the stubbed API answers in the web app's component tests, built through the contract's zod
// schemas: a fixture that drifts from the contract (a field renamed, missing or of the wrong type)
// throws, and the test using it fails, instead of passing against a shape the server never sends.
// Never imported by the app: the schemas pull zod, which the storefront's bundle does not carry.
import { activationFor } from '@keystore/contract/activation-rules';
import {
  createOrderAnswerSchema,
  gameListItemSchema,
  gameSchema,
  giftSchema,
  newsSchema,
  notificationSchema,
  orderSchema,
  purchaseHistoryEntrySchema,
  purchaseSchema,
  testPaymentAnswerSchema,
  userSchema,
  type CreateOrderAnswer,
  type Game,
  type GameListItem,
  type Gift,
  type News,
  type Notification,
  type Order,
  type OrderLine,
  type Purchase,
  type PurchaseHistoryEntry,
  type TestPaymentAnswer,
  type User,
} from '@keystore/contract';
import type { CartItem } from '../lib/cart.ts';
import { json } from './fixtures.tsx';

/** A zod schema, as far as these helpers need one. */
interface Schema<T> {
  parse(value: unknown): T;
}

/** A 2xx answer whose body the contract's schema for it accepts (`answer(messageSchema, { message: 'Sent.' })`). */
export function answer<T>(schema: Schema<T>, body: T, status = 200): Response {
  return json(status, schema.parse(body));
}

/** A customer with no orders yet; `overrides` sets what a test is about. */
export function testUser(overrides: Partial<User> = {}): User {
  return userSchema.parse({
    _id: 'u1',
    username: 'keymaster',
    email: 'player@example.org',
    avatar: null,
    role: 'customer',
    createdAt: '2026-01-01T00:00:00Z',
    totalSpent: 0,
    totalGames: 0,
    membership: 'Key Newb',
    purchaseHistory: [],
    ...overrides,
  });
}

/** A game as the store lists it: Hades for PC, in stock. */
export function testGameListItem(overrides: Partial<GameListItem> = {}): GameListItem {
  return gameListItemSchema.parse({
    _id: 'g1',
    title: 'Hades',
    image: '/media/covers/g1.svg',
    coverImage: '/media/covers/g1.svg',
    platform: 'PC',
    price: 19.99,
    originalPrice: null,
    type: 'Games',
    genre: [],
    region: 'Global',
    languages: [],
    pegi: 0,
    stock: 12,
    createdAt: '2026-01-01T00:00:00Z',
    ...overrides,
  });
}

/** A game as the cart keeps it: the listed game's fields the cart needs. */
export function testCartGame(overrides: Partial<GameListItem> = {}): CartItem['game'] {
  const { _id, title, image, platform, region, price, originalPrice, type } = testGameListItem(overrides);
  return { _id, title, image, platform, region, price, originalPrice, type };
}

/** A game as its own page shows it (GET /api/games/{id}). */
export function testGame(overrides: Partial<Game> = {}): Game {
  return gameSchema.parse({ ...testGameListItem(), description: null, systemRequirements: null, releaseDate: null, activation: activationFor('PC'), ...overrides });
}

/** An order line: one key of Hades at €19.99 unless `overrides` says otherwise. */
export function testOrderLine(overrides: Partial<OrderLine> = {}): OrderLine {
  const line = { gameId: 'g1', title: 'Hades', image: '/media/covers/g1.svg', platform: 'PC', quantity: 1, unitPrice: 19.99, keysDelivered: 0, offerId: 'hg1', seller: 'Keystore', ...overrides };
  return { ...line, amount: overrides.amount ?? Math.round(line.unitPrice * 100 * line.quantity) / 100 };
}

/** An order on the test gateway awaiting payment, placed now and held for 30 minutes; its amount is its lines'. */
export function testOrder(overrides: Partial<Order> = {}): Order {
  const lines = overrides.lines ?? [testOrderLine()];
  const amount = lines.reduce((sum, line) => sum + Math.round(line.amount * 100), 0) / 100;
  const now = Date.now();
  return orderSchema.parse({
    _id: 'o1',
    items: lines.map((line) => `${line.title} x${line.quantity}`).join(', '),
    image: lines[0]?.image ?? '',
    date: new Date(now).toISOString(),
    status: 'Awaiting payment',
    deliveryStatus: 'Pending',
    currency: 'EUR',
    amount,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 30 * 60_000).toISOString(),
    paidAt: null,
    deliveredAt: null,
    refundedAt: null,
    paymentProvider: 'test',
    declineReason: null,
    statusNote: null,
    lines,
    ...overrides,
  });
}

/** POST /api/orders: the placed order and its test-gateway payment page. */
export function testCreatedOrder(overrides: Partial<Order> = {}): CreateOrderAnswer {
  const order = testOrder(overrides);
  return createOrderAnswerSchema.parse({ order, paymentUrl: `/pay/${order._id}` });
}

/** The test gateway's verdict: paid, the keys on their way, to the library. */
export function testPaymentVerdict(overrides: Partial<TestPaymentAnswer> = {}): TestPaymentAnswer {
  return testPaymentAnswerSchema.parse({ status: 'Paid', deliveryStatus: 'Pending', message: 'Payment successful!', redirectUrl: '/library?order=o1', ...overrides });
}

/** An entry of the profile's order history. */
export function testHistoryEntry(overrides: Partial<PurchaseHistoryEntry> = {}): PurchaseHistoryEntry {
  return purchaseHistoryEntrySchema.parse({
    _id: 'o1',
    items: 'Hades x1',
    image: '',
    date: '2026-11-22T08:00:00Z',
    status: 'Paid',
    deliveryStatus: 'Delivered',
    currency: 'EUR',
    amount: 19.99,
    ...overrides,
  });
}

/** A delivered key in the library: Hades unless `overrides` names another product. */
export function testPurchase(overrides: Partial<Purchase> = {}): Purchase {
  return purchaseSchema.parse({ _id: 'k1', product: testGameListItem(), orderId: 'o1', purchasedAt: '2026-11-22T08:00:00Z', revealed: false, ...overrides });
}

/** A gift as its recipient's link shows it: one Hades key from keymaster to Sam, not revealed yet. */
export function testGift(overrides: Partial<Gift> = {}): Gift {
  return giftSchema.parse({
    _id: 'gf1',
    name: 'Sam',
    message: 'Happy birthday!',
    from: 'keymaster',
    games: [{ gameId: 'g1', title: 'Hades', image: '/media/covers/g1.svg', platform: 'Steam', quantity: 1 }],
    keys: [{ purchaseId: 'k1', gameId: 'g1', title: 'Hades', revealed: false }],
    revealedAt: null,
    ...overrides,
  });
}

/** A public notification, unread. */
export function testNotification(overrides: Partial<Notification> = {}): Notification {
  return notificationSchema.parse({
    _id: 'n1',
    title: 'New arrivals',
    text: 'Fresh keys in the store.',
    generatedAt: '2026-11-22T08:00:00.000Z',
    rawTimestamp: Date.parse('2026-11-22T08:00:00.000Z'),
    isRead: false,
    isPublic: true,
    link: null,
    ...overrides,
  });
}

/** A news item written by the admin. */
export function testNews(overrides: Partial<News> = {}): News {
  return newsSchema.parse({
    _id: 'n1',
    title: 'Price drops',
    category: 'Deals',
    content: 'Prices fell.',
    coverImage: null,
    author: 'Admin',
    createdAt: '2026-11-22T08:00:00.000Z',
    ...overrides,
  });
}
