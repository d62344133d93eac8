import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages, newsMessages, type GeneratedText, type News } from '@keystore/contract';
import { signedInUser, type SignedInUser } from '../../test/accounts.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { UsersService } from '../users/service.ts';
import { multipart } from '../../test/multipart.ts';
import { phonePhoto, png } from './test-kit.ts';

let t: TestApp;
let admin: SignedInUser;
let customer: SignedInUser;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.catalog.syncNow();
  admin = await signedInUser(t.app);
  await new UsersService(t.database, t.config).setRole(admin.user._id, 'admin');
  customer = await signedInUser(t.app);
});

afterAll(() => t.close());

const post = (url: string, payload: object, headers: Record<string, string> = admin.headers) => t.app.inject({ method: 'POST', url, payload, headers });

async function postForm(parts: Parameters<typeof multipart>[0], headers: Record<string, string> = admin.headers) {
  const body = await multipart(parts);
  return t.app.inject({ method: 'POST', url: '/api/news', headers: { ...headers, 'content-type': body.contentType }, payload: body.payload });
}

const item = { title: 'Summer sale starts', category: 'Sales', content: 'The sale is on.\n\nIt ends on Sunday.' };

describe('POST /api/news', () => {
  it('publishes JSON news by the admin with the author Admin, listed newest first and readable by anyone', async () => {
    const first = await post('/api/news', item);
    expect(first.statusCode).toBe(201);
    const created = first.json<News>();
    expect(created).toMatchObject({ ...item, author: 'Admin', coverImage: null, _id: expect.any(String), createdAt: expect.any(String) });

    const second = (await post('/api/news', { ...item, title: 'Second item' })).json<News>();
    const list = (await t.app.inject({ url: '/api/news' })).json<News[]>();
    expect(list.slice(0, 2).map((news) => news._id)).toEqual([second._id, created._id]);

    const one = await t.app.inject({ url: `/api/news/${created._id}` });
    expect(one.json()).toEqual(created);
  });

  it('documents the news calls in the OpenAPI description', async () => {
    const docs = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(docs.paths)).toEqual(expect.arrayContaining(['/api/news', '/api/news/{id}', '/api/news/generate-text', '/api/news/generate-image']));
  });

  it('answers 404 for unknown news', async () => {
    const answer = await t.app.inject({ url: '/api/news/nosuchnews' });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ error: newsMessages.notFound });
  });

  it('refuses a visitor with 401 and a customer with 403 on every admin call', async () => {
    for (const [url, body] of [['/api/news', item], ['/api/news/generate-text', { topic: 'sale' }], ['/api/news/generate-image', { title: 'x' }]] as const) {
      const visitor = await post(url, body, {});
      expect(visitor.statusCode, url).toBe(401);
      expect(visitor.json()).toEqual({ error: accountMessages.authRequired });
      const refused = await post(url, body, customer.headers);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json()).toEqual({ error: accountMessages.adminOnly });
    }
  });

  it('says which field is missing or too long', async () => {
    const cases: Array<[object, string]> = [
      [{ ...item, title: '  ' }, newsMessages.titleRequired],
      [{ category: 'x', content: 'y' }, newsMessages.titleRequired],
      [{ ...item, category: '' }, newsMessages.categoryRequired],
      [{ ...item, content: '' }, newsMessages.contentRequired],
      [{ ...item, title: 'x'.repeat(201) }, newsMessages.titleTooLong],
      [{ ...item, author: 'Someone' }, newsMessages.authorUnknown],
      [{ ...item, coverImage: 'https://example.com/cat.png' }, newsMessages.coverInvalid],
      [{ ...item, coverImage: '/media/news/neverissued.webp' }, newsMessages.coverInvalid],
    ];
    for (const [body, error] of cases) {
      const answer = await post('/api/news', body);
      expect(answer.statusCode, error).toBe(400);
      expect(answer.json()).toEqual({ error });
    }
  });

  it('takes a multipart form with a PNG cover, re-encoded to a 1200 × 675 WebP without metadata', async () => {
    const photo = await phonePhoto();
    const answer = await postForm({ ...item, author: 'Admin', coverImage: { data: photo, filename: 'cover.jpg', type: 'image/jpeg' } });
    expect(answer.statusCode).toBe(201);
    const created = answer.json<News>();
    expect(created).toMatchObject({ ...item, author: 'Admin' });
    expect(created.coverImage).toMatch(/^\/media\/news\/[a-z0-9]+\.webp$/);

    const served = await t.app.inject({ url: created.coverImage! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ url: created.coverImage!, headers: { 'if-none-match': served.headers.etag as string } })).statusCode).toBe(304);
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 1200, height: 675 });
    expect(metadata.exif).toBeUndefined();
    expect(served.rawPayload.toString('latin1')).not.toContain('PhoneMaker');
  });

  it('takes a form without a cover, and a JSON cover as a data URL', async () => {
    const withoutCover = await postForm({ ...item, coverImage: { data: Buffer.alloc(0), filename: '', type: 'application/octet-stream' } });
    expect(withoutCover.json<News>().coverImage).toBeNull();
    const dataUrl = `data:image/png;base64,${(await png(300, 200)).toString('base64')}`;
    const fromJson = await post('/api/news', { ...item, coverImage: dataUrl });
    expect(fromJson.statusCode).toBe(201);
    const served = await t.app.inject({ url: fromJson.json<News>().coverImage! });
    expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
  });

  it('takes a data URL cover of several megabytes, far above the app’s default JSON body limit', async () => {
    const noise = await sharp({ create: { width: 1000, height: 800, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer();
    expect(noise.length).toBeGreaterThan(1024 * 1024);
    const answer = await post('/api/news', { ...item, coverImage: `data:image/png;base64,${noise.toString('base64')}` });
    expect(answer.statusCode).toBe(201);
    expect(answer.json<News>().coverImage).toMatch(/^\/media\/news\//);
  });

  it('refuses a text file as the cover with 415, a cover over 10 MB with 413, and a form without a title with 400', async () => {
    const text = await postForm({ ...item, coverImage: { data: Buffer.from('not a picture\n'.repeat(20)), filename: 'notes.png', type: 'image/png' } });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ error: newsMessages.coverUnreadable });
    const huge = await postForm({ ...item, coverImage: { data: Buffer.alloc(10 * 1024 * 1024 + 1, 1), filename: 'big.png', type: 'image/png' } });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ error: newsMessages.coverTooLarge });
    const untitled = await postForm({ category: 'x', content: 'y' });
    expect(untitled.statusCode).toBe(400);
    expect(untitled.json()).toEqual({ error: newsMessages.titleRequired });
  });

  it('answers 404 for cover names it never gives and paths leaving the folder', async () => {
    for (const url of ['/media/news/nothere.webp', '/media/news/..%2Fsecrets%2Fjwt-secret', '/media/news/']) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    }
  });
});

describe('offline AI news (no OPENAI_API_KEY)', () => {
  const generate = async (topic: string) => {
    const answer = await post('/api/news/generate-text', { topic });
    expect(answer.statusCode).toBe(200);
    return answer.json<GeneratedText>();
  };
  const gameTitles = async () => {
    const titles = new Set<string>();
    for (let page = 1; ; page += 1) {
      const { items } = (await t.app.inject({ url: `/api/games?pageSize=100&page=${page}` })).json<{ items: Array<{ title: string }> }>();
      items.forEach((game) => titles.add(game.title));
      if (items.length < 100) return titles;
    }
  };

  it('drafts new arrivals, price drops and a platform’s best sellers from the catalogue, as Keystore AI', async () => {
    const titles = await gameTitles();
    const arrivals = await generate('What is new this week');
    const drops = await generate('Big discounts this weekend');
    const playstation = await generate('Best PS5 games');
    for (const draft of [arrivals, drops, playstation]) {
      expect(draft.author).toBe('Keystore AI');
      expect(draft.content).toMatch(/€\d+\.\d{2}/);
      expect(draft.content).not.toContain('$');
      expect(draft.content.split('\n\n').length).toBeGreaterThanOrEqual(3);
      // Every line naming a game names one the store sells.
      const named = [...draft.content.matchAll(/^(?:\d+\. )?(.+) \([^()]+\): €/gm)].map((match) => match[1]!);
      expect(named.length).toBeGreaterThanOrEqual(3);
      for (const title of named) expect(titles.has(title), title).toBe(true);
    }
    expect(arrivals.title).toMatch(/^New at Keystore: /);
    expect(drops.title).toMatch(/^Price drops: .+ now \d+% off$/);
    expect(drops.content).toMatch(/instead of €/);
    expect(playstation.title).toMatch(/^PS5 best sellers/);
    expect(playstation.content).toContain('(PS5)');
  });

  it('asks for a topic', async () => {
    const answer = await post('/api/news/generate-text', { topic: ' ' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: newsMessages.topicRequired });
  });

  it('renders a WebP cover from the title, which approving the draft publishes', async () => {
    const missing = await post('/api/news/generate-image', { title: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: newsMessages.textFirst });

    const { coverImage } = (await post('/api/news/generate-image', { title: 'Price drops: a very long title to wrap across lines' })).json<{ coverImage: string }>();
    const served = await t.app.inject({ url: coverImage });
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 1200, height: 675 });

    const approved = await post('/api/news', { title: 'Price drops', category: 'Store news', content: 'a\n\nb', author: 'Keystore AI', coverImage });
    expect(approved.statusCode).toBe(201);
    expect(approved.json<News>()).toMatchObject({ author: 'Keystore AI', coverImage });
  });
});
