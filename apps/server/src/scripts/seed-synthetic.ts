// Fills the configured database (DATA_DIR or DATABASE_URL) with a deterministic synthetic catalogue, an
// order history over the last 6 months for the back office's dashboard, and optionally a marketplace:
// 3 sellers offering the first <seller titles> games with 3 keys each, and customers each wishing for 5
// of the first 1,000 games (products, orders, sellers, wishing customers):
//   npm run seed:synthetic -- 70000 3000 10000 10000
import '../platform/drizzle-as-commonjs.ts';

const { loadConfig } = await import('../config.ts');
const { openDatabase } = await import('../db/client.ts');
const { upsertProducts } = await import('../modules/catalog/store.ts');
const { SYNTHETIC_SUPPLIER, syntheticProducts } = await import('../modules/catalog/synthetic.ts');
const { seedOrderHistory } = await import('../modules/orders/synthetic.ts');
const { SYNTHETIC_CUSTOMERS, seedSyntheticCustomers } = await import('../modules/users/synthetic.ts');
const { seedSyntheticSellers } = await import('../modules/sellers/synthetic.ts');
const { seedSyntheticOffers } = await import('../modules/offers/synthetic.ts');
const { seedWishes } = await import('../modules/wishlist/synthetic.ts');
const { GameStockRows } = await import('../modules/catalog/game-stock.ts');
const { KeyVault } = await import('../modules/library/key-vault.ts');
const { KeyRing } = await import('../platform/key-ring.ts');

const count = Number(process.argv[2] ?? 70_000);
const orderCount = Number(process.argv[3] ?? 3_000);
const sellerTitles = Number(process.argv[4] ?? 0);
const wishers = Number(process.argv[5] ?? 0);
if (![count, orderCount, sellerTitles, wishers].every((n) => Number.isInteger(n) && n >= 0) || count < 1) {
  console.error('usage: npm run seed:synthetic -- <products> [<orders>] [<seller titles>] [<wishing customers>]');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
const started = performance.now();
const products = syntheticProducts(count);
const now = new Date();
let added = 0;
for (let start = 0; start < products.length; start += 1000) {
  const written = await upsertProducts(database.db, SYNTHETIC_SUPPLIER, products.slice(start, start + 1000), config.supplier.markupPercent, now);
  added += written.added;
}
// Wishing customers are synthetic customers too (with a wish list each).
await seedSyntheticCustomers(database.db, 180, Math.max(SYNTHETIC_CUSTOMERS, wishers));
const orders = await seedOrderHistory(database.db, orderCount);
let keys = 0;
if (sellerTitles > 0) {
  const vault = await KeyVault.open(database.db, new KeyRing(config.secrets.keyEncryption, config.secrets.keyEncryptionPrevious));
  keys = await seedSyntheticOffers(database.db, new GameStockRows(), vault, await seedSyntheticSellers(database.db, 3), { titles: sellerTitles, keysPerOffer: 3 });
}
const wishes = wishers > 0 ? await seedWishes(database.db, { customers: wishers, perUser: 5, titles: Math.min(count, 1000) }) : 0;
await database.close();
console.log(
  `synthetic catalogue: ${count} products (${added} new), ${orderCount} orders (${orders} new), ${sellerTitles > 0 ? `3 sellers on ${sellerTitles} titles (${keys} keys new)` : 'no sellers'}, ${wishers} wishing customers (${wishes} wishes new) in ${Math.round(performance.now() - started)} ms`,
);
