// The security mails (issue 30): one for each change of how an account signs in, each with a way
// out for an owner who did not make it.
import { securityEventTitles, type SecurityEvent } from '@keystore/contract';
import type { MailMessage } from '../mailer.ts';
import { compose, STORE_NAME, storeLink, type MailContext } from './layout.ts';

const WHAT_HAPPENED: Record<SecurityEvent, string> = {
  'new-device': 'Someone signed in to your account from a device it had not used before.',
  'password-changed': 'The password of your account has just been changed, and every other signed-in device has been signed out.',
  'totp-enabled': 'An authenticator app was set up for your account: signing in now asks for its code.',
  'totp-disabled': 'The authenticator app of your account was turned off: signing in no longer asks for its code.',
  'passkey-added': 'A passkey was added to your account: it can sign in without your password.',
  'passkey-removed': 'A passkey was removed from your account.',
  'recovery-code-used': 'A recovery code was used to sign in to your account instead of the authenticator app. It will not work again.',
  'recovery-codes-regenerated': 'New recovery codes were made for your account. The old ones no longer work.',
  'api-key-created': 'A new API key was created for your seller account.',
  'api-key-deleted': 'An API key of your seller account was deleted.',
  'webhook-changed': 'The webhook address of your seller account was changed.',
  'webhook-secret-rotated': 'The webhook signing secret of your seller account was replaced.',
  'sessions-revoked': 'Devices signed in to your account were signed out.',
};

/** Where and with what a change was made, as the mail tells it. */
export interface SecurityEventOrigin {
  ip: string | null;
  device: string | null;
  at: Date;
}

/** The notice of a security change, with "This wasn't me" leading to the password reset. */
export function securityEventMail(context: MailContext, to: { email: string; username: string }, event: SecurityEvent, origin: SecurityEventOrigin): MailMessage {
  const where = [origin.device, origin.ip ? `IP address ${origin.ip}` : null, origin.at.toUTCString()].filter(Boolean).join(', ');
  return compose(context, to.email, {
    subject: `${STORE_NAME}: ${securityEventTitles[event]}`,
    greeting: `Hi ${to.username},`,
    paragraphs: [WHAT_HAPPENED[event], `When and where: ${where}.`, 'If this was you, there is nothing to do.'],
    button: { label: "This wasn't me", href: storeLink(context.publicUrl, '/reset-password', { email: to.email }) },
    after: [`If it was not you, choose a new password at once with the button above: it signs out every device. Then write to us at ${context.supportEmail}.`],
  });
}
