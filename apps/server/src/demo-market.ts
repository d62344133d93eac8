// The demo marketplace of `npm start` (issue 28, item 8): outside production and over the demo feed, two
// demo sellers with uploaded keys on a few dozen games (some cheaper than the house, some dearer) and a
// demo admin, so a newcomer sees "Sold by", a game's other offers, and a seller's panel with a sale after
// one purchase. Composed here, beside app.ts, from the services that own the data: accounts through the
// users service (the admin through the ADMIN_EMAIL path), sellers, offers and keys through the sellers
// service. Each service method is called in one place below, so when offers and keys move to a module
// of their own only those lines are re-pointed.
import { createHash, createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { NET_PRICE_MIN_CENTS, type Commission } from '@keystore/contract';
import { generatedSecret, type Config } from './config.ts';
import { LOCKS, type Database } from './db/client.ts';
import { ensureAdmin } from './modules/auth/admin.ts';
import type { CatalogService } from './modules/catalog/ports.ts';
import { houseOfferId } from './modules/offers/house.ts';
import type { OffersService } from './modules/offers/ports.ts';
import type { SellerRow, SellersService } from './modules/sellers/ports.ts';
import type { UserRow, UsersService } from './modules/users/ports.ts';
import { NotFound } from './platform/errors.ts';
import { hashPassword, passwordMatches } from './platform/passwords.ts';

/** A demo account's sign-in as the start prints it; no `password` when the account's owner has changed it since. */
export interface DemoSignIn {
  role: 'admin' | 'seller';
  /** The seller's name, or `Admin`. */
  name: string;
  email: string;
  password: string | undefined;
}

/** Addresses at a reserved domain (RFC 2606): no mail to them reaches anyone, and nobody can sign up with one. */
const DEMO_ADMIN_EMAIL = 'demo.admin@keystore.example';

/**
 * The demo sellers. Each offers the demo games from `games[0]` up to `games[1]` (the two overlap, so some
 * games have three offers), priced at the house's price times its factors in turn: some cheaper, some dearer.
 */
const DEMO_SELLERS = [
  { slug: 'pixel-vault', name: 'Pixel Vault (demo)', username: 'PixelVaultDemo', email: 'demo.pixelvault@keystore.example', country: 'DE', games: [0, 24], factors: [0.85, 0.9, 0.94, 1.12] },
  { slug: 'key-harbor', name: 'Key Harbor (demo)', username: 'KeyHarborDemo', email: 'demo.keyharbor@keystore.example', country: 'NL', games: [12, 36], factors: [1.08, 0.92, 1.15, 0.97] },
] as const;
type DemoSeller = (typeof DEMO_SELLERS)[number];

/** How many games the demo sellers offer, at least what the house asks for each, and how long to wait for the catalogue. */
const DEMO_GAMES = 36;
const HOUSE_PRICE_MIN_CENTS = 200;
const CATALOGUE_WAIT_SECONDS = 120;

/** A demo game: its id and the house's price of it. */
interface DemoGame {
  id: string;
  houseCents: number;
}

export interface DemoMarketServices {
  users: UsersService;
  sellers: SellersService;
  offers: OffersService;
  catalog: CatalogService;
  database: Database;
  config: Pick<Config, 'admin' | 'dataDir' | 'databaseUrl' | 'secrets'>;
  log: FastifyBaseLogger;
}

/**
 * Opens the demo marketplace and answers the demo accounts' sign-ins. Idempotent: a later start finds
 * what the first made and adds nothing (a demo seller with any offer keeps what it has). The demo admin
 * is made only when ADMIN_EMAIL is not set. Instances starting together take turns on an advisory lock.
 */
export async function openDemoMarket({ users, sellers, offers, catalog, database, config, log }: DemoMarketServices): Promise<DemoSignIn[]> {
  const run = await database.withAdvisoryLock(
    LOCKS.demoMarket,
    async () => {
      const signIns: DemoSignIn[] = [];
      if (!config.admin) {
        const password = demoPassword(config, 'admin');
        // The ADMIN_EMAIL path. Its lines speak of ADMIN_PASSWORD, not this one, and it throws what goes wrong: it logs nothing here.
        await ensureAdmin(users, { email: DEMO_ADMIN_EMAIL, password }, log.child({}, { level: 'silent' }));
        signIns.push({ role: 'admin', name: 'Admin', email: DEMO_ADMIN_EMAIL, password: await shownPassword(await users.findByEmail(DEMO_ADMIN_EMAIL), password) });
      }
      let games: DemoGame[] | undefined;
      for (const demo of DEMO_SELLERS) {
        const password = demoPassword(config, demo.slug);
        const user = (await users.findByEmail(demo.email)) ?? (await users.create({ username: demo.username, email: demo.email, passwordHash: await hashPassword(password), verified: true }));
        const seller = await approvedSeller(sellers, user.id, demo);
        if ((await offers.offers(seller)).length === 0) {
          games ??= await demoGames(catalog, offers);
          const opened = await stockOffers(sellers, offers, seller, demo, games);
          log.info({ seller: demo.name, offers: opened.offers, keys: opened.keys }, 'demo seller opened');
        }
        signIns.push({ role: 'seller', name: demo.name, email: demo.email, password: await shownPassword(user, password) });
      }
      return signIns;
    },
    true,
  );
  return run.ran ? run.value : [];
}

/** The user's seller: applied for and approved (with 0 hold days, so a sale is available at once) when it is not yet. */
async function approvedSeller(sellers: SellersService, userId: string, demo: DemoSeller): Promise<SellerRow> {
  const ofUser = () => sellers.ofUser(userId).catch((error: unknown) => (error instanceof NotFound ? undefined : Promise.reject(error)));
  let seller = await ofUser();
  if (!seller) {
    await sellers.apply(userId, true, { name: demo.name, contactEmail: demo.email, country: demo.country });
    seller = (await ofUser())!;
  }
  // Pending: just applied, or an earlier start stopped here. Approved as the back office does (PATCH /api/admin/sellers/:id).
  if (seller.status === 'pending') {
    await sellers.adminPatch(seller.id, { status: 'active', holdDays: 0 });
    seller = (await ofUser())!;
  }
  return seller;
}

/** Puts the seller's offers of its demo games in the store, each with a few fake keys; answers how many of each. */
async function stockOffers(sellers: SellersService, offers: OffersService, seller: SellerRow, demo: DemoSeller, games: DemoGame[]): Promise<{ offers: number; keys: number }> {
  const commission = await sellers.commissionOf(seller);
  let made = 0;
  let keys = 0;
  for (const [n, game] of games.slice(demo.games[0], demo.games[1]).entries()) {
    const priceCents = Math.round(game.houseCents * demo.factors[n % demo.factors.length]!);
    const offer = await offers.createOffer(seller, { gameId: game.id, netPrice: netCentsFor(priceCents, commission) / 100, status: 'active' });
    const uploaded = await offers.uploadKeys(seller, offer._id, demoSerials(demo.slug, game.id, 2 + (n % 4)));
    made += 1;
    keys += uploaded.added;
  }
  return { offers: made, keys };
}

/** The most popular games the house sells for €2 or more, with its price, once the catalogue has games. */
async function demoGames(catalog: CatalogService, offers: OffersService): Promise<DemoGame[]> {
  // On a first start the demo feed is still being read in: syncNow joins that sync (or runs one, on an
  // instance whose neighbour holds it: that one's index arrives by NOTIFY).
  for (let second = 0; catalog.size === 0 && second < CATALOGUE_WAIT_SECONDS; second += 1) {
    await catalog.syncNow();
    if (catalog.size === 0) await sleep(1000);
  }
  const games: DemoGame[] = [];
  for (const item of catalog.list({ sort: 'popularity', page: 1, pageSize: 100, filters: {} }).items) {
    if (games.length === DEMO_GAMES) break;
    const house = (await offers.offersOfGame(item._id)).find((offer) => offer.offerId === houseOfferId(item._id));
    const houseCents = Math.round((house?.price ?? 0) * 100);
    if (houseCents >= HOUSE_PRICE_MIN_CENTS) games.push({ id: item._id, houseCents });
  }
  return games;
}

/** The net price at which the seller's commission brings the buyer's price to about `priceCents` (buyerPriceCents, inverted). */
function netCentsFor(priceCents: number, commission: Commission): number {
  return Math.max(NET_PRICE_MIN_CENTS, Math.round((priceCents - commission.fixedCents) / (1 + commission.percent / 100)));
}

/** `count` fake keys of a demo seller for a game, the same on every start, DEMO-XXXX-XXXX-XXXX. */
function demoSerials(slug: string, gameId: string, count: number): string[] {
  return Array.from({ length: count }, (_, n) => {
    const hex = createHash('sha256').update(`${slug}:${gameId}:${n}`).digest('hex').slice(0, 12).toUpperCase();
    return `DEMO-${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8)}`;
  });
}

/**
 * A demo account's password: random on the first start and kept in DATA_DIR/secrets, so every start
 * prints the same. On PostgreSQL (DATABASE_URL) the instances share no DATA_DIR, so it is derived from
 * JWT_SECRET, which they all have. 18 hex digits pass the sign-up rules as a passphrase (16 or more).
 */
function demoPassword(config: DemoMarketServices['config'], slug: string): string {
  if (config.databaseUrl) return createHmac('sha256', config.secrets.jwt).update(`demo-account:${slug}`).digest('hex').slice(0, 18);
  return generatedSecret(config.dataDir, `demo-${slug}-password`, 9, 'hex');
}

/** The password to print: the one kept, unless the account's owner has changed it since. */
async function shownPassword(user: UserRow | undefined, password: string): Promise<string | undefined> {
  return user && (await passwordMatches(user.passwordHash, password)) ? password : undefined;
}
