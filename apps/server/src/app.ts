import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { AVATAR_MAX_BYTES, healthSchema, notReadySchema, publicConfigSchema } from '@keystore/contract';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { catalogRoutes } from './modules/catalog/routes.ts';
import { CatalogService, supplierFromConfig, type CatalogOptions } from './modules/catalog/service.ts';
import { registerAuth } from './modules/auth/plugin.ts';
import { devMailRoutes } from './modules/dev-mail/routes.ts';
import { libraryRoutes } from './modules/library/routes.ts';
import { aiFromConfig } from './modules/ai/provider.ts';
import { newsRoutes } from './modules/news/routes.ts';
import { NewsService } from './modules/news/service.ts';
import { LibraryService } from './modules/library/service.ts';
import { OrderJobs } from './modules/orders/jobs.ts';
import { ordersRoutes } from './modules/orders/routes.ts';
import { OrdersService } from './modules/orders/service.ts';
import { notificationsRoutes } from './modules/notifications/routes.ts';
import { NotificationsService } from './modules/notifications/service.ts';
import { registerPayments } from './modules/payments/plugin.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { UsersService } from './modules/users/service.ts';
import { Mailer } from './platform/mailer.ts';
import { headHtml, pageHead, storeMetaHtml } from './modules/seo/pages.ts';
import { seoRoutes } from './modules/seo/routes.ts';
import { supportRoutes } from './modules/support/routes.ts';
import { SupportService } from './modules/support/service.ts';
import { registerAdmission, type AdmissionGate } from './platform/admission.ts';
import { frameworkErrors, registerErrorHandling } from './platform/errors.ts';
import { KeyRing } from './platform/key-ring.ts';
import { loggerOptions } from './platform/logging.ts';
import { NO_AUTH, registerOpenApi } from './platform/openapi.ts';
import { registerTransportSecurity } from './platform/transport-security.ts';
import { registerWebApp } from './platform/web-app.ts';
import { clientErrorRoutes } from './platform/client-errors.ts';

// What any JSON body of this API needs (an order, a message, a form), with room to spare.
const JSON_BODY_LIMIT = 64 * 1024;

/**
 * How long a new order may wait for a purchase turn before it is shed, and how many may wait
 * (decision 013, measured with `npm run bench:orders`); how many turns there are is configured.
 */
const ORDER_QUEUE = { queuedPerTurn: 4, maxWaitMs: 25 };

declare module 'fastify' {
  interface FastifyInstance {
    admission: AdmissionGate;
    catalog: CatalogService;
    database: Database;
    mailer: Mailer;
    notifications: NotificationsService;
    news: NewsService;
    orders: OrdersService;
    orderJobs: OrderJobs;
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
    logger: loggerOptions(config.logLevel, options.logger),
    // Believe only the X-Forwarded-For entries our own proxies appended (the last `trustProxy` hops).
    trustProxy: config.trustProxy > 0 ? (_address: string, hop: number) => hop < config.trustProxy : false,
    // One log line per request only when debugging: at store traffic the access log belongs to the proxy in front.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(config.logLevel) }),
    // Rebuilding the catalogue index must not be cut short by Fastify's plugin timeout on big catalogues.
    pluginTimeout: 120_000,
    // A client must send its whole request within this: a slow one cannot hold a socket (or a turn) for ever.
    requestTimeout: 30_000,
    // Every JSON body this API takes is small; the one route that carries more (a news cover as a
    // data URL) raises its own limit. Multipart uploads have their own limits below.
    bodyLimit: JSON_BODY_LIMIT,
    // A URL Fastify cannot even route (a malformed escape, an over-long parameter) answers `{error}` too.
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.decorate(
    'admission',
    registerAdmission(app, { concurrent: config.purchaseConcurrency, queued: config.purchaseConcurrency * ORDER_QUEUE.queuedPerTurn, maxWaitMs: ORDER_QUEUE.maxWaitMs }),
  );

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
    // Sent only over TLS (platform/transport-security.ts), not on every answer.
    strictTransportSecurity: false,
  });
  registerTransportSecurity(app);
  // gzip for browsers that ask for it (pages, scripts, API answers above 1 KB).
  await app.register(compress, { encodings: ['gzip', 'deflate'], threshold: 1024 });
  await registerOpenApi(app);

  app.decorate('database', database);
  // One supplier for the catalogue and the orders: a demo supplier remembers its orders in memory.
  const supplier = options.catalog?.supplier ?? supplierFromConfig(config);
  const catalog = new CatalogService(database, config, app.log, { autoSync: true, ...options.catalog, supplier });
  app.decorate('catalog', catalog);
  app.addHook('onReady', () => catalog.start());
  app.addHook('onClose', () => catalog.stop());

  // Liveness and readiness (DESIGN §6). Readiness reads state the instance already holds (the
  // database's last known state, probed at most once a second), so a health check costs no query.
  let stopping = false;
  app.addHook('preClose', () => void (stopping = true));
  // A keep-alive connection whose request was under way when the shutdown began would keep the
  // server open until its idle timeout: the answers given while stopping close their connection.
  app.addHook('onSend', async (_request, reply) => {
    if (stopping) reply.header('connection', 'close');
  });
  const readiness = () =>
    stopping ? ('stopping' as const) : !catalog.ready ? ('starting' as const) : !database.health.check() ? ('database-unavailable' as const) : ('ok' as const);
  app.get(
    '/api/health/live',
    { schema: { tags: ['operations'], operationId: 'getLiveness', summary: 'The process runs', security: NO_AUTH, response: { 200: healthSchema } } },
    async () => ({ status: 'ok' as const }),
  );
  for (const [url, operationId] of [['/api/health/ready', 'getReadiness'], ['/api/health', 'getHealth']] as const) {
    app.get(
      url,
      { schema: { tags: ['operations'], operationId, security: NO_AUTH, summary: 'Ready for traffic: database reachable, migrations applied, catalogue loaded', response: { 200: healthSchema, 503: notReadySchema } } },
      async (_request, reply) => {
        const status = readiness();
        return status === 'ok' ? { status } : reply.code(503).header('Retry-After', '1').send({ status });
      },
    );
  }
  app.get(
    '/api/config',
    { schema: { tags: ['operations'], operationId: 'getPublicConfig', summary: 'What the web app needs to know of the server', security: NO_AUTH, response: { 200: publicConfigSchema } } },
    async () => ({ analyticsScriptUrl: config.analyticsScriptUrl ?? null }),
  );
  await app.register(catalogRoutes, { catalog });
  await app.register(seoRoutes, { catalog, publicUrl: config.publicUrl });
  await app.register(clientErrorRoutes);

  const mailer = new Mailer(database, config, app.log);
  app.decorate('mailer', mailer);
  app.addHook('onReady', () => mailer.start());
  app.addHook('onClose', () => mailer.stop());
  if (!config.production && mailer.devOutbox) await app.register(devMailRoutes, { mailer });
  const users = new UsersService(database, config);
  // Made before the modules whose events it turns into personal notifications (auth, orders).
  const notifications = new NotificationsService({ database, users, log: app.log });
  app.decorate('notifications', notifications);
  app.addHook('onReady', () => notifications.streams.start());
  // preClose, not onClose: an open event stream would keep the HTTP server from closing.
  app.addHook('preClose', () => notifications.streams.stop());
  app.addHook('onClose', () => notifications.drain());
  await registerAuth(app, { config, database, users, mailer, events: notifications });
  // Uploads stream through busboy with these ceilings (the largest file the store takes: an avatar);
  // a bigger file is cut off while it arrives, never buffered whole.
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 20 } });
  await app.register(usersRoutes, { users });

  const library = new LibraryService(database, catalog, new KeyRing(config.secrets.keyEncryption, config.secrets.keyEncryptionPrevious));
  app.addHook('onReady', () => library.start());
  const orders = new OrdersService({ database, config, library, users, mailer, supplier, log: app.log, events: notifications, admission: app.admission });
  users.usePurchaseStats(orders);
  app.decorate('orders', orders);
  await registerPayments(app, { config, database, orders });
  await app.register(ordersRoutes, { orders });
  await app.register(libraryRoutes, { library });
  // One AI client (or none: the offline assistant and writer) for support and news.
  const ai = aiFromConfig(config);
  const support = new SupportService({ database, config, mailer, orders, ai, log: app.log });
  await app.register(supportRoutes, { support });
  await app.register(notificationsRoutes, { notifications });
  // Each published news item is announced to everyone as a public notification.
  const news = new NewsService({
    database,
    dataDir: config.dataDir,
    catalog,
    ai,
    log: app.log,
    onPublished: async (item) => {
      await notifications.newsPublished({ id: item._id, title: item.title, content: item.content });
    },
  });
  app.decorate('news', news);
  await app.register(newsRoutes, { news });
  // A store before the `images` table kept uploads in DATA_DIR: they move into the database once.
  app.addHook('onReady', async () => {
    const moved = (await users.avatars.importOlderFiles()) + (await news.covers.importOlderFiles());
    if (moved > 0) app.log.info({ moved }, 'uploaded images moved from DATA_DIR into the database');
  });
  const orderJobs = new OrderJobs(database, orders, app.log);
  app.decorate('orderJobs', orderJobs);
  app.addHook('onReady', () => orderJobs.start());
  app.addHook('onClose', () => orderJobs.stop());
  const storeMeta = storeMetaHtml({ supportEmail: config.mail.supportEmail });
  await registerWebApp(app, config.webDist, async (pathname, chunks) => {
    const head = await pageHead(pathname, catalog, config.publicUrl, news);
    return { status: head.status, head: `${headHtml(head, config.publicUrl, chunks(head.entry))}\n    ${storeMeta}` };
  });
  return app;
}

function analyticsOrigin(config: Config): string[] {
  return config.analyticsScriptUrl ? [new URL(config.analyticsScriptUrl).origin] : [];
}
