// Writes the API's OpenAPI description (what /api/docs/json serves) to a file, without a server,
// a DATABASE_URL or a web build: the app is built on an in-memory embedded database and closed again.
//   node apps/server/src/scripts/openapi.ts <out.json>
import '../platform/drizzle-as-commonjs.ts';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const { buildApp } = await import('../app.ts');
const { loadConfig } = await import('../config.ts');
const { openDatabase } = await import('../db/client.ts');

const out = process.argv[2];
if (!out) {
  console.error('usage: node apps/server/src/scripts/openapi.ts <out.json>');
  process.exit(2);
}
const dataDir = mkdtempSync(path.join(tmpdir(), 'keystore-openapi-'));
try {
  // The default configuration (test payments, the dev outbox), with fixed secrets so nothing is generated.
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'openapi-description-only-0123456789abcdef',
    KEY_ENCRYPTION_KEY: '0'.repeat(64),
    WEB_DIST: path.join(dataDir, 'no-web-build'),
  });
  const database = await openDatabase({});
  const app = await buildApp({ config, database, logger: false, catalog: { autoSync: false } });
  try {
    await app.ready();
    mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
  } finally {
    await app.close();
    await database.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
