import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFoundAnswer } from './errors.ts';

/**
 * Serves the built web app: hashed assets with long caching, and index.html for every other page
 * path so the browser router can take over. Unknown API paths answer a JSON 404.
 */
/** The head and status of a page path, decided by the page's area. */
export type RenderHead = (pathname: string) => Promise<{ status: number; head: string }>;

export async function registerWebApp(app: FastifyInstance, webDist: string, renderHead: RenderHead): Promise<void> {
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
  // The build's default title and description make way for each page's own.
  const template = hasWebApp
    ? readFileSync(indexFile, 'utf8').replace(/<title>[^<]*<\/title>\s*/, '').replace(/<meta name="description"[^>]*>\s*/, '')
    : undefined;

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (pathname.startsWith('/api/') || pathname === '/api' || !template || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send(notFoundAnswer);
    }
    const { status, head } = await renderHead(safeDecode(pathname));
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(template.replace('<!--page-head-->', head));
  });
}

/** A path with its escapes decoded; a malformed escape leaves it as sent (it then matches no page). */
function safeDecode(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}
