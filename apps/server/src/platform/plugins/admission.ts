import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { registerAdmission } from '../admission.ts';

/**
 * How long a new order may wait for a purchase turn before it is shed, and how many may wait
 * (decision 013, measured with `npm run bench:orders`); how many turns there are is configured.
 */
const ORDER_QUEUE = { queuedPerTurn: 4, maxWaitMs: 25 };

/** The purchase path's gate on `app.admission` (platform/admission.ts). */
export function registerPurchaseAdmission(app: FastifyInstance, config: Config): void {
  const turns = config.purchaseConcurrency;
  app.decorate('admission', registerAdmission(app, { concurrent: turns, queued: turns * ORDER_QUEUE.queuedPerTurn, maxWaitMs: ORDER_QUEUE.maxWaitMs }));
}
