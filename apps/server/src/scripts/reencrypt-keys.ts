// Re-encrypts every stored key under the current KEY_ENCRYPTION_KEY, after a rotation
// (docs/decisions/012). Run it once every instance runs with the new key:
//   KEY_ENCRYPTION_KEY=<new> KEY_ENCRYPTION_KEY_PREVIOUS=<old> npm run keys:reencrypt
// Safe while the store runs on PostgreSQL, and safe to run again. The embedded database belongs to
// one process: stop the store first.
import '../platform/drizzle-as-commonjs.ts';

const { loadConfig } = await import('../config.ts');
const { openDatabase } = await import('../db/client.ts');
const { KeyRing } = await import('../platform/key-ring.ts');
const { KeyVault } = await import('../modules/library/key-vault.ts');
const { reencryptKeys } = await import('../modules/library/reencrypt.ts');
const { sealedSellerKeys } = await import('../modules/offers/store.ts');
const { sealedWebhookSecrets } = await import('../modules/sellers/store.ts');
const { sealedShelfKeys } = await import('../modules/offers/shelf.ts');
const { sealedTotpSecrets } = await import('../modules/security/ports.ts');

const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  const ring = new KeyRing(config.secrets.keyEncryption, config.secrets.keyEncryptionPrevious);
  const vault = await KeyVault.open(database.db, ring);
  const started = performance.now();
  // The library's keys, and the keys sellers uploaded and the house's shelf holds, sellers' webhook secrets and authenticator-app secrets, sealed the same way.
  const done = await reencryptKeys(database.db, vault, { also: [sealedSellerKeys, sealedShelfKeys, sealedWebhookSecrets, sealedTotpSecrets], onBatch: (keys) => console.log(`  ${keys} keys re-encrypted so far`) });
  console.log(
    `${done.keys} keys re-encrypted under key ${ring.currentId}${done.hashKeyRewrapped ? ', the serial-hash key re-wrapped' : ''}, ` +
      `in ${Math.round(performance.now() - started)} ms. Every key is now under KEY_ENCRYPTION_KEY: KEY_ENCRYPTION_KEY_PREVIOUS can be removed.`,
  );
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await database.close();
}
