import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthSchema, notReadySchema } from '@keystore/contract';
import type { Database } from '../../db/client.ts';
import { NO_AUTH } from '../openapi.ts';

/**
 * Liveness and readiness (DESIGN §6). Readiness reads state the instance already holds (the
 * database's last known state, probed at most once a second, and whether the catalogue is loaded),
 * so a health check costs no query. Answers the readiness, for the metrics.
 */
export function registerHealth(app: FastifyInstance, { database, catalogReady }: { database: Database; catalogReady: () => boolean }): () => string {
  let stopping = false;
  app.addHook('preClose', () => void (stopping = true));
  // A keep-alive connection whose request was under way when the shutdown began would keep the
  // server open until its idle timeout: the answers given while stopping close their connection.
  app.addHook('onSend', async (_request, reply) => {
    if (stopping) reply.header('connection', 'close');
  });
  const readiness = () =>
    stopping ? ('stopping' as const) : !catalogReady() ? ('starting' as const) : !database.health.check() ? ('database-unavailable' as const) : ('ok' as const);
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/health/live',
    { schema: { tags: ['operations'], operationId: 'getLiveness', summary: 'The process runs', security: NO_AUTH, response: { 200: healthSchema } } },
    async () => ({ status: 'ok' as const }),
  );
  for (const [url, operationId] of [['/api/health/ready', 'getReadiness'], ['/api/health', 'getHealth']] as const) {
    routes.get(
      url,
      { schema: { tags: ['operations'], operationId, security: NO_AUTH, summary: 'Ready for traffic: database reachable, migrations applied, catalogue loaded', response: { 200: healthSchema, 503: notReadySchema } } },
      async (_request, reply) => {
        const status = readiness();
        return status === 'ok' ? { status } : reply.code(503).header('Retry-After', '1').send({ status });
      },
    );
  }
  return readiness;
}
