// The order e-mails: the receipt with the keys once every key is in, the notice that delivery is
// delayed, and the notice of money sent back without keys. Plain text and HTML, every value escaped in the HTML.
import { centsToEuro } from '@keystore/contract';
import type { MailMessage } from '../mailer.ts';
import { escapeHtml, mailFrame, paragraphHtml, signature, STORE_NAME, type MailContext } from './layout.ts';

/**
 * Who gets an order's mails: a customer (named), or a guest (issue 29: no name, and `orderPage`, the
 * order's signed link, where its keys are revealed instead of the library).
 */
export interface Recipient {
  email: string;
  username: string | null;
  orderPage?: string | undefined;
}

const hello = (to: Recipient) => `Hi ${to.username ?? 'there'},`;

/** What the order mails show of an order and its lines (the orders module's rows). */
interface MailedOrder {
  id: string;
  amountCents: number;
  paidAt: Date | null;
}
interface MailedLine {
  id: string;
  /** The game: the receipt links to its page's activation guide (issue 31). */
  gameId: string;
  title: string;
  platform: string;
  quantity: number;
  unitPriceCents: number;
}

const euro = (cents: number) => `€${centsToEuro(cents).toFixed(2)}`;
const shortId = (order: MailedOrder) => order.id.slice(0, 8).toUpperCase();

/** The receipt: what was bought, what it cost, and the link to the library, where the keys are revealed. */
export function receiptMail(context: MailContext, to: Recipient, order: MailedOrder, lines: MailedLine[], options: { demo?: boolean; giftTo?: string | undefined } = {}): MailMessage {
  // No mail carries a key (issue 23): a key nobody has seen can go back to its seller, one that was
  // e-mailed cannot. The receipt links to the library, where every reveal is recorded.
  const libraryUrl = to.orderPage ?? `${context.publicUrl}/library?order=${encodeURIComponent(order.id)}`;
  const where = to.orderPage ? 'on your order page' : 'in your library';
  // A gift's keys are its recipient's: the buyer learns they went, never where to reveal them.
  const ready = options.giftTo
    ? `It is paid, and we have e-mailed ${options.giftTo} your message and a link to reveal the keys.`
    : `It is paid and your keys are ready ${where}.`;
  const keyCount = (line: MailedLine) => `${line.quantity} key${line.quantity === 1 ? '' : 's'}`;
  const guideUrl = (line: MailedLine) => `${context.publicUrl}/game/${encodeURIComponent(line.gameId)}#activation`;
  const text = [
    hello(to),
    '',
    `Thank you for your order ${shortId(order)}. ${ready}`,
    '',
    ...lines.flatMap((line) => [`${line.title} (${line.platform}) × ${line.quantity}: ${euro(line.unitPriceCents * line.quantity)}, ${keyCount(line)}`, `  How to activate: ${guideUrl(line)}`]),
    '',
    `Total paid: ${euro(order.amountCents)}${order.paidAt ? ` on ${order.paidAt.toUTCString()}` : ''}`,
    ...(options.demo ? ['', 'These are demo keys of the demonstration store: they activate nothing.'] : []),
    '',
    ...(options.giftTo ? [`See your order: ${libraryUrl}`] : [`Reveal your keys ${where}: ${libraryUrl}`]),
    `For your safety we never send keys by e-mail. Questions? Write to ${context.supportEmail}.`,
    '',
    ...signature(context),
  ].join('\n');
  const rows = lines
    .map(
      (line) => `<tr><td style="padding:8px 0;border-bottom:1px solid #eeeeee">
<strong>${escapeHtml(line.title)}</strong> <span style="color:#666666">(${escapeHtml(line.platform)}) × ${line.quantity}</span><br>
<span style="color:#666666">${keyCount(line)}${options.giftTo ? `, sent to ${escapeHtml(options.giftTo)}` : ` ${where}`}</span><br>
<a href="${escapeHtml(guideUrl(line))}" style="color:#6c5ce7;font-size:13px">How to activate</a>
</td><td style="padding:8px 0;border-bottom:1px solid #eeeeee;text-align:right;vertical-align:top">${euro(line.unitPriceCents * line.quantity)}</td></tr>`,
    )
    .join('\n');
  const body = `${paragraphHtml(`Thank you for your order ${shortId(order)}. ${ready}`)}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${rows}
<tr><td style="padding:8px 0"><strong>Total paid</strong></td><td style="padding:8px 0;text-align:right"><strong>${euro(order.amountCents)}</strong></td></tr></table>
${options.demo ? '<p style="margin:16px 0;color:#666666">These are demo keys of the demonstration store: they activate nothing.</p>' : ''}
<p style="margin:16px 0"><a href="${escapeHtml(libraryUrl)}" style="display:inline-block;padding:12px 20px;background:#6c5ce7;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">${options.giftTo ? 'See my order' : 'Reveal my keys'}</a></p>
<p style="margin:0 0 16px;font-size:12px;color:#666666">For your safety we never send keys by e-mail.</p>`;
  const subject = options.giftTo ? `Your ${STORE_NAME} order ${shortId(order)}: your gift is on its way` : `Your ${STORE_NAME} order ${shortId(order)}: your keys are ready`;
  return { to: to.email, subject, text, html: mailFrame(context, subject, body, hello(to)) };
}

/** Paid, but the supplier has not handed over every key yet: the customer learns it, once. */
export function deliveryDelayedMail(context: MailContext, to: Recipient, order: MailedOrder, lines: MailedLine[]): MailMessage {
  const items = lines.map((line) => `${line.title} × ${line.quantity}`).join(', ');
  const paragraphs = [
    `Your payment for order ${shortId(order)} (${items}, ${euro(order.amountCents)}) has been received.`,
    'Our supplier has not handed over your keys yet. We keep trying, and you will get another e-mail with your keys the moment they are in; delivery takes at most 1 business day.',
    `If they do not arrive by then, you can ask for a refund at ${context.supportEmail}.`,
  ];
  const subject = `Your ${STORE_NAME} order ${shortId(order)}: delivery is delayed`;
  const text = [hello(to), '', ...paragraphs, '', ...signature(context)].join('\n');
  return { to: to.email, subject, text, html: mailFrame(context, subject, paragraphs.map(paragraphHtml).join('\n'), hello(to)) };
}

/**
 * Money went back without keys: for the whole order, or for some of its lines (the rest is still on
 * its way). Says what, how much, and why; the payment provider shows the money within a few days.
 */
export function refundMail(
  context: MailContext,
  to: Recipient,
  order: MailedOrder,
  lines: MailedLine[],
  refund: { cents: number; reason: string; whole: boolean },
): MailMessage {
  const items = lines.map((line) => `${line.title} × ${line.quantity}`).join(', ');
  const paragraphs = [
    refund.whole
      ? `We have refunded your order ${shortId(order)} (${items}): ${euro(refund.cents)} goes back to the card or account you paid with.`
      : `We have refunded part of your order ${shortId(order)}: ${items}, ${euro(refund.cents)}, goes back to the card or account you paid with. The rest of your order is on its way as usual.`,
    `Why: ${refund.reason}`,
    'Depending on your bank, the money shows on your statement within 5–10 business days.',
    `Questions? Write to ${context.supportEmail}.`,
  ];
  const subject = `Your ${STORE_NAME} order ${shortId(order)}: ${refund.whole ? 'refunded' : 'partly refunded'}`;
  const text = [hello(to), '', ...paragraphs, '', ...signature(context)].join('\n');
  return { to: to.email, subject, text, html: mailFrame(context, subject, paragraphs.map(paragraphHtml).join('\n'), hello(to)) };
}
