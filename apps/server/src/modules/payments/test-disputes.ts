// The test gateway's disputed card (issue 29): a payment with 4000 0000 0000 0259 is disputed as
// fraudulent a few seconds later, as Stripe's test card for the same outcome is, so the whole dispute
// runs offline. The dispute waits in the database, so any instance's job raises it, once: a row is
// leased before it is raised and removed after, and a lease that lapses (a crash) is taken again.
import { DISPUTE_FEE_CENTS, TEST_DISPUTE_AFTER_SECONDS } from '@keystore/contract';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Database } from '../../db/client.ts';
import { Schedule } from '../../platform/schedule.ts';
import type { PaymentOutcomes } from './provider.ts';
import { testGatewayDisputes } from './schema.ts';

/** How long a taken dispute is leased to the instance raising it. */
const LEASE_SECONDS = 60;

export class TestGatewayDisputes {
  private readonly database: Database;
  private readonly outcomes: Pick<PaymentOutcomes, 'markDisputed'>;
  private readonly log: FastifyBaseLogger;
  private schedule: Schedule | undefined;

  constructor(database: Database, outcomes: Pick<PaymentOutcomes, 'markDisputed'>, log: FastifyBaseLogger) {
    this.database = database;
    this.outcomes = outcomes;
    this.log = log;
  }

  start(): void {
    this.schedule = new Schedule('*/2 * * * * *', 'test gateway disputes', async () => void (await this.raiseDue()), this.log);
    this.schedule.start();
  }

  async stop(): Promise<void> {
    await this.schedule?.stop();
  }

  /** A payment with the disputed card was taken: its dispute comes in a few seconds. */
  async schedulePayment(orderId: string): Promise<void> {
    await this.database.db
      .insert(testGatewayDisputes)
      .values({ orderId, dueAt: sql`now() + ${TEST_DISPUTE_AFTER_SECONDS}::int * interval '1 second'` })
      .onConflictDoNothing();
  }

  /** Raises the disputes that are due (leased first, so two instances never raise one); answers how many. */
  async raiseDue(): Promise<number> {
    const due = await queryRows<{ order_id: string }>(
      this.database.db,
      sql`update test_gateway_disputes set due_at = now() + ${LEASE_SECONDS}::int * interval '1 second'
          where order_id in (select order_id from test_gateway_disputes where due_at <= now() order by due_at limit 20 for update skip locked)
          returning order_id`,
    );
    for (const { order_id: orderId } of due) {
      await this.outcomes.markDisputed(orderId, { reference: `dp_test_${orderId}`, feeCents: DISPUTE_FEE_CENTS });
      await this.database.db.execute(sql`delete from test_gateway_disputes where order_id = ${orderId}`);
    }
    return due.length;
  }
}
