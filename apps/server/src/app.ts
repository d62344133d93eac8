import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { actorOf } from './modules/admin/actor.ts';
import { OperatorAlerts } from './modules/admin/alerts.ts';
import { subscribeReviewAlerts } from './modules/admin/review-alerts.ts';
import { adminAuditRoutes } from './modules/admin/audit-routes.ts';
import { adminCatalogRoutes } from './modules/admin/catalog-routes.ts';
import { adminOrderRoutes } from './modules/admin/order-routes.ts';
import { adminStatsRoutes } from './modules/admin/stats-routes.ts';
import { adminSupportRoutes } from './modules/admin/support-routes.ts';
import { adminSellerRoutes } from './modules/admin/seller-routes.ts';
import { adminUserRoutes } from './modules/admin/user-routes.ts';
import { aiFromConfig } from './modules/ai/provider.ts';
import { registerAuth } from './modules/auth/plugin.ts';
import { securityRoutes } from './modules/security/routes.ts';
import { SecurityService } from './modules/security/service.ts';
import { catalogRoutes } from './modules/catalog/routes.ts';
import { CatalogService, type CatalogOptions } from './modules/catalog/service.ts';
import { devMailRoutes } from './modules/dev-mail/routes.ts';
import { Ledger } from './modules/ledger/service.ts';
import { libraryRoutes } from './modules/library/routes.ts';
import { SignedLinks } from './platform/signed-links.ts';
import { GiftsService } from './modules/gifts/service.ts';
import { giftRoutes } from './modules/gifts/routes.ts';
import { WishlistService } from './modules/wishlist/service.ts';
import { wishlistRoutes } from './modules/wishlist/routes.ts';
import { RelatedGames } from './modules/related/service.ts';
import { relatedRoutes } from './modules/related/routes.ts';
import { LibraryService } from './modules/library/service.ts';
import { newsRoutes } from './modules/news/routes.ts';
import { NewsService } from './modules/news/service.ts';
import { notificationsRoutes } from './modules/notifications/routes.ts';
import { NotificationsService } from './modules/notifications/service.ts';
import { OrderJobs } from './modules/orders/jobs.ts';
import { ordersRoutes } from './modules/orders/routes.ts';
import { OrdersService } from './modules/orders/service.ts';
import { paymentsFromConfig, registerPaymentRoutes } from './modules/payments/plugin.ts';
import { riskRoutes } from './modules/risk/routes.ts';
import { RiskService } from './modules/risk/service.ts';
import { subscribeFraudConsequences } from './modules/risk/consequences.ts';
import { headHtml, pageHead, storeMetaHtml } from './modules/seo/pages.ts';
import { sellerRoutes } from './modules/sellers/routes.ts';
import { SellersService } from './modules/sellers/service.ts';
import { offerRoutes } from './modules/offers/routes.ts';
import { OffersService } from './modules/offers/service.ts';
import { claimRoutes } from './modules/claims/routes.ts';
import { ClaimsService } from './modules/claims/service.ts';
import { seoRoutes } from './modules/seo/routes.ts';
import { supplierFromConfig } from './modules/supplier/from-config.ts';
import type { Supplier } from './modules/supplier/supplier.ts';
import { supportRoutes } from './modules/support/routes.ts';
import { SupportService } from './modules/support/service.ts';
import { Accounts } from './modules/users/accounts.ts';
import { usersRoutes } from './modules/users/routes.ts';
import { UsersService } from './modules/users/service.ts';
import type { AdmissionGate } from './platform/admission.ts';
import { clientErrorRoutes } from './platform/client-errors.ts';
import { registerAuditing } from './platform/audit.ts';
import { registerErrorHandling } from './platform/errors.ts';
import { EventBus, type StoreEventBus } from './platform/events.ts';
import { KeyRing } from './platform/key-ring.ts';
import { openPlaces } from './platform/geoip.ts';
import { Mailer } from './platform/mailer.ts';
import { Metrics } from './platform/metrics.ts';
import { registerRequestContext } from './platform/request-context.ts';
import { registerOpenApi } from './platform/openapi.ts';
import { Schedule } from './platform/schedule.ts';
import { registerPurchaseAdmission } from './platform/plugins/admission.ts';
import { registerMemoryRelease } from './platform/plugins/memory.ts';
import { registerCompression } from './platform/plugins/compression.ts';
import { registerHealth } from './platform/plugins/health.ts';
import { registerPublicConfig } from './platform/plugins/public-config.ts';
import { registerVisitorPlace } from './platform/plugins/visitor-place.ts';
import { registerSecurityHeaders } from './platform/plugins/security-headers.ts';
import { serverOptions } from './platform/plugins/server-options.ts';
import { registerUploads } from './platform/plugins/uploads.ts';
import { registerWebApp } from './platform/web-app.ts';

declare module 'fastify' {
  interface FastifyInstance {
    admission: AdmissionGate;
    catalog: CatalogService;
    database: Database;
    events: StoreEventBus;
    mailer: Mailer;
    notifications: NotificationsService;
    news: NewsService;
    orders: OrdersService;
    orderJobs: OrderJobs;
    alerts: OperatorAlerts;
    ledger: Ledger;
    sellers: SellersService;
    offers: OffersService;
    claims: ClaimsService;
    risk: RiskService;
    security: SecurityService;
    wishlist: WishlistService;
    users: UsersService;
    metrics: Metrics;
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Tests sync by hand (`autoSync: false`) and may hand in a supplier pointed at a fake. */
  catalog?: { autoSync?: CatalogOptions['autoSync']; supplier?: Supplier | undefined; stockOverlapMs?: number | undefined };
}

/**
 * Builds the whole server: infrastructure plugins, then each area's services (each given what it
 * uses, in the order they need one another: no module is handed another after it is built) and
 * routes. Modules hear of each other's changes on the event bus. Tests build it too.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify(serverOptions(config, options.logger)).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerRequestContext(app);
  const metrics = new Metrics();
  metrics.register(app);
  app.decorate('metrics', metrics);
  registerPurchaseAdmission(app, config);
  registerMemoryRelease(app);
  registerSecurityHeaders(app, config);
  await registerCompression(app);
  await registerOpenApi(app);
  app.decorate('database', database);
  const events: StoreEventBus = new EventBus(app.log);
  app.decorate('events', events);
  metrics.hear(events);

  // The services, each built once what it uses exists.
  const mailer = new Mailer(database, config, app.log);
  const supplier = options.catalog?.supplier ?? supplierFromConfig(config);
  const catalog = new CatalogService(database, config, app.log, { autoSync: options.catalog?.autoSync ?? true, supplier, events, stockOverlapMs: options.catalog?.stockOverlapMs, metrics });
  const accounts = new Accounts(database);
  const notifications = new NotificationsService({ database, accounts, log: app.log });
  notifications.subscribeTo(events);
  const library = new LibraryService(database, catalog, new KeyRing(config.secrets.keyEncryption, config.secrets.keyEncryptionPrevious));
  const payments = paymentsFromConfig(config);
  const ledger = new Ledger(database, app.log);
  const sellers = new SellersService({ database, library, ledger, events });
  const mailContext = { publicUrl: config.publicUrl, supportEmail: config.mail.supportEmail };
  const offers = new OffersService({
    database,
    gameStock: catalog.gameStock,
    sellers,
    ledger,
    library,
    notifications,
    mailer,
    mailContext,
    events,
    log: app.log,
    production: config.production,
    timings: config.sellerDelivery,
    metrics,
  });
  const links = new SignedLinks(config.secrets.jwt, config.secrets.jwtPrevious);
  const gifts = new GiftsService({ database, library, catalog, accounts, links, mailer, mailContext, log: app.log });
  gifts.subscribeTo(events);
  const risk = new RiskService({ database, secrets: [config.secrets.jwt, ...config.secrets.jwtPrevious] });
  const orders = new OrdersService({ database, config, library, ledger, accounts, mailer, supplier, providers: payments.providers, log: app.log, events, admission: app.admission, offers, links, gifts, risk });
  orders.subscribeTo(events);
  const claims = new ClaimsService({ database, library, refunds: orders.refunds, orders, gifts, offers, sellers, notifications, accounts, mailer, mailContext, events, log: app.log });
  // Jobs on every instance, each taking its own rows (skip locked) or moving each row once: cancels owed to
  // declared sellers, offers back from the breaker, sellers' scores, claims a seller left unanswered a day.
  const jobs = [
    new Schedule('*/5 * * * * *', 'declared-stock job', async () => {
      await offers.declared.sendDueCancels();
      await offers.declared.reopenOffers();
    }, app.log),
    new Schedule('45 * * * * *', 'seller scores run', () => sellers.refreshScores(), app.log),
    new Schedule('15 * * * * *', 'claims run', () => claims.refundUnanswered(), app.log),
  ];
  const users = new UsersService(database, config, orders);
  const security = new SecurityService({ database, config, users, sealer: library, mailer, mailContext });
  // One AI client (or none: the offline assistant and writer) for support and news.
  const ai = aiFromConfig(config);
  const support = new SupportService({ database, config, mailer, orders, ai, log: app.log });
  const news = new NewsService({ database, dataDir: config.dataDir, catalog, ai, log: app.log, events });
  const orderJobs = new OrderJobs(database, orders, app.log);
  subscribeReviewAlerts(events, { users, notifications, mailer, mailContext: { publicUrl: config.publicUrl, supportEmail: config.mail.supportEmail } });
  const alerts = new OperatorAlerts({
    database,
    orders,
    catalog,
    users,
    mailer,
    mailContext: { publicUrl: config.publicUrl, supportEmail: config.mail.supportEmail },
    log: app.log,
  });
  app.decorate('catalog', catalog);
  app.decorate('mailer', mailer);
  app.decorate('notifications', notifications);
  app.decorate('orders', orders);
  app.decorate('news', news);
  app.decorate('orderJobs', orderJobs);
  app.decorate('alerts', alerts);
  app.decorate('ledger', ledger);
  app.decorate('sellers', sellers);
  app.decorate('offers', offers);
  app.decorate('claims', claims);
  app.decorate('risk', risk);
  app.decorate('users', users);
  app.decorate('security', security);
  const wishlist = new WishlistService({ database, catalog, notifications, mailer, mailContext, links, log: app.log });
  app.decorate('wishlist', wishlist);

  // Their lives: started once the app is ready, stopped with it.
  app.addHook('onReady', () => catalog.start());
  app.addHook('onClose', () => catalog.stop());
  app.addHook('onReady', () => mailer.start());
  app.addHook('onClose', () => mailer.stop());
  app.addHook('onReady', () => notifications.streams.start());
  // preClose, not onClose: an open event stream would keep the HTTP server from closing.
  app.addHook('preClose', () => notifications.streams.stop());
  app.addHook('onReady', () => risk.start());
  app.addHook('onReady', () => offers.shelved.start());
  app.addHook('onClose', () => offers.shelved.stop());
  app.addHook('onClose', () => risk.stop());
  app.addHook('onReady', () => library.start());
  // A store before the `images` table kept uploads in DATA_DIR: they move into the database once.
  app.addHook('onReady', async () => {
    const moved = (await users.avatars.importOlderFiles()) + (await news.covers.importOlderFiles());
    if (moved > 0) app.log.info({ moved }, 'uploaded images moved from DATA_DIR into the database');
  });
  app.addHook('onReady', () => orderJobs.start());
  app.addHook('onClose', () => orderJobs.stop());
  app.addHook('onReady', () => ledger.start(config.ledgerReleaseCron));
  app.addHook('onReady', () => jobs.forEach((job) => job.start()));
  app.addHook('onClose', () => Promise.all(jobs.map((job) => job.stop())).then(() => undefined));
  app.addHook('onClose', () => ledger.stop());
  app.addHook('onReady', () => wishlist.start());
  app.addHook('onClose', () => wishlist.stop());
  app.addHook('onReady', () => alerts.start());
  app.addHook('onClose', () => alerts.stop());
  // After the deliveries under way: what their events start is waited for too.
  app.addHook('onClose', () => events.drain());
  app.addHook('onClose', () => notifications.drain());

  // The routes.
  const readiness = registerHealth(app, { database, catalogReady: () => catalog.ready });
  metrics.watch({
    keysWaiting: () => orders.keysWaiting(),
    outbox: () => mailer.pending(),
    ledger: () => ledger.totals(),
    lastSyncSuccess: () => catalog.lastSyncSuccess(),
    pool: () => database.connections(),
    ready: () => readiness() === 'ok',
  });
  metrics.serveOn(app, config.metrics.token);
  registerPublicConfig(app, config);
  await app.register(catalogRoutes, { catalog });
  await app.register(seoRoutes, { catalog, publicUrl: config.publicUrl });
  await app.register(clientErrorRoutes);
  if (!config.production && mailer.devOutbox) await app.register(devMailRoutes, { mailer });
  const places = config.geoipDb ? await openPlaces(config.geoipDb) : undefined;
  registerVisitorPlace(app, places);
  const auth = await registerAuth(app, { config, database, users, mailer, events, factors: security, sellerKeys: sellers, places });
  await app.register(securityRoutes, { security });
  subscribeFraudConsequences(events, { users, auth, notifications, sellers, log: app.log });
  registerAuditing(app, database, (request) => actorOf(users, request));
  await registerUploads(app);
  await app.register(usersRoutes, { users });
  await registerPaymentRoutes(app, { config, database, payments, orders, risk });
  await app.register(ordersRoutes, { orders });
  await app.register(libraryRoutes, { library, sentGifts: (userId) => gifts.sentBy(userId) });
  await app.register(giftRoutes, { gifts });
  await app.register(wishlistRoutes, { wishlist });
  await app.register(relatedRoutes, { related: new RelatedGames({ catalog, orders }) });
  await app.register(supportRoutes, { support });
  await app.register(notificationsRoutes, { notifications });
  await app.register(newsRoutes, { news });
  await app.register(sellerRoutes, { sellers, ledger, accounts, identity: security });
  await app.register(offerRoutes, { sellers, offers, identity: security });
  await app.register(claimRoutes, { claims, sellers, users });
  // The back office (decision 023): composed from the modules that own the data.
  await app.register(adminAuditRoutes, { database });
  await app.register(adminOrderRoutes, { orders, users });
  await app.register(adminStatsRoutes, { orders, users, support, ledger });
  await app.register(adminUserRoutes, { users, auth, notifications, database });
  await app.register(adminCatalogRoutes, { catalog, users, sellers, orders, security, database });
  await app.register(adminSellerRoutes, { sellers, ledger, users, database, payoutMinimumCents: config.payoutMinimumCents });
  await app.register(adminSupportRoutes, { support, users });
  await app.register(riskRoutes, { risk, actorOf: (request) => actorOf(users, request) });
  const storeMeta = storeMetaHtml({ supportEmail: config.mail.supportEmail });
  await registerWebApp(app, config.webDist, async (pathname, chunks) => {
    const head = await pageHead(pathname, catalog, config.publicUrl, news);
    return { status: head.status, head: `${headHtml(head, config.publicUrl, chunks(head.entry))}\n    ${storeMeta}` };
  });
  return app;
}
