// Rotating KEY_ENCRYPTION_KEY on one database: keys stored under the old key are revealed by
// instances given the new key and the old one as KEY_ENCRYPTION_KEY_PREVIOUS, `keys:reencrypt`
// moves them under the new key, and no serial hash ever changes (a serial sold before stays refused).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Purchase } from '@keystore/contract';
import { queryRows, type Database } from '../../db/client.ts';
import { KeyRing } from '../../platform/key-ring.ts';
import { buildTestApp, freshDatabase, type TestApp } from '../../test/helper.ts';
import { BUYER_PASSWORD, ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';
import { KeyVault } from './key-vault.ts';
import { reencryptKeys } from './reencrypt.ts';
import { sealedShelfKeys } from '../offers/shelf.ts';
import { sealedSellerKeys } from '../offers/store.ts';
import { sealedWebhookSecrets } from '../sellers/store.ts';

const OLD = 'a1'.repeat(32);
const SELLER_SERIAL = 'SELLER-ROTATE-0001';
let sellerGame: string;
let sellerOffer: string;
let webhookSecret: string;
const NEW = 'b2'.repeat(32);

interface KeyRow {
  id: string;
  serial_encrypted: string;
  serial_hash: string;
}

let database: Database;
let before: OrdersTestApp;
let buyer: Buyer;
let serials: Map<string, string>;
let hashes: Map<string, string>;
const opened: TestApp[] = [];

const keyRows = () => queryRows<KeyRow>(database.db, sql`select id, serial_encrypted, serial_hash from product_keys order by id`);

async function revealed(t: TestApp, id: string): Promise<{ status: number; key?: string }> {
  const answer = await t.app.inject({ url: `/api/purchases/${id}/key`, headers: buyer.headers });
  return { status: answer.statusCode, key: answer.statusCode === 200 ? answer.json<{ key: string }>().key : undefined };
}

beforeAll(async () => {
  database = await freshDatabase();
  before = await ordersTestApp({ database, env: { KEY_ENCRYPTION_KEY: OLD } });
  buyer = await before.buyer();
  const { order } = await before.order(buyer, await before.gameWithStock(10), 2);
  expect((await before.pay(buyer, order._id)).statusCode).toBe(200);
  const purchases = (await before.app.inject({ url: '/api/purchases', headers: buyer.headers })).json<Purchase[]>();
  serials = new Map(await Promise.all(purchases.map(async (p) => [p._id, (await revealed(before, p._id)).key!] as const)));
  hashes = new Map((await keyRows()).map((row) => [row.id, row.serial_hash]));
  expect(serials.size).toBe(2);

  // A seller's uploaded key, sealed under the old key too (the marketplace, issue 23).
  const seller = await before.buyer();
  const applied = await before.app.inject({ method: 'POST', url: '/api/sellers', headers: seller.headers, payload: { name: 'Rotation Keys', contactEmail: 'rot@example.com', country: 'DE' } });
  await database.db.execute(sql`update sellers set status = 'active' where id = ${applied.json<{ seller: { _id: string } }>().seller._id}`);
  sellerGame = await before.gameWithStock(0, 5);
  const offer = await before.app.inject({ method: 'POST', url: '/api/seller/offers', headers: seller.headers, payload: { gameId: sellerGame, netPrice: 1 } });
  sellerOffer = offer.json<{ offer: { _id: string } }>().offer._id;
  const uploaded = await before.app.inject({ method: 'POST', url: `/api/seller/offers/${sellerOffer}/keys`, headers: seller.headers, payload: { keys: [SELLER_SERIAL] } });
  // Its webhook's signing secret is sealed under the old key as well (issue 24).
  const hook = await before.app.inject({ method: 'PUT', url: '/api/seller/webhook', headers: seller.headers, payload: { url: 'http://127.0.0.1:9/hook', password: BUYER_PASSWORD } });
  webhookSecret = hook.json<{ secret: string }>().secret;
  expect(uploaded.json()).toEqual({ added: 1, duplicates: 0, invalid: 0 });
});

afterAll(async () => {
  for (const t of opened) await t.close();
  await before?.close();
  await database?.close();
});

describe('a new KEY_ENCRYPTION_KEY', () => {
  it('given to a store upgraded from before vault_keys, still hashes serials under the key they were sold under', async () => {
    // A store of the previous version kept no serial-hash key: it derived it from its encryption key.
    await database.db.execute(sql`delete from vault_keys`);
    const vault = await KeyVault.open(database.db, new KeyRing(NEW, [OLD]));
    for (const [id, serial] of serials) expect(vault.serialHash(serial)).toBe(hashes.get(id));
  });

  it('reveals keys the old key encrypted when the old key is KEY_ENCRYPTION_KEY_PREVIOUS, and stores new keys under the new key', async () => {
    const rotating = await ordersTestApp({ database, sync: false, env: { KEY_ENCRYPTION_KEY: NEW, KEY_ENCRYPTION_KEY_PREVIOUS: OLD } });
    opened.push(rotating);
    for (const [id, serial] of serials) expect(await revealed(rotating, id)).toEqual({ status: 200, key: serial });

    const { order } = await rotating.order(buyer, await rotating.gameWithStock(10, 1));
    expect((await rotating.pay(buyer, order._id)).statusCode).toBe(200);
    const newId = new KeyRing(NEW).currentId;
    const rows = await keyRows();
    const added = rows.filter((row) => !serials.has(row.id));
    expect(added).toHaveLength(1);
    expect(added[0]!.serial_encrypted.startsWith(`v2.${newId}.`)).toBe(true);
    expect(rows.filter((row) => serials.has(row.id)).every((row) => row.serial_encrypted.startsWith(`v2.${new KeyRing(OLD).currentId}.`))).toBe(true);
    for (const row of rows) if (hashes.has(row.id)) expect(row.serial_hash).toBe(hashes.get(row.id));
  });

  it('rolls over several instances: one still on the old key, given the new one as previous, reveals what the swapped one stored', async () => {
    // The README's first step: every instance reads the new key before any writes with it.
    const lagging = await ordersTestApp({ database, sync: false, env: { KEY_ENCRYPTION_KEY: OLD, KEY_ENCRYPTION_KEY_PREVIOUS: NEW } });
    opened.push(lagging);
    const swapped = opened[0] as OrdersTestApp;
    const { order } = await swapped.order(buyer, await swapped.gameWithStock(10, 2));
    expect((await swapped.pay(buyer, order._id)).statusCode).toBe(200);
    const purchases = (await lagging.app.inject({ url: '/api/purchases', headers: buyer.headers })).json<Purchase[]>();
    const fresh = purchases.find((purchase) => purchase.orderId === order._id)!;
    expect(await revealed(lagging, fresh._id)).toEqual(await revealed(swapped, fresh._id));
    expect((await revealed(lagging, fresh._id)).status).toBe(200);
    for (const [id, serial] of serials) expect(await revealed(lagging, id)).toEqual({ status: 200, key: serial });
  });

  it('will not start without the key the stored keys are under, naming the variable to set', async () => {
    await expect(buildTestApp({ database, env: { KEY_ENCRYPTION_KEY: NEW } })).rejects.toThrow(/KEY_ENCRYPTION_KEY_PREVIOUS/);
  });

  it('keys:reencrypt moves every key under the new key, leaves the hashes alone, and a second run changes nothing', async () => {
    const vault = await KeyVault.open(database.db, new KeyRing(NEW, [OLD]));
    expect(await reencryptKeys(database.db, vault, { batchSize: 1, also: [sealedSellerKeys, sealedShelfKeys, sealedWebhookSecrets] })).toEqual({ keys: 4, hashKeyRewrapped: true });
    const newId = new KeyRing(NEW).currentId;
    const rows = await keyRows();
    expect(rows.every((row) => row.serial_encrypted.startsWith(`v2.${newId}.`))).toBe(true);
    const sellerRows = await queryRows<{ serial_encrypted: string }>(database.db, sql`select serial_encrypted from seller_keys`);
    expect(sellerRows.map((row) => row.serial_encrypted.startsWith(`v2.${newId}.`))).toEqual([true]);
    for (const [id, hash] of hashes) expect(rows.find((row) => row.id === id)!.serial_hash).toBe(hash);
    expect(await reencryptKeys(database.db, vault, { also: [sealedSellerKeys, sealedShelfKeys, sealedWebhookSecrets] })).toEqual({ keys: 0, hashKeyRewrapped: false });
    const [hook] = await queryRows<{ id: string; webhook_secret_sealed: string }>(database.db, sql`select id, webhook_secret_sealed from sellers where webhook_secret_sealed is not null`);
    expect(hook!.webhook_secret_sealed.startsWith(`v2.${newId}.`)).toBe(true);
    expect(new KeyRing(NEW).decrypt(hook!.webhook_secret_sealed, `seller-webhook:${hook!.id}`).toString('utf8')).toBe(webhookSecret);

    // The old key can go now: an instance with the new key alone starts and reveals every key.
    const rotated = await buildTestApp({ database, env: { KEY_ENCRYPTION_KEY: NEW } });
    opened.push(rotated);
    for (const [id, serial] of serials) expect(await revealed(rotated, id)).toEqual({ status: 200, key: serial });
    // The seller's key, sold after the rotation, is delivered and revealed under the new key alone.
    const placed = await rotated.app.inject({ method: 'POST', url: '/api/orders', headers: buyer.headers, payload: { items: [{ gameId: sellerGame, quantity: 1, offerId: sellerOffer }] } });
    expect(placed.statusCode, placed.body).toBe(201);
    const orderId = placed.json<{ order: { _id: string } }>().order._id;
    const paid = await rotated.app.inject({ method: 'POST', url: `/api/payments/test/${orderId}`, headers: buyer.headers, payload: { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'Ada Lovelace' } });
    expect(paid.json()).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    const bought = (await rotated.app.inject({ url: '/api/purchases', headers: buyer.headers })).json<Purchase[]>().find((purchase) => purchase.orderId === orderId)!;
    expect(await revealed(rotated, bought._id)).toEqual({ status: 200, key: SELLER_SERIAL });
    // And hashes a serial as it was hashed when sold, so the same serial is still refused.
    const onlyNew = await KeyVault.open(database.db, new KeyRing(NEW));
    for (const [id, serial] of serials) expect(onlyNew.serialHash(serial)).toBe(hashes.get(id));
  });
});
