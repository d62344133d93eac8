import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsMessages, type GeneratedText, type News } from '@keystore/contract';
import { signedInUser, type SignedInUser } from '../../test/accounts.ts';
import { FakeOpenAi } from '../../test/fake-openai.ts';
import { EventBus } from '../../platform/events.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { UsersService } from '../users/service.ts';
import { NewsService } from './service.ts';

let openai: FakeOpenAi;
let t: TestApp;
let admin: SignedInUser;

beforeAll(async () => {
  openai = await new FakeOpenAi().start();
  t = await buildTestApp({ env: openai.env() });
  admin = await signedInUser(t.app);
  await new UsersService(t.database, t.config).setRole(admin.user._id, 'admin');
});

afterAll(async () => {
  await t.close();
  await openai.stop();
});

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: admin.headers });

describe('AI news with an OpenAI-compatible provider', () => {
  it('asks the model for JSON about the topic and answers its draft as ChatGPT', async () => {
    openai.reply = () => JSON.stringify({ title: 'Elden Ring DLC arrives', content: 'Shadow of the Erdtree is here.\nGet your key today.' });
    const answer = await post('/api/news/generate-text', { topic: 'the new Elden Ring expansion' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json<GeneratedText>()).toEqual({
      title: 'Elden Ring DLC arrives',
      content: 'Shadow of the Erdtree is here.\n\nGet your key today.',
      author: 'ChatGPT',
    });
    const [request] = openai.calls('/v1/chat/completions').slice(-1);
    expect(request?.body.response_format).toEqual({ type: 'json_object' });
    expect(JSON.stringify(request?.body.messages)).toContain('the new Elden Ring expansion');
  });

  it('answers 502 with the news text error when the model fails or answers something else', async () => {
    openai.faults.push({ status: 400, message: 'bad request' });
    const failed = await post('/api/news/generate-text', { topic: 'anything' });
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({ error: newsMessages.textFailed, reference: expect.any(String) });
    openai.reply = () => 'Sorry, I cannot help with that.';
    expect((await post('/api/news/generate-text', { topic: 'anything' })).json()).toEqual({ error: newsMessages.textFailed, reference: expect.any(String) });
  });

  it('stores the model’s image as a WebP cover that an approved draft publishes as ChatGPT', async () => {
    const answer = await post('/api/news/generate-image', { title: 'Elden Ring DLC arrives' });
    expect(answer.statusCode).toBe(200);
    const { coverImage } = answer.json<{ coverImage: string }>();
    const [request] = openai.calls('/v1/images/generations').slice(-1);
    expect(String(request?.body.prompt)).toContain('Elden Ring DLC arrives');
    const served = await t.app.inject({ url: coverImage });
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 1200, height: 675 });

    const saved = await post('/api/news', { title: 'Elden Ring DLC arrives', category: 'Store news', content: 'a\n\nb', author: 'ChatGPT', coverImage });
    expect(saved.statusCode).toBe(201);
    expect(saved.json<News>()).toMatchObject({ author: 'ChatGPT', coverImage });
  });

  it('answers 502 with the image error when the model cannot draw', async () => {
    openai.faults.push({ status: 400, message: 'content policy' });
    const answer = await post('/api/news/generate-image', { title: 'Anything' });
    expect(answer.statusCode).toBe(502);
    expect(answer.json()).toEqual({ error: newsMessages.imageFailed, reference: expect.any(String) });
  });
});

describe('NewsService news-published', () => {
  it('tells the bus of each published item, and publishes even when a subscriber fails', async () => {
    const told: Array<{ id: string; title: string }> = [];
    const deps = { database: t.database, dataDir: t.config.dataDir, catalog: t.app.catalog, ai: undefined, log: t.app.log };
    const bus = new EventBus(t.app.log);
    bus.on('news-published', (item) => void told.push(item));
    const news = new NewsService({ ...deps, events: bus });
    const created = await news.create({ title: 'Hooked', category: 'Store', content: 'Text' }, admin.user._id);
    expect(told).toEqual([{ id: created._id, title: 'Hooked' }]);

    const failingBus = new EventBus(t.app.log);
    failingBus.on('news-published', () => Promise.reject(new Error('notifications down')));
    const failing = new NewsService({ ...deps, events: failingBus });
    const published = await failing.create({ title: 'Still out', category: 'Store', content: 'Text' }, admin.user._id);
    expect((await t.app.inject({ url: `/api/news/${published._id}` })).statusCode).toBe(200);
  });
});
