import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFoundAnswer } from './errors.ts';

/**
 * Serves the built web app: hashed assets with long caching, and index.html for every other page
 * path so the browser router can take over. Unknown API paths answer a JSON 404.
 */
/** The script and style files a module of the web app needs, beyond those index.html loads. */
export type PageChunks = (entry: string | undefined) => { scripts: string[]; styles: string[] };

/** The head and status of a page path, decided by the page's area. */
export type RenderHead = (pathname: string, chunks: PageChunks) => Promise<{ status: number; head: string }>;

/**
 * What a hashed script or stylesheet need not carry: the headers that govern a document (its policy,
 * framing, opener, referrer) and revalidation, which `immutable` rules out. Each first view loads two
 * scripts, and Lighthouse counts their headers as JavaScript (decision 027): about 600 bytes a script.
 * nosniff and Cross-Origin-Resource-Policy stay, since they protect the file itself.
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
  'etag',
  'last-modified',
];

export async function registerWebApp(app: FastifyInstance, webDist: string, renderHead: RenderHead): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const hasWebApp = existsSync(indexFile);
  if (hasWebApp) {
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/assets/') && /\.(?:js|css)$/.test(request.url) && reply.statusCode === 200) {
        for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
      }
    });
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // Source maps stay on disk for reading error reports; served, they would hand anyone the app's source.
      allowedPath: (pathName) => !pathName.endsWith('.map'),
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

  const chunksOf = pageChunks(path.join(webDist, '.vite', 'manifest.json'));

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (pathname.startsWith('/api/') || pathname === '/api' || !template || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send(notFoundAnswer);
    }
    const { status, head } = await renderHead(safeDecode(pathname), chunksOf);
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

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
}

/**
 * Reads Vite's build manifest once and answers, for a page module, its chunk and the chunks it
 * imports (not index.html's own, already in the page), so they load in parallel with the entry.
 */
function pageChunks(manifestFile: string): PageChunks {
  if (!existsSync(manifestFile)) return () => ({ scripts: [], styles: [] });
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const cache = new Map<string, { scripts: string[]; styles: string[] }>();
  return (entry) => {
    if (!entry || !manifest[entry]) return { scripts: [], styles: [] };
    const known = cache.get(entry);
    if (known) return known;
    const scripts = new Set<string>();
    const styles = new Set<string>();
    const visit = (key: string): void => {
      const chunk = manifest[key];
      if (!chunk || key === 'index.html' || scripts.has(`/${chunk.file}`)) return;
      scripts.add(`/${chunk.file}`);
      for (const css of chunk.css ?? []) styles.add(`/${css}`);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    visit(entry);
    const found = { scripts: [...scripts], styles: [...styles] };
    cache.set(entry, found);
    return found;
  };
}
