import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthSchema, publicConfigSchema, startingSchema } from '@keystore/contract';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { catalogRoutes } from './modules/catalog/routes.ts';
import { CatalogService, type CatalogOptions } from './modules/catalog/service.ts';
import { headHtml, pageHead } from './modules/seo/pages.ts';
import { seoRoutes } from './modules/seo/routes.ts';
import { registerErrorHandling } from './platform/errors.ts';
import { registerWebApp } from './platform/web-app.ts';

declare module 'fastify' {
  interface FastifyInstance {
    catalog: CatalogService;
    database: Database;
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  catalog?: Partial<CatalogOptions>;
}

/** Builds the whole server: infrastructure plugins, then each area's routes. Tests build it too. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    // One log line per request only when debugging: at store traffic the access log belongs to the proxy in front.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(config.logLevel) }),
    // Rebuilding the catalogue index must not be cut short by Fastify's plugin timeout on big catalogues.
    pluginTimeout: 120_000,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'style-src': ["'self'", "'unsafe-inline'"],
        // The analytics origin is allowed only when one is configured; the web app loads it only with consent.
        'script-src': ["'self'", ...analyticsOrigin(config)],
        'connect-src': ["'self'", ...analyticsOrigin(config)],
        // The store may be served over plain HTTP on a private network; TLS is the proxy's job.
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // gzip for browsers that ask for it (pages, scripts, API answers above 1 KB).
  await app.register(compress, { encodings: ['gzip', 'deflate'], threshold: 1024 });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Keystore API', description: 'The storefront API for digital game keys', version: '1.0.0' },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  app.decorate('database', database);
  const catalog = new CatalogService(database, config, app.log, { autoSync: true, ...options.catalog });
  app.decorate('catalog', catalog);
  app.addHook('onReady', () => catalog.start());
  app.addHook('onClose', () => catalog.stop());

  app.get(
    '/api/health',
    { schema: { tags: ['operations'], response: { 200: healthSchema, 503: startingSchema } } },
    async (_request, reply) => (catalog.ready ? { status: 'ok' as const } : reply.code(503).send({ status: 'starting' as const })),
  );
  app.get(
    '/api/config',
    { schema: { tags: ['operations'], summary: 'What the web app needs to know of the server', response: { 200: publicConfigSchema } } },
    async () => ({ analyticsScriptUrl: config.analyticsScriptUrl ?? null }),
  );
  await app.register(catalogRoutes, { catalog });
  await app.register(seoRoutes, { catalog, publicUrl: config.publicUrl });
  await registerWebApp(app, config.webDist, async (pathname, chunks) => {
    const head = await pageHead(pathname, catalog, config.publicUrl);
    return { status: head.status, head: headHtml(head, config.publicUrl, chunks(head.entry)) };
  });
  return app;
}

function analyticsOrigin(config: Config): string[] {
  return config.analyticsScriptUrl ? [new URL(config.analyticsScriptUrl).origin] : [];
}
