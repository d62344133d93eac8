import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages, AVATAR_MAX_BYTES, type User } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { signedInUser, type SignedInUser } from '../../test/accounts.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { encodePng } from '../../test/png.ts';
import { multipart } from '../../test/multipart.ts';

let test: TestApp;
let alice: SignedInUser;

beforeAll(async () => {
  test = await buildTestApp();
  alice = await signedInUser(test.app);
});

afterAll(() => test.close());

async function upload(data: Buffer, filename = 'me.png', type = 'image/png', headers = alice.headers) {
  const body = await multipart({ avatar: { data, filename, type } });
  return test.app.inject({ method: 'PUT', url: '/api/users/profile', headers: { ...headers, 'content-type': body.contentType }, payload: body.payload });
}

const png = (width: number, height: number, colour = '#3a7') =>
  sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();

/**
 * A photo as a phone takes it: stored sideways (red left half, blue right half) with EXIF
 * orientation 6 to show it upright, plus the camera, the owner and the GPS position.
 */
const phonePhoto = () =>
  sharp({ create: { width: 80, height: 40, channels: 3, background: '#00f' } })
    .composite([{ input: { create: { width: 40, height: 40, channels: 3, background: '#f00' } }, left: 0, top: 0 }])
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'PhoneMaker', Copyright: 'Alice' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' },
    })
    .toBuffer();

/**
 * A black 1-bit PNG written by hand: 20,000 × 20,000 pixels compress to a few dozen kilobytes, yet
 * would decode to 400 million pixels.
 */
function blackPng(width: number, height: number): Buffer {
  return encodePng({ width, height, bitDepth: 1, colour: 'greyscale', rows: Buffer.alloc(height * (1 + Math.ceil(width / 8))) });
}

/** The avatar files the store holds. */
const avatarFiles = async () =>
  (await queryRows<{ name: string }>(test.database.db, sql`select name from images where name like 'avatars/%' order by name`)).map((row) =>
    row.name.slice('avatars/'.length),
  );

describe('PUT /api/users/profile (avatar)', () => {
  it('turns a PNG into a 256 px WebP served for a year from /media/avatars', async () => {
    const answer = await upload(await png(300, 200));
    expect(answer.statusCode).toBe(200);
    const user = answer.json<User>();
    expect(user).toMatchObject({ _id: alice.user._id, username: alice.username, email: alice.email });
    expect(user.avatar).toMatch(new RegExp(`^/media/avatars/${alice.user._id}-[a-z0-9]+\\.webp$`));

    const served = await test.app.inject({ method: 'GET', url: user.avatar! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });

    const profile = await test.app.inject({ method: 'GET', url: '/api/users/profile', headers: alice.headers });
    expect(profile.json<User>().avatar).toBe(user.avatar);
  });

  it('turns a phone photo upright and strips its camera, owner and GPS metadata', async () => {
    const photo = await phonePhoto();
    const original = await sharp(photo).metadata();
    expect(original.exif?.toString('latin1')).toContain('PhoneMaker');
    expect(original.orientation).toBe(6);

    const answer = await upload(photo, 'holiday.jpg', 'image/jpeg');
    expect(answer.statusCode).toBe(200);
    const served = await test.app.inject({ method: 'GET', url: answer.json<User>().avatar! });
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata.format).toBe('webp');
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(served.rawPayload.toString('latin1')).not.toContain('PhoneMaker');

    // Upright, the red half is on top and the blue half below.
    const { data, info } = await sharp(served.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    const [topRed, , topBlue] = pixel(128, 40);
    const [bottomRed, , bottomBlue] = pixel(128, 215);
    expect(topRed).toBeGreaterThan(200);
    expect(topBlue).toBeLessThan(60);
    expect(bottomBlue).toBeGreaterThan(200);
    expect(bottomRed).toBeLessThan(60);
  });

  it('removes the old file when a new avatar replaces it', async () => {
    const first = (await upload(await png(64, 64, '#111'))).json<User>().avatar!;
    const second = (await upload(await png(64, 64, '#eee'))).json<User>().avatar!;
    expect(second).not.toBe(first);
    expect(await avatarFiles()).toEqual([path.basename(second)]);
    expect((await test.app.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await test.app.inject({ method: 'GET', url: second })).statusCode).toBe(200);
  });

  it('refuses a text file named .png with 415', async () => {
    const answer = await upload(Buffer.from('definitely not a picture\n'.repeat(20)), 'notes.png', 'image/png');
    expect(answer.statusCode).toBe(415);
    expect(answer.json()).toEqual({ error: accountMessages.avatarUnreadable });
  });

  it('refuses a truncated image and an SVG with 415', async () => {
    const cut = (await png(200, 200)).subarray(0, 120);
    expect((await upload(cut)).statusCode).toBe(415);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    const answer = await upload(svg, 'icon.svg', 'image/svg+xml');
    expect(answer.statusCode).toBe(415);
    expect(answer.json()).toEqual({ error: accountMessages.avatarUnreadable });
  });

  it('refuses an image whose pixels would not fit in memory (a decompression bomb) with 415', async () => {
    const bomb = blackPng(20_000, 20_000);
    expect(bomb.length).toBeLessThan(100_000);
    const answer = await upload(bomb);
    expect(answer.statusCode).toBe(415);
  });

  it('refuses a file of 5,242,881 bytes with 413, and takes one of exactly 5,242,880 bytes to the decoder', async () => {
    const tooBig = await upload(Buffer.alloc(AVATAR_MAX_BYTES + 1, 1));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ error: accountMessages.avatarTooLarge });
    const atTheLimit = await upload(Buffer.alloc(AVATAR_MAX_BYTES, 1));
    expect(atTheLimit.statusCode).toBe(415);
  });

  it('cuts a big file off at the limit while it streams in over a real connection: 413', async () => {
    const origin = await test.app.listen({ port: 0, host: '127.0.0.1' });
    for (const size of [AVATAR_MAX_BYTES + 1, 40 * 1024 * 1024]) {
      const form = new FormData();
      form.append('avatar', new Blob([new Uint8Array(size).fill(7)], { type: 'image/png' }), 'huge.png');
      const answer = await fetch(`${origin}/api/users/profile`, { method: 'PUT', headers: alice.headers, body: form });
      expect(answer.status, `${size} bytes`).toBe(413);
      expect(await answer.json()).toEqual({ error: accountMessages.avatarTooLarge });
    }
  });

  it('asks for a file when none is sent', async () => {
    const onlyText = await multipart({ note: 'hello' });
    const withoutFile = await test.app.inject({
      method: 'PUT',
      url: '/api/users/profile',
      headers: { ...alice.headers, 'content-type': onlyText.contentType },
      payload: onlyText.payload,
    });
    expect(withoutFile.statusCode).toBe(400);
    expect(withoutFile.json()).toEqual({ error: accountMessages.avatarMissing });

    const emptyFile = await upload(Buffer.alloc(0), '', 'application/octet-stream');
    expect(emptyFile.statusCode).toBe(400);
    expect(emptyFile.json()).toEqual({ error: accountMessages.avatarMissing });

    const json = await test.app.inject({ method: 'PUT', url: '/api/users/profile', headers: alice.headers, payload: { username: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({ error: accountMessages.avatarMissing });
  });

  it('answers 401 without a token and stores nothing', async () => {
    const before = await avatarFiles();
    const answer = await upload(await png(64, 64), 'me.png', 'image/png', { authorization: '' });
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual({ error: accountMessages.authRequired });
    expect(await avatarFiles()).toEqual(before);
  });
});

describe('GET /media/avatars/<file>', () => {
  it('answers 404 for unknown files, folder listings and paths that try to leave the folder', async () => {
    const secretsFile = path.join(test.config.dataDir, 'secrets');
    for (const url of [
      '/media/avatars/nobody-abc.webp',
      '/media/avatars/',
      '/media/avatars/..%2Fsecrets%2Fjwt-secret',
      '/media/avatars/..%2F..%2Fetc%2Fpasswd',
      `/media/avatars/${encodeURIComponent(secretsFile)}`,
    ]) {
      const answer = await test.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.headers['content-type'], url).not.toBe('image/webp');
    }
  });
});
