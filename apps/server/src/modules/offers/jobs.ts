// The declared-stock jobs (issue 24), on every instance: cancels owed to sellers are sent (each instance
// takes its own with skip locked, so none goes twice at once), and offers whose circuit breaker time is
// over come back to the store; every minute, the sellers' scores are refreshed (sellers/score.ts). Each
// run catches its errors (a database outage) and runs again next time.
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { SellersService } from '../sellers/ports.ts';
import type { SellerDelivery } from './declared.ts';

const EVERY_SECONDS = 5;

export class SellerDeliveryJobs {
  private cron: Cron | undefined;
  private scoreCron: Cron | undefined;
  private running: Promise<unknown> | undefined;
  private scoring: Promise<unknown> | undefined;
  private readonly delivery: SellerDelivery;
  private readonly sellers: SellersService;
  private readonly log: FastifyBaseLogger;

  constructor(delivery: SellerDelivery, sellers: SellersService, log: FastifyBaseLogger) {
    this.delivery = delivery;
    this.sellers = sellers;
    this.log = log;
  }

  start(): void {
    this.cron = new Cron(`*/${EVERY_SECONDS} * * * * *`, { protect: true, unref: true }, async () => {
      this.running = this.runOnce();
      await this.running;
    });
    this.scoreCron = new Cron('45 * * * * *', { protect: true, unref: true }, async () => {
      this.scoring = this.sellers.refreshScores().catch((error: unknown) => this.log.error({ err: error }, 'seller scores run failed; the next run retries'));
      await this.scoring;
    });
  }

  async runOnce(): Promise<void> {
    try {
      await this.delivery.sendDueCancels();
      await this.delivery.reopenOffers();
    } catch (error) {
      this.log.error({ err: error }, 'declared-stock job failed; the next run retries');
    }
  }

  async stop(): Promise<void> {
    this.cron?.stop();
    this.scoreCron?.stop();
    await Promise.allSettled([this.running, this.scoring]);
  }
}
