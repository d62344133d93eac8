// The store's e-mails: each one a subject, a plain-text body and a small HTML body in one layout.
// Every link parameter is URL-encoded; every value put into HTML is escaped.
import { CODE_TTL_MINUTES, RESET_TOKEN_TTL_MINUTES } from '@keystore/contract';
import type { MailMessage } from './mailer.ts';

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

/** The verification mail after sign-up or a resend: the code for the dialog and the same code as a link. */
export function verificationMail(context: MailContext, to: { email: string; username: string }, code: string): MailMessage {
  const link = storeLink(context.publicUrl, '/confirm-email', { email: to.email, code });
  return compose(context, to.email, {
    subject: `Your ${STORE_NAME} verification code: ${code}`,
    greeting: `Hi ${to.username},`,
    paragraphs: [`Welcome to ${STORE_NAME}! Enter this code in the sign-up window to confirm your email address:`],
    code,
    button: { label: 'Confirm my email', href: link },
    after: [`The code is valid for ${CODE_TTL_MINUTES} minutes. If you did not create an account, you can ignore this email.`],
  });
}

/** The code asked for when a login comes from an address the account has not used before. */
export function newDeviceMail(
  context: MailContext,
  to: { email: string; username: string },
  code: string,
  attempt: { ip: string; at: Date },
): MailMessage {
  return compose(context, to.email, {
    subject: `Your ${STORE_NAME} sign-in code: ${code}`,
    greeting: `Hi ${to.username},`,
    paragraphs: [
      `Someone signed in to your account from a new device (IP address ${attempt.ip}, ${attempt.at.toUTCString()}).`,
      'If it was you, enter this code to finish signing in:',
    ],
    code,
    after: [
      `The code is valid for ${CODE_TTL_MINUTES} minutes.`,
      'If it was not you, do not share the code with anyone and change your password: whoever tried knows it.',
    ],
  });
}

/** The password reset link. */
export function passwordResetMail(context: MailContext, to: { email: string; username: string }, token: string): MailMessage {
  const link = storeLink(context.publicUrl, '/reset-password', { email: to.email, token });
  return compose(context, to.email, {
    subject: `Reset your ${STORE_NAME} password`,
    greeting: `Hi ${to.username},`,
    paragraphs: ['We received a request to reset the password of your account. Choose a new one here:'],
    button: { label: 'Choose a new password', href: link },
    after: [`The link is valid for ${RESET_TOKEN_TTL_MINUTES} minutes and works once. If you did not ask for it, ignore this email: your password stays as it is.`],
  });
}

/** The notice after a password change or reset, so an owner learns of a change they did not make. */
export function passwordChangedMail(context: MailContext, to: { email: string; username: string }): MailMessage {
  return compose(context, to.email, {
    subject: `Your ${STORE_NAME} password was changed`,
    greeting: `Hi ${to.username},`,
    paragraphs: ['The password of your account has just been changed, and every other signed-in device has been signed out.'],
    after: [`If you did not do this, reset your password at once and write to us at ${context.supportEmail}.`],
  });
}

/** The notice after an account was deleted, to its former address, so an owner learns of a deletion they did not make. */
export function accountDeletedMail(context: MailContext, to: { email: string; username: string }): MailMessage {
  return compose(context, to.email, {
    subject: `Your ${STORE_NAME} account was deleted`,
    greeting: `Hi ${to.username},`,
    paragraphs: ['Your account has just been deleted, and every device has been signed out. Your past orders are kept without your name for our accounts.'],
    after: [`If you did not do this, write to us at once at ${context.supportEmail}.`],
  });
}

interface MailContent {
  subject: string;
  greeting: string;
  paragraphs: string[];
  code?: string;
  button?: { label: string; href: string };
  after: string[];
}

function compose(context: MailContext, to: string, content: MailContent): MailMessage {
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
  return { to, subject: content.subject, text, html: layout(context, content) };
}

function layout(context: MailContext, content: MailContent): string {
  const code = content.code
    ? `<p style="margin:0 0 16px;font-size:32px;font-weight:700;letter-spacing:8px;font-family:Consolas,monospace">${escapeHtml(content.code)}</p>`
    : '';
  const button = content.button
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(content.button.href)}" style="display:inline-block;padding:12px 20px;background:#6c5ce7;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">${escapeHtml(content.button.label)}</a></p>
<p style="margin:0 0 16px;font-size:12px;color:#666666">Or open this address: <a href="${escapeHtml(content.button.href)}" style="color:#6c5ce7;word-break:break-all">${escapeHtml(content.button.href)}</a></p>`
    : '';
  return mailFrame(
    context,
    content.subject,
    `${content.paragraphs.map(paragraphHtml).join('\n')}
${code}${button}
${content.after.map(paragraphHtml).join('\n')}`,
    content.greeting,
  );
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
