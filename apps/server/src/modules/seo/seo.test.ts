import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameListAnswer } from '@keystore/contract';
import { PAGES, pageModule } from '@keystore/contract/pages';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { STATIC_PAGES } from './pages.ts';

// What a search engine or a link preview sees before any JavaScript runs.
describe('pages as the server sends them', () => {
  let t: TestApp;
  let web: string;

  beforeAll(async () => {
    web = mkdtempSync(path.join(tmpdir(), 'keystore-web-'));
    writeFileSync(
      path.join(web, 'index.html'),
      '<!doctype html><html><head><meta charset="UTF-8" /><!--page-head--><title>Default</title><meta name="description" content="Default" /></head><body><div id="root"></div></body></html>',
    );
    mkdirSync(path.join(web, '.vite'));
    writeFileSync(
      path.join(web, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-1.js' },
        '_card.js': { file: 'assets/card-1.js', imports: ['index.html'], css: ['assets/card-1.css'] },
        [pageModule('game')]: { file: 'assets/game-page-1.js', imports: ['index.html', '_card.js'] },
      }),
    );
    t = await buildTestApp({ env: { WEB_DIST: web, PUBLIC_URL: 'https://shop.example', SUPPORT_EMAIL: 'help@shop.example' } });
    await t.app.catalog.syncNow();
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('hands every page the support address the shop configured, the one its mails use', async () => {
    for (const url of ['/', '/terms', '/game/no-such-game']) {
      expect((await t.app.inject({ url })).body, url).toContain('<meta name="keystore:support-email" content="help@shop.example" />');
    }
  });

  it("serves every page of the contract's table with its title", async () => {
    for (const key of STATIC_PAGES) {
      const page = await t.app.inject({ url: PAGES[key].path });
      expect(page.statusCode, key).toBe(200);
      expect(page.body, key).toContain(`<title>${PAGES[key].title.replace(/&/g, '&#38;')}</title>`);
    }
  });

  it('gives each page its own title, description and OpenGraph tags', async () => {
    const store = await t.app.inject({ url: '/store?platform=pc' });
    expect(store.statusCode).toBe(200);
    expect(store.body).toContain('<title>Store · Keystore</title>');
    expect(store.body).toContain('<meta property="og:url" content="https://shop.example/store" />');
    expect(store.body).not.toContain('<title>Default</title>');
    const support = await t.app.inject({ url: '/support' });
    expect(support.statusCode).toBe(200);
    expect(support.body).toContain('<title>Support · Keystore</title>');
  });

  it('describes a game page as a product with JSON-LD', async () => {
    const [game] = (await t.app.inject({ url: '/api/games?search=Witcher 3' })).json<GameListAnswer>().items;
    const page = await t.app.inject({ url: `/game/${game!._id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<title>${game!.title.replace(/'/g, '&#39;')} (${game!.platform}) · Keystore</title>`);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/.exec(page.body)![1]!);
    expect(jsonLd).toMatchObject({ '@type': 'Product', name: game!.title, offers: { priceCurrency: 'EUR', price: game!.price.toFixed(2) } });
    expect(page.body).toContain(`<meta property="og:image" content="https://shop.example/media/covers/${game!._id}.svg" />`);
  });

  it("starts fetching a page's own scripts, data and cover together with the HTML", async () => {
    const [game] = (await t.app.inject({ url: '/api/games?search=Witcher 3' })).json<GameListAnswer>().items;
    const page = (await t.app.inject({ url: `/game/${game!._id}` })).body;
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/game-page-1.js" />');
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/card-1.js" />');
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/card-1.css" />');
    expect(page).not.toContain('href="/assets/index-1.js"');
    expect(page).toContain(`<link rel="preload" as="fetch" crossorigin="anonymous" href="/api/games/${game!._id}" />`);
    expect(page).toContain(`<link rel="preload" as="image" href="/media/covers/${game!._id}.svg" />`);
  });

  it('answers 404 for unknown paths and unknown games, with the page still rendered by the app', async () => {
    for (const url of ['/no-such-page', '/game/doesnotexist', '/store/extra']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode, url).toBe(404);
      expect(page.body, url).toContain('<div id="root">');
      expect(page.body, url).toContain('<meta name="robots" content="noindex" />');
    }
    expect((await t.app.inject({ url: '/api/nope' })).json()).toEqual({ error: 'Not found' });
    // A malformed escape is refused by the framework with a 400, never a 500.
    expect((await t.app.inject({ url: '/%E0%A4%A' })).statusCode).toBe(400);
  });

  it('knows the account pages and keeps them out of search results', async () => {
    for (const url of ['/library', '/profile', '/pay/0123456789abcdef01234567', '/confirm-email?email=a%40example.org&code=123456', '/reset-password?email=a%40example.org&token=t', '/login']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('<meta name="robots" content="noindex" />');
    }
    expect((await t.app.inject({ url: '/store' })).body).not.toContain('noindex');
  });

  it('serves the news pages, a news item with its own title, and 404 for one that does not exist', async () => {
    const item = await t.app.news.create({ title: 'Winter <sale> starts', category: 'Sales', content: 'Keys are cheaper.\n\nUntil Sunday.' }, null);
    const page = await t.app.inject({ url: `/news/${item._id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Winter &#60;sale&#62; starts · Keystore</title>');
    expect(page.body).toContain('<meta name="description" content="Keys are cheaper. Until Sunday." />');
    expect((await t.app.inject({ url: '/news/nosuchitem' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/news' })).body).toContain('<title>News · Keystore</title>');
    const admin = await t.app.inject({ url: '/admin/news' });
    expect(admin.statusCode).toBe(200);
    expect(admin.body).toContain('<meta name="robots" content="noindex" />');
  });

  it('serves robots.txt and sitemaps listing the pages and every game', async () => {
    const robots = await t.app.inject({ url: '/robots.txt' });
    expect(robots.body).toContain('Sitemap: https://shop.example/sitemap.xml');
    expect(robots.body).toContain('Disallow: /api/');
    const index = await t.app.inject({ url: '/sitemap.xml' });
    expect(index.body).toContain('<loc>https://shop.example/sitemaps/pages.xml</loc>');
    expect(index.body).toContain('<loc>https://shop.example/sitemaps/games-1.xml</loc>');
    const games = await t.app.inject({ url: '/sitemaps/games-1.xml' });
    expect(games.body.match(/<url>/g)).toHaveLength(t.app.catalog.gameIds().length);
    expect((await t.app.inject({ url: '/sitemaps/pages.xml' })).body).toContain('<loc>https://shop.example/terms</loc>');
    expect((await t.app.inject({ url: '/sitemaps/games-9.xml' })).statusCode).toBe(404);
  });
});
