// The one layout of the store's e-mails (accounts, orders, support: the templates beside this file):
// each mail a subject, a plain-text body and a small HTML body in one frame. Every link parameter is
// URL-encoded; every value put into HTML is escaped.
import type { MailMessage } from '../mailer.ts';

export const STORE_NAME = 'Keystore';

export interface MailContext {
  /** The origin links point at (PUBLIC_URL). */
  publicUrl: string;
  /** Where customers can write to. */
  supportEmail: string;
}

/** A page of the store with query parameters, each one encoded. */
export function storeLink(publicUrl: string, pathname: string, query: Record<string, string>): string {
  return `${publicUrl}${pathname}?${new URLSearchParams(query).toString()}`;
}

/** A mail made of a greeting, paragraphs, an optional code or button, and closing paragraphs. */
interface MailContent {
  subject: string;
  greeting: string;
  paragraphs: string[];
  code?: string;
  button?: { label: string; href: string };
  after: string[];
}

/** A mail of `content`: its plain text, and its HTML in the frame. */
export function compose(context: MailContext, to: string, content: MailContent): MailMessage {
  const text = [
    content.greeting,
    '',
    ...content.paragraphs,
    ...(content.code ? ['', `    ${content.code}`, ''] : []),
    ...(content.button ? ['', `${content.button.label}: ${content.button.href}`, ''] : []),
    ...content.after,
    '',
    ...signature(context),
  ].join('\n');
  return { to, subject: content.subject, text, html: mailFrame(context, content.subject, contentHtml(content), content.greeting) };
}

/** The HTML between the greeting and the footer of a composed mail. */
function contentHtml(content: MailContent): string {
  const code = content.code
    ? `<p style="margin:0 0 16px;font-size:32px;font-weight:700;letter-spacing:8px;font-family:Consolas,monospace">${escapeHtml(content.code)}</p>`
    : '';
  const button = content.button
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(content.button.href)}" style="display:inline-block;padding:12px 20px;background:#6c5ce7;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">${escapeHtml(content.button.label)}</a></p>
<p style="margin:0 0 16px;font-size:12px;color:#666666">Or open this address: <a href="${escapeHtml(content.button.href)}" style="color:#6c5ce7;word-break:break-all">${escapeHtml(content.button.href)}</a></p>`
    : '';
  return `${content.paragraphs.map(paragraphHtml).join('\n')}
${code}${button}
${content.after.map(paragraphHtml).join('\n')}`;
}

/** One paragraph of a mail's HTML, its text escaped. */
export function paragraphHtml(text: string): string {
  return `<p style="margin:0 0 16px">${escapeHtml(text)}</p>`;
}

/** The plain-text ending of every mail to a customer: the signature and the store's address. */
export function signature(context: MailContext): string[] {
  return [`— ${STORE_NAME}`, context.publicUrl];
}

/**
 * The HTML around every mail's body (accounts, orders, support): the store's header, a white card,
 * the greeting when there is one, the footer with the support address.
 */
export function mailFrame(context: MailContext, subject: string, body: string, greeting?: string): string {
  if (greeting) body = `${paragraphHtml(greeting)}\n${body}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f7;font-family:Arial,Helvetica,sans-serif;color:#1f1f29;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="padding:20px 28px;background:#1f1f29;border-radius:8px 8px 0 0;color:#ffffff;font-size:20px;font-weight:700">${STORE_NAME}</td></tr>
<tr><td style="padding:28px">
${body}
</td></tr>
<tr><td style="padding:16px 28px;font-size:12px;color:#666666;border-top:1px solid #eeeeee"><a href="${escapeHtml(context.publicUrl)}" style="color:#666666">${STORE_NAME}</a> · ${escapeHtml(context.supportEmail)}</td></tr>
</table></td></tr></table>
</body></html>`;
}

/** Makes text safe inside HTML elements and quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
