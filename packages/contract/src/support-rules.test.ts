import { describe, expect, it } from 'vitest';
import { supportMessages as m, validationMessages } from './messages.ts';
import { chatRequestSchema, feedbackRequestSchema } from './support.ts';
import { supportMessageProblem, supportNameProblem, supportTitleProblem } from './support-rules.ts';

describe('the support rules (SPEC §5)', () => {
  it('requires each field and caps the message at 450 characters', () => {
    expect(supportNameProblem(' ')).toBe(m.nameRequired);
    expect(supportNameProblem('n'.repeat(101))).toBe(m.nameTooLong);
    expect(supportTitleProblem('')).toBe(m.titleRequired);
    expect(supportTitleProblem('t'.repeat(151))).toBe(m.titleTooLong);
    expect(supportMessageProblem('')).toBe(m.messageRequired);
    expect(supportMessageProblem('x'.repeat(451))).toBe(m.messageTooLong);
    expect(supportMessageProblem('x'.repeat(450))).toBeUndefined();
    expect(supportNameProblem('Ada')).toBeUndefined();
  });

  it('gives the server the same messages, the e-mail lowercased and the fields trimmed', () => {
    const valid = { email: ' Ada@Gmail.com ', name: ' Ada ', title: 'Help', message: 'Where is my key?' };
    expect(feedbackRequestSchema.parse(valid)).toEqual({ email: 'ada@gmail.com', name: 'Ada', title: 'Help', message: 'Where is my key?' });
    const problem = (body: object) => feedbackRequestSchema.safeParse(body).error?.issues[0]?.message;
    expect(problem({ ...valid, email: 'ada@unknown-shop.com' })).toBe(validationMessages.emailProvider);
    expect(problem({ name: 'Ada', title: 'Help', message: 'Hi' })).toBe(validationMessages.emailRequired);
    expect(problem({ ...valid, message: 'x'.repeat(451) })).toBe(m.messageTooLong);
  });

  it('takes a chat message with an optional history of user and bot lines', () => {
    expect(chatRequestSchema.parse({ message: ' Hi ' })).toEqual({ message: 'Hi', context: [] });
    expect(chatRequestSchema.safeParse({ message: 'Hi', context: [{ sender: 'admin', text: 'x' }] }).success).toBe(false);
    expect(chatRequestSchema.safeParse({ message: 'x'.repeat(451) }).error?.issues[0]?.message).toBe(m.messageTooLong);
  });
});
