// Every minute, on every instance: open claims whose seller did not answer within a day are refunded
// from the seller's balance. Each claim moves once (a conditional update in the refund's transaction;
// the provider's refund is keyed by the claim), so two instances running it at once refund nothing twice.
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { ClaimsService } from './service.ts';

export class ClaimJobs {
  private cron: Cron | undefined;
  private running: Promise<unknown> | undefined;
  private readonly claims: ClaimsService;
  private readonly log: FastifyBaseLogger;

  constructor(claims: ClaimsService, log: FastifyBaseLogger) {
    this.claims = claims;
    this.log = log;
  }

  start(): void {
    this.cron = new Cron('15 * * * * *', { protect: true, unref: true }, async () => {
      this.running = this.claims.refundUnanswered().catch((error: unknown) => this.log.error({ err: error }, 'claims run failed; the next run retries'));
      await this.running;
    });
  }

  async stop(): Promise<void> {
    this.cron?.stop();
    await this.running;
  }
}
