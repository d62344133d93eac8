import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFoundAnswer } from './errors.ts';

/**
 * Serves the built web app: hashed assets with long caching, and index.html for every other page
 * path so the browser router can take over. Unknown API paths answer a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const hasWebApp = existsSync(indexFile);
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    app.log.warn({ webDist }, 'no built web app found; only the API is served (npm start builds it)');
  }
  const indexHtml = hasWebApp ? readFileSync(indexFile, 'utf8') : undefined;

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (pathname.startsWith('/api/') || pathname === '/api' || !indexHtml || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send(notFoundAnswer);
    }
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(indexHtml);
  });
}
