// Several instances on one database: an avatar stored through one is served by every other, none of
// them keeping anything on its own disk, and one removed through one is gone from every other; and
// the avatar files of an older store move into the database.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@keystore/contract';
import type { Database } from '../../db/client.ts';
import { users } from './schema.ts';
import { signedInUser, type SignedInUser } from '../../test/accounts.ts';
import { buildTestApp, freshDatabase, type TestApp } from '../../test/helper.ts';
import { multipart } from '../../test/multipart.ts';
import { AvatarFiles } from './avatars.ts';

let database: Database;
let first: TestApp;
let second: TestApp;
let alice: SignedInUser;

beforeAll(async () => {
  database = await freshDatabase();
  first = await buildTestApp({ database });
  second = await buildTestApp({ database });
  alice = await signedInUser(first.app);
});

afterAll(async () => {
  await first?.close();
  await second?.close();
  await database?.close();
});

async function uploadAvatar(t: TestApp, colour: string, who: SignedInUser = alice): Promise<string> {
  const data = await sharp({ create: { width: 64, height: 64, channels: 3, background: colour } }).png().toBuffer();
  const body = await multipart({ avatar: { data, filename: 'me.png', type: 'image/png' } });
  const answer = await t.app.inject({ method: 'PUT', url: '/api/users/profile', headers: { ...who.headers, 'content-type': body.contentType }, payload: body.payload });
  expect(answer.statusCode).toBe(200);
  return answer.json<User>().avatar!;
}

describe('avatars across instances', () => {
  it('serves an avatar uploaded through one instance from another, with a strong ETag and a year of caching', async () => {
    const url = await uploadAvatar(first, '#c33');
    const fromFirst = await first.app.inject({ url });
    const fromSecond = await second.app.inject({ url });
    expect(fromSecond.statusCode).toBe(200);
    expect(fromSecond.headers['content-type']).toBe('image/webp');
    expect(fromSecond.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(fromSecond.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(fromSecond.headers.etag).toBe(fromFirst.headers.etag);
    expect(fromSecond.rawPayload.equals(fromFirst.rawPayload)).toBe(true);
    // Neither instance wrote the picture to its own data folder.
    for (const t of [first, second]) expect(readdirSync(t.config.dataDir)).not.toContain('avatars');
  });

  it('answers 304 without the bytes when the browser has them, on any instance', async () => {
    const url = await uploadAvatar(first, '#3c3');
    const etag = (await first.app.inject({ url })).headers.etag as string;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"something-else", ${etag}`, '*']) {
      const cached = await second.app.inject({ url, headers: { 'if-none-match': ifNoneMatch } });
      expect(cached.statusCode, ifNoneMatch).toBe(304);
      expect(cached.rawPayload.length).toBe(0);
      expect(cached.headers.etag).toBe(etag);
      expect(cached.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect((await second.app.inject({ url, headers: { 'if-none-match': '"an-older-picture"' } })).statusCode).toBe(200);
  });

  it('removes the replaced avatar for every instance', async () => {
    const old = await uploadAvatar(first, '#33c');
    const replacement = await uploadAvatar(second, '#cc3');
    expect((await first.app.inject({ url: old })).statusCode).toBe(404);
    expect((await first.app.inject({ url: replacement })).statusCode).toBe(200);
  });

  it('stops serving a deleted account’s avatar, and every other upload it owns, on every instance at once', async () => {
    const bob = await signedInUser(first.app);
    const shown = await uploadAvatar(first, '#c3c', bob);
    // An upload of Bob's that an interrupted change left stored but never shown (a crash between
    // storing it and pointing the account at it, or before removing the one it replaced).
    const picture = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#3cc' } }).webp().toBuffer();
    const leftover = `/media/avatars/${await new AvatarFiles(database.db, first.config.dataDir).store(bob.user._id, picture)}`;
    for (const url of [shown, leftover]) expect((await second.app.inject({ url })).statusCode).toBe(200);

    const deleted = await second.app.inject({ method: 'DELETE', url: '/api/users/profile', headers: bob.headers, payload: { currentPassword: bob.password } });
    expect(deleted.statusCode).toBe(200);
    for (const t of [first, second]) {
      for (const url of [shown, leftover]) expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    }
    // Alice's avatar is not Bob's upload: still served.
    expect((await first.app.inject({ url: await uploadAvatar(second, '#ccc') })).statusCode).toBe(200);
  });
});

describe('an older store’s avatar files', () => {
  it('move from DATA_DIR/avatars into the database at start, served by every instance from then on', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'keystore-older-store-'));
    try {
      const file = `${alice.user._id}-olderstore1.webp`;
      const picture = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#888' } }).webp().toBuffer();
      mkdirSync(path.join(dataDir, 'avatars'));
      writeFileSync(path.join(dataDir, 'avatars', file), picture);
      await database.db.update(users).set({ avatar: file }).where(eq(users.id, alice.user._id));

      const upgraded = await buildTestApp({ database, env: { DATA_DIR: dataDir } });
      await upgraded.close();
      const served = await second.app.inject({ url: `/media/avatars/${file}` });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(picture)).toBe(true);
      expect(readdirSync(dataDir)).not.toContain('avatars');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
