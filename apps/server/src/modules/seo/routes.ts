import type { FastifyPluginAsync } from 'fastify';
import { PAGES } from '@keystore/contract/pages';
import type { CatalogService } from '../catalog/ports.ts';
import { STATIC_PAGES } from './pages.ts';

/** URLs per sitemap file; the protocol allows 50,000. */
const SITEMAP_CHUNK = 40_000;

/** robots.txt and the sitemaps: every indexable page and every game. */
export const seoRoutes: FastifyPluginAsync<{ catalog: CatalogService; publicUrl: string }> = async (app, { catalog, publicUrl }) => {
  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .send(['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /cart', 'Disallow: /profile', 'Disallow: /library', 'Disallow: /admin', 'Disallow: /seller', '', `Sitemap: ${publicUrl}/sitemap.xml`, ''].join('\n')),
  );

  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
    const chunks = Math.max(1, Math.ceil(catalog.gameIds().length / SITEMAP_CHUNK));
    const entries = ['pages', ...Array.from({ length: chunks }, (_, n) => `games-${n + 1}`)]
      .map((name) => `<sitemap><loc>${publicUrl}/sitemaps/${name}.xml</loc></sitemap>`)
      .join('');
    return reply.type('application/xml; charset=utf-8').send(`<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</sitemapindex>`);
  });

  app.get<{ Params: { name: string } }>('/sitemaps/:name', { schema: { hide: true } }, async (request, reply) => {
    const { name } = request.params;
    let paths: string[];
    if (name === 'pages.xml') {
      paths = STATIC_PAGES.filter((key) => PAGES[key].indexed).map((key) => PAGES[key].path);
    } else {
      const chunk = /^games-(\d+)\.xml$/.exec(name);
      const n = chunk ? Number(chunk[1]) : 0;
      paths = catalog.gameIds().slice((n - 1) * SITEMAP_CHUNK, n * SITEMAP_CHUNK).map((id) => `/game/${id}`);
      if (n < 1 || paths.length === 0) return reply.code(404).send({ error: 'Not found' });
    }
    const urls = paths.map((path) => `<url><loc>${publicUrl}${path}</loc></url>`).join('');
    return reply.type('application/xml; charset=utf-8').send(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
  });
};
