// Support: the e-mail form and the chat. The chat asks the AI provider when one is configured, with
// the store's terms, its FAQ and the customer's recent orders in the system prompt; without one, or
// when the provider fails, the offline assistant answers from the same FAQ, so the chat always answers.
import type { FastifyBaseLogger } from 'fastify';
import {
  adminMessages,
  CHAT_CONTEXT_MESSAGES,
  supportMessages,
  type AdminSupportList,
  type AdminSupportMessage,
  type ChatMessage,
  type Order,
  type SupportStatus,
} from '@keystore/contract';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { MailContext } from '../../platform/mail/layout.ts';
import type { Mailer } from '../../platform/mailer.ts';
import type { AiProvider, ChatMessage as AiMessage } from '../ai/ports.ts';
import { orderLine, RECENT_ORDERS, type OrdersReader } from './customer-orders.ts';
import { EMAIL_FORM_HINT, FAQ, STORE_TERMS } from './knowledge.ts';
import { acknowledgementMail, supportReplyMail, supportTeamMail } from '../../platform/mail/support-mails.ts';
import { recordAudit, type AuditActor } from '../../platform/audit.ts';
import { NotFound } from '../../platform/errors.ts';
import { offlineAnswer } from './offline-assistant.ts';
import { insertSupportMessage, lockSupportMessage, markAnswered, openMessageCount, supportMessagePage, type NewSupportMessage, type SupportMessageRow } from './store.ts';

/** Enough for a few paragraphs; the chat is for short answers. */
const MAX_ANSWER_TOKENS = 400;

export interface SupportDeps {
  database: Database;
  config: Config;
  mailer: Mailer;
  orders: OrdersReader;
  ai: AiProvider | undefined;
  log: FastifyBaseLogger;
}

export class SupportService {
  private readonly deps: SupportDeps;
  private readonly mailContext: MailContext;

  constructor(deps: SupportDeps) {
    this.deps = deps;
    this.mailContext = { publicUrl: deps.config.publicUrl, supportEmail: deps.config.mail.supportEmail };
  }

  /** Stores a form message, mails it to the support team and acknowledges it to the sender; answers the success text. */
  async sendFeedback(message: NewSupportMessage): Promise<string> {
    const id = await insertSupportMessage(this.deps.database, message);
    await Promise.all([
      this.deps.mailer.send(supportTeamMail(this.mailContext, id, message)),
      this.deps.mailer.send(acknowledgementMail(this.mailContext, message)),
    ]);
    return supportMessages.feedbackSent;
  }

  /** The support inbox (back office): the form's messages, newest first. */
  async inbox(status: SupportStatus | undefined, page: number, pageSize: number): Promise<AdminSupportList> {
    const { rows, total } = await supportMessagePage(this.deps.database.db, status, page, pageSize);
    return { items: rows.map(toAdminMessage), total, page, pageSize };
  }

  /**
   * Answers a message by e-mail to its sender: the mail is written to the outbox, the message marked
   * answered and the audit record written, in one transaction. A later reply is sent too (a follow-up).
   */
  async reply(id: string, reply: string, actor: AuditActor): Promise<AdminSupportMessage> {
    const answered = await this.deps.database.db.transaction(async (tx) => {
      const message = await lockSupportMessage(tx, id);
      if (!message) throw new NotFound(adminMessages.supportMessageNotFound);
      await this.deps.mailer.enqueue(tx, supportReplyMail(this.mailContext, message, reply));
      const row = await markAnswered(tx, id, reply, actor.id);
      await recordAudit(tx, { actor, action: 'support.reply', target: { type: 'support', id }, before: { status: message.status }, after: { status: row.status, reply } });
      return row;
    });
    this.deps.mailer.flush();
    return toAdminMessage(answered);
  }

  /** How many form messages wait for an answer (the back office's dashboard). */
  openCount(): Promise<number> {
    return openMessageCount(this.deps.database);
  }

  /** The chat's answer to `message`, given the chat so far and, for a signed-in customer, their user id. */
  async chat(message: string, context: readonly ChatMessage[], userId: string | undefined): Promise<string> {
    const orders = userId ? (await this.deps.orders.list(userId)).slice(0, RECENT_ORDERS) : undefined;
    const { ai } = this.deps;
    if (!ai) return offlineAnswer(message, orders);
    try {
      return await ai.complete(chatPrompt(message, context, orders), { maxTokens: MAX_ANSWER_TOKENS });
    } catch (error) {
      // The customer still gets an answer: the provider's outage is the operator's problem, logged here.
      this.deps.log.warn({ err: error }, 'AI provider failed; the offline assistant answered the support chat');
      return offlineAnswer(message, orders);
    }
  }
}

/** The conversation sent to the AI provider: the system prompt, the last messages of the chat, the question. */
function chatPrompt(message: string, context: readonly ChatMessage[], orders: readonly Order[] | undefined): AiMessage[] {
  const history = context.slice(-CHAT_CONTEXT_MESSAGES).map(
    (entry): AiMessage => ({ role: entry.sender === 'user' ? 'user' : 'assistant', content: entry.text }),
  );
  return [{ role: 'system', content: systemPrompt(orders) }, ...history, { role: 'user', content: message }];
}

function systemPrompt(orders: readonly Order[] | undefined): string {
  const customer =
    orders === undefined
      ? 'The customer is not logged in: you cannot see their orders. For questions about an order, ask them to log in or to give the order number in the e-mail form.'
      : orders.length === 0
        ? 'The customer is logged in and has no orders yet.'
        : ['The customer is logged in. Their most recent orders, newest first:', ...orders.map((order) => `- ${orderLine(order)}`)].join('\n');
  return [
    'You are the AI support assistant of Keystore, an online store for digital game activation keys.',
    'Answer in the language of the customer, briefly and politely, in plain text without Markdown.',
    'Use only the terms, the FAQ and the order data below. Never invent policies, prices, order details or keys.',
    `When you do not know the answer, or the customer needs a person (a refund, a faulty key, an account problem), say so plainly and tell them to ${EMAIL_FORM_HINT}.`,
    'Decline questions that have nothing to do with the store.',
    '',
    'Terms of the store:',
    ...STORE_TERMS.map((term) => `- ${term}`),
    '',
    'Frequently asked questions:',
    ...FAQ.map((entry) => `Q: ${entry.question}\nA: ${entry.answer}`),
    '',
    customer,
  ].join('\n');
}

function toAdminMessage(row: SupportMessageRow): AdminSupportMessage {
  return {
    _id: row.id,
    createdAt: row.createdAt.toISOString(),
    email: row.email,
    name: row.name,
    title: row.title,
    message: row.message,
    status: row.status,
    reply: row.reply,
    answeredAt: row.answeredAt?.toISOString() ?? null,
  };
}
