import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { mailOutbox } from './schema.ts';
import { buildTestApp, memoryLog, type TestApp } from '../test/helper.ts';
import { codeIn, linkIn, startSmtpSink, type SmtpSink } from '../test/smtp-sink.ts';
import { passwordResetMail, verificationMail } from './mail/account-mails.ts';
import type { OutboxEntry } from './mailer.ts';

const context = { publicUrl: 'https://shop.example', supportEmail: 'help@shop.example' };
let players = 0;
const customer = (email: string) => ({ username: `Player_${(players += 1)}`, email, password: 'Secret123' });

describe('mail templates', () => {
  it('encodes every link parameter, so an address with + or & survives the round trip', () => {
    const email = 'first+shop&co@gmail.com';
    const mail = verificationMail(context, { email, username: 'Player_One' }, '042917');
    const link = new URL(/https:\/\/\S+confirm-email\S+/.exec(mail.text)![0]);
    expect(link.searchParams.get('email')).toBe(email);
    expect(link.searchParams.get('code')).toBe('042917');
    expect(mail.html).toContain('first%2Bshop%26co%40gmail.com');
    expect(mail.html).not.toContain('first+shop&co');

    const reset = passwordResetMail(context, { email, username: 'Player_One' }, 'tok-en_1');
    const resetLink = new URL(/https:\/\/\S+reset-password\S+/.exec(reset.text)![0]);
    expect(Object.fromEntries(resetLink.searchParams)).toEqual({ email, token: 'tok-en_1' });
  });
});

describe('dev outbox (no SMTP_URL)', () => {
  let t: TestApp;
  const log = memoryLog('info');
  beforeAll(async () => {
    t = await buildTestApp({ logger: log.logger });
  });
  afterAll(() => t.close());

  it('keeps the mail and lists it as JSON and as a page', async () => {
    const email = 'outbox.reader@gmail.com';
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: customer(email) })).statusCode).toBe(201);

    const listed = await t.app.inject({ url: `/dev/mail/messages?to=${encodeURIComponent(email.toUpperCase())}` });
    expect(listed.statusCode).toBe(200);
    const [mail, ...rest] = listed.json<OutboxEntry[]>();
    expect(rest).toEqual([]);
    expect(mail).toMatchObject({ to: email, subject: expect.stringMatching(/verification code/) });
    const code = codeIn({ to: [mail!.to], subject: mail!.subject, text: mail!.text, html: mail!.html });
    expect(mail!.text).toContain(`/confirm-email?email=${encodeURIComponent(email)}&code=${code}`);

    const page = await t.app.inject({ url: '/dev/mail' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain(mail!.subject);
    expect((await t.app.inject({ url: '/dev/mail/messages?to=someone.else@gmail.com' })).json()).toEqual([]);
    // The log shows the mail whole too: a developer reads codes there.
    expect(log.text()).toContain(code);
  });
});

describe('outbox in production (no SMTP_URL)', () => {
  let t: TestApp;
  const log = memoryLog('info');
  beforeAll(async () => {
    t = await buildTestApp({ env: { NODE_ENV: 'production' }, logger: log.logger });
  });
  afterAll(() => t.close());

  it('is not served', async () => {
    expect((await t.app.inject({ url: '/dev/mail/messages' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/dev/mail' })).statusCode).toBe(404);
  });

  it('says with an error at start that mail goes nowhere', () => {
    const lines = log
      .text()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines).toContainEqual(expect.objectContaining({ level: 50, msg: expect.stringMatching(/SMTP_URL is not set/) }));
  });

  it('never logs a code or a reset token, only who was written to', async () => {
    const email = 'log.reader@gmail.com';
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: customer(email) })).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } })).statusCode).toBe(200);
    // The reset link is written just after the answer.
    await expect.poll(async () => (await t.app.mailer.outbox({ to: email })).length).toBe(2);
    const [reset, verification] = await t.app.mailer.outbox({ to: email });
    const code = codeIn({ ...verification!, to: [email] });
    const token = linkIn({ ...reset!, to: [email] }, '/reset-password').searchParams.get('token')!;

    expect(log.text()).toContain(email);
    expect(log.text()).not.toContain(code);
    expect(log.text()).not.toContain(token);
  });
});

describe('SMTP delivery', () => {
  let sink: SmtpSink;
  let t: TestApp;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await buildTestApp({ env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  const row = async (to: string) => (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)))[0];

  it('sends at once, with a text and an HTML version', async () => {
    const email = 'smtp.reader@gmail.com';
    await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: customer(email) });
    const mail = await sink.nextMail(email);
    expect(mail.html).toContain('<!doctype html>');
    expect(codeIn(mail)).toMatch(/^\d{6}$/);
    await expect.poll(async () => (await row(email))?.sentAt).toBeInstanceOf(Date);
    expect((await t.app.inject({ url: '/dev/mail/messages' })).statusCode).toBe(404);
  });

  it('keeps a mail the SMTP server refused and sends it on a later attempt', async () => {
    const email = 'smtp.retry@gmail.com';
    sink.failing = true;
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: customer(email) })).statusCode).toBe(201);
    await expect.poll(async () => (await row(email))?.attempts, { timeout: 5000 }).toBe(1);
    const failed = (await row(email))!;
    expect(failed.sentAt).toBeNull();
    expect(failed.lastError).toMatch(/try again later/);
    expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

    sink.failing = false;
    // Not due yet: nothing goes out before the backoff has passed.
    expect(await t.app.mailer.deliverDue()).toBe(0);
    await t.database.db.update(mailOutbox).set({ nextAttemptAt: new Date(Date.now() - 1000) }).where(eq(mailOutbox.to, email));
    expect(await t.app.mailer.deliverDue()).toBe(1);
    expect(codeIn(await sink.nextMail(email))).toMatch(/^\d{6}$/);
    expect((await row(email))!).toMatchObject({ attempts: 2, lastError: null, sentAt: expect.any(Date) });
  });
});
