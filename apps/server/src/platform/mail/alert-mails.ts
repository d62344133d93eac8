// The operators' alerts (back office): a short mail saying what needs a look, with a link to the
// page of the back office that shows it. Plain text and HTML, every value escaped in the HTML.
import type { MailMessage } from '../mailer.ts';
import { escapeHtml, mailFrame, paragraphHtml, STORE_NAME, type MailContext } from './layout.ts';

export interface Alert {
  subject: string;
  lines: string[];
  /** A path of the back office, such as `/admin/orders?status=Paid`. */
  path: string;
}

export function operatorAlertMail(context: MailContext, to: string, alert: Alert): MailMessage {
  const url = `${context.publicUrl}${alert.path}`;
  const subject = `[${STORE_NAME} alert] ${alert.subject}`;
  const text = [...alert.lines, '', `See it in the back office: ${url}`, '', 'You get at most one such mail an hour.'].join('\n');
  const body = `${alert.lines.map(paragraphHtml).join('\n')}
<p style="margin:16px 0"><a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 20px;background:#6c5ce7;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">Open the back office</a></p>
<p style="margin:0;font-size:12px;color:#666666">You get at most one such mail an hour.</p>`;
  return { to, subject, text, html: mailFrame(context, subject, body) };
}

/** An order held for review (issue 29): one mail per held order to each admin, written with the hold (not hourly). */
export function orderHeldMail(context: MailContext, to: string, held: { orderId: string; amount: string; score: number; cancelRecommended: boolean }): MailMessage {
  const url = `${context.publicUrl}/admin/orders/${encodeURIComponent(held.orderId)}`;
  const subject = `[${STORE_NAME}] Order ${held.orderId} is waiting for review`;
  const lines = [
    `An order of ${held.amount} was held for review with a risk score of ${held.score}${held.cancelRecommended ? ' (cancel recommended)' : ''}.`,
    'Its payment is authorised, not charged, and its keys are reserved. Approve it or cancel it in the back office; nobody deciding, it is settled 12 hours before the authorisation lapses.',
  ];
  const text = [...lines, '', `Review it: ${url}`].join('\n');
  const body = `${lines.map(paragraphHtml).join('\n')}
<p style="margin:16px 0"><a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 20px;background:#6c5ce7;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">Review the order</a></p>`;
  return { to, subject, text, html: mailFrame(context, subject, body) };
}
