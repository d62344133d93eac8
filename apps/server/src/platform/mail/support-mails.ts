// The support form's e-mails: the message to our team (Reply-To the sender, so answering is one
// click) and the acknowledgement to the sender. Plain text and HTML, every value escaped in the HTML.
import { SUPPORT_HOURS, SUPPORT_REPLY_HOURS, SUPPORT_RESOLUTION_BUSINESS_DAYS, type FeedbackRequest } from '@keystore/contract';
import type { MailMessage } from '../mailer.ts';
import { escapeHtml, mailFrame, paragraphHtml, signature, STORE_NAME, type MailContext } from './layout.ts';

/** A message of the support form, with who sent it and from where. */
type SupportMessage = FeedbackRequest & { userId: string | undefined; ip: string };

/** The message as our team receives it, with who sent it and from where. */
export function supportTeamMail(context: MailContext, id: string, message: SupportMessage): MailMessage {
  const facts = [
    `From: ${message.name} <${message.email}>`,
    `Customer account: ${message.userId ?? 'not logged in'}`,
    `IP address: ${message.ip}`,
    `Reference: ${id}`,
  ];
  const subject = `[Support] ${message.title}`;
  const text = [...facts, '', message.message, '', 'Reply to this e-mail to answer the customer.'].join('\n');
  const body = `<p style="margin:0 0 16px;color:#666666">${facts.map(escapeHtml).join('<br>')}</p>
<p style="margin:0 0 16px;white-space:pre-wrap">${escapeHtml(message.message)}</p>
<p style="margin:0;font-size:12px;color:#666666">Reply to this e-mail to answer the customer.</p>`;
  return { to: context.supportEmail, replyTo: message.email, subject, text, html: mailFrame(context, subject, body) };
}

/** The sender's receipt: we have the message and answer within 24 hours. */
export function acknowledgementMail(context: MailContext, message: SupportMessage): MailMessage {
  const paragraphs = [
    `Thank you for writing to ${STORE_NAME} support. We have received your message "${message.title}" and we answer within ${SUPPORT_REPLY_HOURS} hours.`,
    `Our support hours are ${SUPPORT_HOURS}, and most issues are resolved within ${SUPPORT_RESOLUTION_BUSINESS_DAYS} business days.`,
  ];
  const subject = `We received your message: ${message.title}`;
  const text = [`Hi ${message.name},`, '', ...paragraphs, '', 'Your message:', message.message, '', ...signature(context)].join('\n');
  const body = `${paragraphs.map(paragraphHtml).join('\n')}
<p style="margin:0 0 8px;color:#666666">Your message:</p>
<blockquote style="margin:0 0 16px;padding:8px 12px;border-left:3px solid #6c5ce7;color:#444444;white-space:pre-wrap">${escapeHtml(message.message)}</blockquote>`;
  return { to: message.email, subject, text, html: mailFrame(context, subject, body, `Hi ${message.name},`) };
}

/** An administrator's answer to a message of the support form (back office), with the message quoted. */
export function supportReplyMail(context: MailContext, message: { email: string; name: string; title: string; message: string }, reply: string): MailMessage {
  const subject = `Re: ${message.title}`;
  const text = [`Hi ${message.name},`, '', reply, '', '> ' + message.message.split('\n').join('\n> '), '', ...signature(context)].join('\n');
  const body = `<p style="margin:0 0 16px;white-space:pre-wrap">${escapeHtml(reply)}</p>
<p style="margin:0 0 8px;color:#666666">Your message:</p>
<blockquote style="margin:0 0 16px;padding:8px 12px;border-left:3px solid #6c5ce7;color:#444444;white-space:pre-wrap">${escapeHtml(message.message)}</blockquote>`;
  return { to: message.email, subject, text, html: mailFrame(context, subject, body, `Hi ${message.name},`) };
}
