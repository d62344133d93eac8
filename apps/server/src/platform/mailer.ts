// Outgoing mail. Every message is first written to mail_outbox, so nothing is lost when the SMTP
// server is down: with SMTP_URL it is sent at once and, when that fails, retried by a schedule
// with backoff; without SMTP_URL the outbox is the destination (the dev outbox at /dev/mail).
import { and, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { Schedule } from './schedule.ts';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import { mailOutbox } from './schema.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Where answers go (the support form: the customer who wrote). The outbox has no column for it, so
   * only the first attempt carries it; a retried mail still names the sender in its text.
   */
  replyTo?: string;
  /** Extra headers (an alert's List-Unsubscribe and List-Unsubscribe-Post), stored with the mail so a retry sends them too. */
  headers?: Record<string, string>;
}

export interface OutboxEntry extends MailMessage {
  id: number;
  createdAt: string;
}

/** Minutes to wait after the n-th failed attempt; after the last one the mail is given up. */
const RETRY_BACKOFF_MINUTES = [1, 5, 15, 60];
const MAX_ATTEMPTS = RETRY_BACKOFF_MINUTES.length + 1;
/** How long a send in progress holds its row, so the retry job of any instance leaves it alone. */
const SENDING_LEASE_MS = 2 * 60_000;
const RETRY_BATCH = 20;

export class Mailer {
  private readonly transport: Transporter | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private retries: Schedule | undefined;
  private readonly database: Database;
  private readonly config: Config;
  private readonly log: FastifyBaseLogger;

  constructor(database: Database, config: Config, log: FastifyBaseLogger) {
    this.database = database;
    this.config = config;
    this.log = log;
    this.transport = config.mail.smtpUrl ? nodemailer.createTransport(config.mail.smtpUrl) : undefined;
  }

  /** True when mail stays in the outbox (no SMTP server configured). */
  get devOutbox(): boolean {
    return this.transport === undefined;
  }

  /** Starts the retry schedule (only needed when there is an SMTP server to retry). */
  start(): void {
    // Loud, not fatal: a production-mode benchmark or trial runs without mail on purpose.
    if (!this.transport && this.config.production) {
      this.log.error('SMTP_URL is not set: no e-mail leaves this store (sign-up codes, reset links, receipts); they are only stored in mail_outbox');
    }
    if (!this.transport) return;
    this.retries = new Schedule('*/30 * * * * *', 'mail retry run', () => this.deliverDue(), this.log);
    this.retries.start();
  }

  /** Stops the schedule and waits for the sends under way. */
  async stop(): Promise<void> {
    await this.retries?.stop();
    await Promise.allSettled([...this.inFlight]);
    this.transport?.close();
  }

  /**
   * Stores the message and, with SMTP, starts sending it. Answers once it is stored: the caller
   * (a request) does not wait for the SMTP server; a failed send is retried by the schedule.
   */
  async send({ replyTo, ...message }: MailMessage): Promise<void> {
    const db = this.database.db;
    if (!this.transport) {
      // The outbox is this mail's destination: marked sent, so an SMTP server configured later
      // does not deliver old development mail.
      await db.insert(mailOutbox).values({ ...message, sentAt: new Date() });
      this.logStored(message);
      return;
    }
    const [row] = await db
      .insert(mailOutbox)
      .values({ ...message, nextAttemptAt: new Date(Date.now() + SENDING_LEASE_MS) })
      .returning({ id: mailOutbox.id, attempts: mailOutbox.attempts });
    this.track(this.deliver({ id: row!.id, attempts: row!.attempts, ...message, ...(replyTo ? { replyTo } : {}) }));
  }

  /**
   * Writes the message to the outbox inside the caller's transaction, so it exists exactly when
   * what it reports does (a delivery's receipt). It is sent after the commit by `flush` or, if this
   * process dies first, by the retry schedule of any instance.
   */
  async enqueue(tx: Db, { replyTo: _replyTo, ...message }: MailMessage): Promise<void> {
    if (!this.transport) {
      await tx.insert(mailOutbox).values({ ...message, sentAt: new Date() });
      this.logStored(message);
      return;
    }
    await tx.insert(mailOutbox).values({ ...message, nextAttemptAt: new Date() });
  }

  /** `enqueue` for many mails in one statement (a batch of wishlist alerts). */
  async enqueueMany(tx: Db, messages: readonly MailMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const sent = this.transport ? {} : { sentAt: new Date() };
    await tx.insert(mailOutbox).values(messages.map(({ replyTo: _replyTo, ...message }) => ({ ...message, ...sent, nextAttemptAt: new Date() })));
    if (!this.transport) for (const message of messages) this.logStored(message);
  }

  /**
   * `enqueue`, kept only when `wanted`, at the same cost either way, for a caller that must not show
   * by its work whether the mail goes (forgot-password for an address without an account). The row
   * is written either way and, when not wanted, deleted again before the commit, unseen by anyone:
   * a transaction that wrote nothing would commit without waiting for PostgreSQL's WAL flush, so
   * only a real mail's answer would have waited for the disk.
   */
  async enqueueIf(tx: Db, wanted: boolean, { replyTo: _replyTo, ...message }: MailMessage): Promise<void> {
    const [row] = await tx
      .insert(mailOutbox)
      // The dev outbox is the destination: stored as sent (see `send`).
      .values({ ...message, ...(this.transport ? { nextAttemptAt: new Date() } : { sentAt: new Date() }) })
      .returning({ id: mailOutbox.id });
    await tx.delete(mailOutbox).where(and(eq(mailOutbox.id, row!.id), sql`not ${wanted}`));
    if (wanted && !this.transport) this.logStored(message);
  }

  /** Sends, now and in the background, what `enqueue` wrote (once its transaction committed). */
  flush(): void {
    if (this.transport) this.track(this.deliverDue());
  }

  /** Sends every stored mail whose retry time has come; answers how many went out. */
  async deliverDue(): Promise<number> {
    if (!this.transport) return 0;
    // Claims a batch by pushing its retry time forward, so two instances never send the same mail.
    const leaseUntil = new Date(Date.now() + SENDING_LEASE_MS);
    const due = this.database.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(isNull(mailOutbox.sentAt), lte(mailOutbox.nextAttemptAt, sql`now()`), sql`${mailOutbox.attempts} < ${MAX_ATTEMPTS}`))
      .orderBy(mailOutbox.nextAttemptAt)
      .limit(RETRY_BATCH)
      .for('update', { skipLocked: true });
    const claimed = await this.database.db
      .update(mailOutbox)
      .set({ nextAttemptAt: leaseUntil })
      .where(inArray(mailOutbox.id, due))
      .returning();
    const results = await Promise.all(claimed.map((row) => this.deliver(row)));
    return results.filter(Boolean).length;
  }

  /** The stored mails, newest first, optionally only those to one address (the dev outbox). */
  /** Mails still to send (not given up on) and the age of the oldest, for the metrics. */
  async pending(): Promise<{ depth: number; oldestSeconds: number }> {
    const [row] = await this.database.db
      .select({ depth: sql<number>`count(*)::int`, oldest: sql<number>`coalesce(extract(epoch from now() - min(${mailOutbox.createdAt})), 0)::float8` })
      .from(mailOutbox)
      .where(and(isNull(mailOutbox.sentAt), sql`${mailOutbox.attempts} < ${MAX_ATTEMPTS}`));
    return { depth: Number(row?.depth ?? 0), oldestSeconds: Number(row?.oldest ?? 0) };
  }

  async outbox(options: { to?: string | undefined; limit?: number } = {}): Promise<OutboxEntry[]> {
    const rows = await this.database.db
      .select({
        id: mailOutbox.id,
        to: mailOutbox.to,
        subject: mailOutbox.subject,
        text: mailOutbox.text,
        html: mailOutbox.html,
        headers: mailOutbox.headers,
        createdAt: mailOutbox.createdAt,
      })
      .from(mailOutbox)
      .where(options.to ? eq(mailOutbox.to, options.to.trim().toLowerCase()) : undefined)
      .orderBy(desc(mailOutbox.id))
      .limit(options.limit ?? 50);
    return rows.map(({ headers, ...row }) => ({ ...row, ...(headers ? { headers } : {}), createdAt: row.createdAt.toISOString() }));
  }

  /**
   * Notes a mail kept in the outbox. Outside production the log shows it whole: that is where a
   * developer reads codes. In production it shows only the address: the text holds codes, reset
   * tokens and revealed keys, and a code subject carries the code itself.
   */
  private logStored(message: MailMessage): void {
    if (this.config.production) this.log.info({ to: message.to }, `mail to ${message.to} kept in the outbox, not sent`);
    else this.log.info({ to: message.to, subject: message.subject }, `dev outbox: mail to ${message.to}: ${message.subject}\n${message.text}`);
  }

  private async deliver(row: Omit<MailMessage, 'headers'> & { id: number; attempts: number; headers?: Record<string, string> | null }): Promise<boolean> {
    const attempts = row.attempts + 1;
    try {
      await this.transport!.sendMail({
        from: this.config.mail.from,
        to: row.to,
        subject: row.subject,
        text: row.text,
        html: row.html,
        ...(row.replyTo ? { replyTo: row.replyTo } : {}),
        ...(row.headers ? { headers: row.headers } : {}),
      });
      await this.database.db.update(mailOutbox).set({ sentAt: new Date(), attempts, lastError: null }).where(eq(mailOutbox.id, row.id));
      return true;
    } catch (error) {
      const backoff = RETRY_BACKOFF_MINUTES[attempts - 1];
      const lastError = error instanceof Error ? error.message : String(error);
      // Logged by its row id, not its subject: a code mail's subject is the code.
      await this.database.db
        .update(mailOutbox)
        .set({ attempts, lastError, nextAttemptAt: new Date(Date.now() + (backoff ?? 0) * 60_000) })
        .where(eq(mailOutbox.id, row.id));
      if (backoff === undefined) this.log.error({ mailId: row.id, to: row.to, attempts, err: error }, 'mail given up after the last attempt');
      else this.log.warn({ mailId: row.id, to: row.to, attempts, err: error }, `mail not sent; next attempt in ${backoff} min`);
      return false;
    }
  }

  private track(delivery: Promise<unknown>): void {
    const promise = delivery.then(
      () => undefined,
      (error: unknown) => this.log.error({ err: error }, 'mail delivery failed'),
    );
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise));
  }
}
