// The orders' schedules: every minute, expire unpaid orders past their 30 minutes and refund paid
// orders still without keys a day after payment; every few
// seconds, allocate paid orders whose keys are due (a retry after a supplier failure, or an order
// whose paying instance died: its delivery is no longer owned); at start, a sweep that finishes
// every paid order left undelivered. Each run takes a PostgreSQL advisory lock, so in a cluster one
// instance at a time does it, and each catches its errors (a database outage) and runs again next time.
import type { FastifyBaseLogger } from 'fastify';
import { LOCKS, type Database } from '../../db/client.ts';
import { Schedule } from '../../platform/schedule.ts';
import type { OrdersService } from './service.ts';

/** How often due deliveries are looked for on PostgreSQL: a paid order whose instance died waits about this long. */
const RETRY_EVERY_SECONDS = 2;
/**
 * On the embedded database one process owns every delivery (a restart's sweep finishes those it left),
 * so the job only brings due retries (a minute apart at least): looking every 2 s would stop every
 * request for the query's time, as the embedded database runs on the server's own thread.
 */
const EMBEDDED_RETRY_EVERY_SECONDS = 15;

export class OrderJobs {
  private expiry: Schedule | undefined;
  private retry: Schedule | undefined;
  private readonly running = new Set<Promise<number>>();
  private sweep: Promise<unknown> | undefined;
  private readonly database: Database;
  private readonly orders: OrdersService;
  private readonly log: FastifyBaseLogger;

  constructor(database: Database, orders: OrdersService, log: FastifyBaseLogger) {
    this.database = database;
    this.orders = orders;
    this.log = log;
  }

  /** Starts the schedule and, in the background, the start-up sweep. */
  start(): void {
    this.sweep = this.retryUndelivered(false);
    this.expiry = new Schedule('0 * * * * *', 'order expiry run', async () => {
      await this.expire();
      await this.settleReviews();
      await this.refundLongUndelivered();
    }, this.log);
    const every = this.database.kind === 'postgres' ? RETRY_EVERY_SECONDS : EMBEDDED_RETRY_EVERY_SECONDS;
    this.retry = new Schedule(`*/${every} * * * * *`, 'undelivered order run', () => this.retryUndelivered(true), this.log);
    this.expiry.start();
    this.retry.start();
  }

  async stop(): Promise<void> {
    await Promise.all([this.expiry?.stop(), this.retry?.stop()]);
    // A run under way finishes what it started before the database closes.
    await Promise.allSettled([this.sweep, ...this.running]);
    await this.orders.allocator.drain();
  }

  /** Expires the orders whose time to pay is over (once per cluster); answers how many. */
  async expire(): Promise<number> {
    try {
      const run = await this.database.withAdvisoryLock(LOCKS.orderExpiry, () => this.orders.expireDue());
      if (run.ran && run.value > 0) this.log.info({ expired: run.value }, 'unpaid orders expired');
      return run.ran ? run.value : 0;
    } catch (error) {
      this.log.error({ err: error }, 'order expiry run failed');
      return 0;
    }
  }

  /** Decides the orders in review whose deadline has come, and finishes decisions a crash interrupted (once per cluster at a time); answers how many. */
  async settleReviews(): Promise<number> {
    try {
      const run = await this.database.withAdvisoryLock(LOCKS.reviewDeadline, () => this.orders.settleReviews());
      if (run.ran && run.value > 0) this.log.info({ settled: run.value }, 'orders in review settled');
      return run.ran ? run.value : 0;
    } catch (error) {
      this.log.error({ err: error }, 'review deadline run failed');
      return 0;
    }
  }

  /** Refunds the paid orders still without keys a day after payment (every instance: each order is owned while refunded); answers how many. */
  async refundLongUndelivered(): Promise<number> {
    const run = (async () => {
      try {
        const refunded = await this.orders.allocator.refundLongUndelivered();
        if (refunded > 0) this.log.warn({ refunded }, 'orders undelivered for a day refunded');
        return refunded;
      } catch (error) {
        this.log.error({ err: error }, 'refund run of long-undelivered orders failed');
        return 0;
      }
    })();
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return run;
  }

  /**
   * Allocates undelivered paid orders; `dueOnly` false at start: every one of them. Every instance
   * runs it: each delivery is owned by the process running it (Database.own), so two instances never
   * work on one order, and no cluster-wide lock can be left held by a lost machine.
   */
  retryUndelivered(dueOnly: boolean): Promise<number> {
    const run = (async () => {
      try {
        const delivered = await this.orders.allocator.retryUndelivered({ dueOnly });
        if (delivered > 0) this.log.info({ delivered, startUp: !dueOnly }, 'undelivered orders delivered');
        return delivered;
      } catch (error) {
        this.log.error({ err: error }, 'undelivered order run failed');
        return 0;
      }
    })();
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return run;
  }
}
