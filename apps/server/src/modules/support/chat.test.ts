import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_CONTEXT_MESSAGES, supportMessages, type ChatMessage } from '@keystore/contract';
import { FakeOpenAi } from '../../test/fake-openai.ts';
import { SUPPORT_LIMITS } from './limits.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

type Chat = (message: string, options?: { context?: ChatMessage[]; buyer?: Buyer; ip?: string }) => Promise<{ status: number; body: { answer?: string; error?: string } }>;

function chatWith(t: OrdersTestApp): Chat {
  return async (message, options = {}) => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/support/chat',
      payload: { message, context: options.context ?? [] },
      ...(options.buyer ? { headers: options.buyer.headers } : {}),
      ...(options.ip ? { remoteAddress: options.ip } : {}),
    });
    return { status: answer.statusCode, body: answer.json() };
  };
}

const shortId = (orderId: string) => orderId.slice(0, 8).toUpperCase();

describe('the support chat without an AI provider (offline assistant)', () => {
  let t: OrdersTestApp;
  let chat: Chat;
  beforeAll(async () => {
    t = await ordersTestApp();
    chat = chatWith(t);
  });
  afterAll(() => t.close());

  it.each([
    ['how long does a refund take?', /7 business days/],
    ['Can I get a refund if my key is not delivered? How long do I have?', /within 30 days.*within 7 business days/s],
    ['what are your support hours?', /10:00–22:00 UK time/],
    ['which cards do you accept', /Visa and Mastercard/],
    ['is the game region locked?', /region/i],
    ['how do I see my key?', /Library.*Reveal Key/s],
    ['Is there an age limit?', /18\+/],
    ['How long does delivery take?', /1 business day/],
    ['How do I activate my key on Steam?', /Activate a Product/],
    ['Can I pay in dollars?', /euros/],
  ])('answers "%s" from the terms and FAQ', async (question, expected) => {
    const { status, body } = await chat(question);
    expect(status).toBe(200);
    expect(body.answer).toMatch(expected);
  });

  it('says plainly when it does not know, and points to the e-mail form', async () => {
    const { body } = await chat('What is the capital of France?');
    expect(body.answer).toMatch(/don't know/);
    expect(body.answer).toMatch(/e-mail form on this Support page/);
  });

  it("answers a logged-in customer's question about their order from their orders", async () => {
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, await t.gameWithStock(5));
    const { body } = await chat('Where is my order?', { buyer });
    expect(body.answer).toContain(`Order ${shortId(order._id)}`);
    expect(body.answer).toContain('Payment: Awaiting payment');

    const anonymous = await chat('Where is my order?');
    expect(anonymous.body.answer).not.toContain(shortId(order._id));
    expect(anonymous.body.answer).toMatch(/Profile/);
  });

  it('refuses a message over 450 characters and an empty one', async () => {
    expect(await chat('x'.repeat(451))).toEqual({ status: 400, body: { error: supportMessages.messageTooLong } });
    expect(await chat('   ')).toEqual({ status: 400, body: { error: supportMessages.messageRequired } });
    expect((await chat('y'.repeat(450))).status).toBe(200);
  });

  it('is rate-limited per address, with Retry-After', async () => {
    for (let index = 0; index < 60; index += 1) expect((await chat('hello', { ip: '10.7.7.7' })).status).toBe(200);
    const limited = await t.app.inject({ method: 'POST', url: '/api/support/chat', payload: { message: 'hello', context: [] }, remoteAddress: '10.7.7.7' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('is rate-limited per signed-in customer across addresses, leaving the addresses open to others', async () => {
    const buyer = await t.buyer();
    const { limit } = SUPPORT_LIMITS.chatPerUser;
    for (let index = 0; index < limit; index += 1) expect((await chat('hello', { buyer, ip: `10.8.${index}.1` })).status).toBe(200);
    const limited = await chat('hello', { buyer, ip: '10.9.9.9' });
    expect(limited).toEqual({ status: 429, body: { error: expect.stringMatching(/^Too many attempts/) } });
    expect((await chat('hello', { ip: '10.9.9.9' })).status).toBe(200);
  });
});

describe('the support chat with an AI provider', () => {
  const fake = new FakeOpenAi();
  let t: OrdersTestApp;
  let chat: Chat;
  beforeAll(async () => {
    await fake.start();
    t = await ordersTestApp({ env: fake.env() });
    chat = chatWith(t);
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  const lastPrompt = () => {
    const calls = fake.calls('/v1/chat/completions');
    return calls[calls.length - 1]!.body.messages as Array<{ role: string; content: string }>;
  };

  it("answers with the model's text, the terms and FAQ in the system prompt and the chat so far after it", async () => {
    fake.reply = () => 'Refunds take up to 7 business days.';
    const context: ChatMessage[] = [
      { sender: 'bot', text: supportMessages.chatGreeting },
      { sender: 'user', text: 'Hello' },
      { sender: 'bot', text: 'Hello! How can I help?' },
    ];
    const { status, body } = await chat('How long does a refund take?', { context });
    expect(status).toBe(200);
    expect(body).toEqual({ answer: 'Refunds take up to 7 business days.' });

    const [system, ...rest] = lastPrompt();
    expect(system!.role).toBe('system');
    for (const fact of ['refreshed every 4 hours', 'Visa and Mastercard', '10:00–22:00 UK time', 'adults 18+', 'within 7 business days', 'within 24 hours', '1 business day']) {
      expect(system!.content).toContain(fact);
    }
    expect(system!.content).toContain('Q: How do I see my key?');
    expect(system!.content).toContain('not logged in');
    expect(rest).toEqual([
      { role: 'assistant', content: supportMessages.chatGreeting },
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hello! How can I help?' },
      { role: 'user', content: 'How long does a refund take?' },
    ]);
  });

  it('sends only the last messages of a long chat', async () => {
    const context: ChatMessage[] = Array.from({ length: 30 }, (_, index) => ({ sender: index % 2 ? 'bot' : 'user', text: `message ${index}` }));
    expect((await chat('And now?', { context })).status).toBe(200);
    const [, ...rest] = lastPrompt();
    expect(rest).toHaveLength(CHAT_CONTEXT_MESSAGES + 1);
    expect(rest[0]!.content).toBe(`message ${30 - CHAT_CONTEXT_MESSAGES}`);
  });

  it("puts a logged-in customer's recent orders and their status in the prompt", async () => {
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, await t.gameWithStock(5));
    expect((await chat('Where is my order?', { buyer })).status).toBe(200);
    const [system] = lastPrompt();
    expect(system!.content).toContain(`Order ${shortId(order._id)}`);
    expect(system!.content).toContain('Payment: Awaiting payment');
    expect(system!.content).toContain(order.items);
  });

  it('falls back to the offline assistant when the provider fails', async () => {
    // 400 is not retried by the SDK, so the fallback comes at once.
    fake.faults.push({ status: 400, message: 'model overloaded' });
    const { status, body } = await chat('how long does a refund take?');
    expect(status).toBe(200);
    expect(body.answer).toMatch(/7 business days/);
  });
});
