// The account e-mails: sign-up and new-device codes, the reset link, and the notices after a
// password change or an account deletion.
import { CODE_TTL_MINUTES, RESET_TOKEN_TTL_MINUTES } from '@keystore/contract';
import type { MailMessage } from '../mailer.ts';
import { compose, STORE_NAME, storeLink, type MailContext } from './layout.ts';

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
