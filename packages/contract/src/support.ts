// Requests and answers of /api/support (SPEC §7): the e-mail form and the chat. The field rules come
// from support-rules.ts and rules.ts, so the server answers exactly the messages the page shows.
import { z } from 'zod';
import { CHAT_CONTEXT_TEXT_MAX_LENGTH } from './constants.ts';
import { validationMessages, supportMessages as m } from './messages.ts';
import { safeText, trimmedRuled as ruled } from './fields.ts';
import { emailProblem, normalizeEmail } from './rules.ts';
import { CHAT_SENDERS, supportMessageProblem, supportNameProblem, supportTitleProblem } from './support-rules.ts';

export const feedbackRequestSchema = z.object({
  email: ruled(emailProblem, validationMessages.emailRequired).transform(normalizeEmail),
  name: ruled(supportNameProblem, m.nameRequired),
  title: ruled(supportTitleProblem, m.titleRequired),
  message: ruled(supportMessageProblem, m.messageRequired),
});
export type FeedbackRequest = z.input<typeof feedbackRequestSchema>;

/** One message of the chat (SPEC §3). */
export const chatMessageSchema = z
  .object({ sender: z.enum(CHAT_SENDERS), text: safeText().max(CHAT_CONTEXT_TEXT_MAX_LENGTH) })
  .meta({ id: 'ChatMessage' });
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** The question and the chat so far; the server reads only the last CHAT_CONTEXT_MESSAGES of it. */
export const chatRequestSchema = z.object({
  message: ruled(supportMessageProblem, m.messageRequired),
  // Generous, so a long chat is never refused; what is read is capped on the server.
  context: z.array(chatMessageSchema).max(200).default([]),
});
export type ChatRequest = z.input<typeof chatRequestSchema>;

export const chatAnswerSchema = z.object({ answer: z.string() }).meta({ id: 'ChatAnswer' });
export type ChatAnswer = z.infer<typeof chatAnswerSchema>;
