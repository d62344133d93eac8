import { describe, expect, it } from 'vitest';
import { loginRequestSchema } from './accounts.ts';
import { gameIdParamsSchema, gameListQuerySchema } from './catalog.ts';
import { catalogMessages, requestMessages } from './messages.ts';
import { newsFieldsSchema } from './news.ts';
import { createOrderRequestSchema } from './orders.ts';
import { feedbackRequestSchema } from './support.ts';
import { hasUnsafeCharacters, ID_PATTERN } from './text-rules.ts';

const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message;

describe('safe text (issue 12)', () => {
  it.each(['\u0000', 'abc\u0000', '\u0001', '\u001b[31m', '\u007f', '\uD800', 'a\uDFFFb', 'x\uDBFF'])('finds the unsafe character in %j', (text) => {
    expect(hasUnsafeCharacters(text)).toBe(true);
  });

  it.each(['', 'Plain words', 'Two\nlines\r\n\tindented', '😀🎮👨‍👩‍👧', 'Ünïcödé ß İ', '\u202Eright to left\u200F', '\uFFFF', '𝕏'])('takes %j', (text) => {
    expect(hasUnsafeCharacters(text)).toBe(false);
  });

  it('is refused with one message by every kind of field: ruled, free text, e-mail, query', () => {
    const feedback = { email: 'ada@gmail.com', name: 'Ada', title: 'Help', message: 'Where is my key?' };
    expect(firstMessage(feedbackRequestSchema.safeParse({ ...feedback, name: 'Ada\u0000' }))).toBe(requestMessages.unsafeText);
    expect(firstMessage(feedbackRequestSchema.safeParse({ ...feedback, message: 'key\uD800' }))).toBe(requestMessages.unsafeText);
    expect(firstMessage(newsFieldsSchema.safeParse({ title: 'Sale\u0000', category: 'News', content: 'On now' }))).toBe(requestMessages.unsafeText);
    expect(firstMessage(loginRequestSchema.safeParse({ email: 'ada@gmail.com\u0000', password: 'Secret123' }))).toBe(requestMessages.unsafeText);
    expect(firstMessage(gameListQuerySchema.safeParse({ search: 'hades\u0000' }))).toBe(requestMessages.unsafeText);
    expect(firstMessage(createOrderRequestSchema.safeParse({ items: [{ gameId: 'g\u0000', quantity: 1 }] }))).toBe(requestMessages.unsafeText);
  });

  it('caps the login password instead of hashing any length', () => {
    expect(loginRequestSchema.safeParse({ email: 'ada@gmail.com', password: 'x'.repeat(10_000) }).success).toBe(false);
  });
});

describe('ids in paths', () => {
  it('take exactly the shape the server gives: 16 to 24 lowercase letters and digits', () => {
    for (const id of ['abcdefgh12345678', 'a'.repeat(20), '0'.repeat(24)]) expect(ID_PATTERN.test(id)).toBe(true);
    for (const id of ['', 'abc', 'a'.repeat(25), 'ABCDEFGH12345678', 'abcdefgh1234567\u0000', 'abcdefgh-1234567', '../../etc/passwd']) {
      expect(ID_PATTERN.test(id)).toBe(false);
    }
  });

  it("answer a malformed id with the route's not-found message", () => {
    expect(firstMessage(gameIdParamsSchema.safeParse({ id: 'no\u0000such' }))).toBe(catalogMessages.gameNotFound);
    expect(gameIdParamsSchema.safeParse({ id: 'abcdefgh12345678' }).success).toBe(true);
  });
});
