// Fills the configured database (DATA_DIR or DATABASE_URL) with a deterministic synthetic catalogue:
//   npm run seed:synthetic -- 70000
import '../platform/drizzle-as-commonjs.ts';

const { loadConfig } = await import('../config.ts');
const { openDatabase } = await import('../db/client.ts');
const { upsertProducts } = await import('../modules/catalog/store.ts');
const { SYNTHETIC_SUPPLIER, syntheticProducts } = await import('../modules/catalog/synthetic.ts');

const count = Number(process.argv[2] ?? 70_000);
if (!Number.isInteger(count) || count < 1) {
  console.error('usage: npm run seed:synthetic -- <count>');
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
await database.close();
console.log(`synthetic catalogue: ${count} products (${added} new) in ${Math.round(performance.now() - started)} ms`);
