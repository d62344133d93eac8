import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportMessages as messages, validationMessages } from '@keystore/contract';
import { supportMessages } from './schema.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { SessionService } from '../auth/sessions.ts';
import { UsersService } from '../users/service.ts';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';

const TEAM = 'team.inbox@gmail.com';

describe('POST /api/support/feedback', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let address = 0;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await buildTestApp({ env: { SMTP_URL: sink.url, SUPPORT_EMAIL: TEAM } });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  // Each test writes from an address of its own, so the per-IP limit is only met where a test wants it.
  const send = (payload: Record<string, unknown>, options: { ip?: string; headers?: Record<string, string> } = {}) => {
    address += 1;
    return t.app.inject({
      method: 'POST',
      url: '/api/support/feedback',
      payload,
      remoteAddress: options.ip ?? `10.0.0.${address}`,
      ...(options.headers ? { headers: options.headers } : {}),
    });
  };
  const valid = { email: 'Ada.Writer@Gmail.com', name: 'Ada', title: 'Key not delivered', message: 'My order has been paid but no key yet.' };

  it('answers the field rules of SPEC §5 with their messages', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...valid, email: '' }, validationMessages.emailRequired],
      [{ ...valid, email: 'ada.gmail.com' }, validationMessages.emailNeedsAt],
      [{ ...valid, email: 'ada@gmail' }, validationMessages.emailFormat],
      [{ ...valid, email: 'ada@unknown-provider.xyz' }, validationMessages.emailProvider],
      [{ ...valid, name: '  ' }, messages.nameRequired],
      [{ email: valid.email, title: valid.title, message: valid.message }, messages.nameRequired],
      [{ ...valid, title: '' }, messages.titleRequired],
      [{ ...valid, message: '' }, messages.messageRequired],
      [{ ...valid, message: 'x'.repeat(451) }, messages.messageTooLong],
    ];
    for (const [payload, error] of cases) {
      const answer = await send(payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      expect(answer.json()).toEqual({ error });
    }
    expect(await t.database.db.select().from(supportMessages)).toEqual([]);
  });

  it('takes a message of exactly 450 characters', async () => {
    const answer = await send({ ...valid, email: 'long.writer@gmail.com', message: 'y'.repeat(450) });
    expect(answer.statusCode).toBe(200);
    await sink.nextMail('long.writer@gmail.com');
    await sink.nextMail(TEAM);
  });

  it('stores the message, mails it to the support team with Reply-To the sender, and acknowledges it to the sender', async () => {
    const answer = await send(valid, { ip: '10.1.1.1' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ message: messages.feedbackSent });

    const [stored] = await t.database.db.select().from(supportMessages).where(eq(supportMessages.email, 'ada.writer@gmail.com'));
    expect(stored).toMatchObject({ name: 'Ada', title: 'Key not delivered', message: valid.message, userId: null, ip: '10.1.1.1' });

    const team = await sink.nextMail(TEAM);
    expect(team.subject).toBe('[Support] Key not delivered');
    expect(team.replyTo).toBe('ada.writer@gmail.com');
    expect(team.text).toContain('From: Ada <ada.writer@gmail.com>');
    expect(team.text).toContain(valid.message);
    expect(team.html).toContain('My order has been paid but no key yet.');

    const acknowledgement = await sink.nextMail('ada.writer@gmail.com');
    expect(acknowledgement.subject).toBe('We received your message: Key not delivered');
    expect(acknowledgement.text).toContain('we answer within 24 hours');
    expect(acknowledgement.text).toContain(valid.message);
  });

  it('escapes what the sender wrote in the HTML of both mails', async () => {
    const email = 'html.writer@gmail.com';
    expect((await send({ ...valid, email, name: '<b>Eve</b>', message: '<script>alert(1)</script>' })).statusCode).toBe(200);
    for (const mail of [await sink.nextMail(TEAM), await sink.nextMail(email)]) {
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).toContain('&#60;script&#62;');
    }
  });

  it("records a logged-in customer's account with the message", async () => {
    // Made directly: the sign-up flow would read its code from the dev outbox, which SMTP replaces here.
    const email = 'known.customer@gmail.com';
    const user = await new UsersService(t.database, t.config).create({ username: 'KnownCustomer', email, passwordHash: 'unused', role: 'customer', verified: true });
    const token = await new SessionService(t.database, t.config.secrets.jwt).open(user.id, { ip: '127.0.0.1', userAgent: 'support-test' });
    expect((await send({ ...valid, email }, { headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    const [stored] = await t.database.db.select().from(supportMessages).where(eq(supportMessages.email, email));
    expect(stored?.userId).toBe(user.id);
    expect((await sink.nextMail(TEAM)).text).toContain(`Customer account: ${user.id}`);
    // A stale token does not stop anyone from writing: the message is simply anonymous.
    const stale = await send({ ...valid, email: 'stale.token@gmail.com' }, { headers: { authorization: 'Bearer not-a-token' } });
    expect(stale.statusCode).toBe(200);
  });

  it('limits messages per sender and per address, with Retry-After', async () => {
    const email = 'busy.writer@gmail.com';
    for (let index = 0; index < 5; index += 1) expect((await send({ ...valid, email })).statusCode).toBe(200);
    const limited = await send({ ...valid, email });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toMatch(/Too many attempts/);

    for (let index = 0; index < 10; index += 1) expect((await send({ ...valid, email: `office${index}@gmail.com` }, { ip: '10.9.9.9' })).statusCode).toBe(200);
    const fromOffice = await send({ ...valid, email: 'office.extra@gmail.com' }, { ip: '10.9.9.9' });
    expect(fromOffice.statusCode).toBe(429);
    expect(fromOffice.headers['retry-after']).toBeDefined();
  });
});
