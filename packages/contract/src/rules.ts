// Every account validation rule of SPEC §5, written once. Each rule answers the first message that
// applies, or undefined when the value is fine. The dialogs call them as react-hook-form validators;
// the server's zod schemas call them through `refineWith` (accounts.ts). No zod here, so the web
// bundle stays small.
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import {
  AVATAR_MAX_BYTES,
  CODE_LENGTH,
  EMAIL_MAX_LENGTH,
  PASSPHRASE_MIN_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './constants.ts';
import { isRecognizedEmailDomain } from './email-domains.ts';
import { validationMessages as m } from './messages.ts';

export type Problem = string | undefined;

/** A simple shape: something, '@', a domain with a dot and no spaces. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** E-mails are compared and stored in lowercase (SPEC §5). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The shared e-mail rule: login, sign-up, forgot password, support. */
export function emailProblem(raw: string): Problem {
  const email = normalizeEmail(raw);
  if (!email) return m.emailRequired;
  if (!email.includes('@')) return m.emailNeedsAt;
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_SHAPE.test(email)) return m.emailFormat;
  if (!isRecognizedEmailDomain(email.slice(email.lastIndexOf('@') + 1))) return m.emailProvider;
  return undefined;
}

/** Names that would let a user pass for the shop's staff. */
export const RESERVED_USERNAMES: readonly string[] = [
  'admin', 'administrator', 'support', 'moderator', 'mod', 'staff', 'system', 'official', 'root', 'guest',
  'owner', 'master', 'superuser', 'sysadmin', 'webmaster', 'helpdesk', 'service', 'security', 'billing',
  'keystore', 'team', 'null', 'undefined', 'anonymous', 'bot',
];

const dataset = englishDataset.build();
// Innocent words the dataset's patterns would catch, common in gamer names.
const INNOCENT_WORDS = ['cockpit', 'cocktail', 'cockatoo', 'cockroach', 'cockney', 'hitchcock', 'shuttlecock', 'woodcock'];
const offensive = new RegExpMatcher({
  ...dataset,
  whitelistedTerms: [...(dataset.whitelistedTerms ?? []), ...INNOCENT_WORDS],
  ...englishRecommendedTransformers,
});

/** The username rules that need no database; availability is checked by the server. */
export function usernameProblem(raw: string): Problem {
  const username = raw.trim();
  if (!username) return m.usernameRequired;
  if (username.length < USERNAME_MIN_LENGTH) return m.usernameTooShort;
  if (username.length > USERNAME_MAX_LENGTH) return m.usernameTooLong;
  if (!/^[A-Za-z]/.test(username)) return m.usernameStart;
  if (!/^[A-Za-z0-9_.]+$/.test(username)) return m.usernameCharacters;
  const lower = username.toLowerCase();
  const reserved = RESERVED_USERNAMES.find((word) => lower === word || lower.startsWith(`${word}_`) || lower.startsWith(`${word}.`));
  if (reserved) return m.usernameReserved(reserved);
  if (offensive.hasMatch(username)) return m.usernameOffensive;
  return undefined;
}

/**
 * SPEC §5's uppercase letter, asked only of a password shorter than a passphrase: 'correct horse
 * battery staple' is strong for its length, not for its letters (decision 017).
 */
function lacksUppercase(password: string): boolean {
  return password.length < PASSPHRASE_MIN_LENGTH && !/\p{Lu}/u.test(password);
}

/**
 * Sign-up password: at least 6 characters with an uppercase letter, or a passphrase of 16 or more.
 * The server also refuses the most common passwords (apps/server/src/platform/common-passwords.ts).
 */
export function passwordProblem(password: string): Problem {
  if (!password) return m.passwordRequired;
  if (password.length < PASSWORD_MIN_LENGTH) return m.passwordTooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return m.passwordTooLong;
  if (lacksUppercase(password)) return m.passwordUppercase;
  return undefined;
}

/** The reset dialog's single message for the same rules. */
export function resetPasswordProblem(password: string): Problem {
  return passwordProblem(password) ? m.resetPasswordRules : undefined;
}

/** The profile's new password, with its own wording (SPEC §5, change password). */
export function newPasswordProblem(password: string): Problem {
  if (!password) return m.newPasswordRequired;
  if (password.length < PASSWORD_MIN_LENGTH) return m.newPasswordTooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return m.passwordTooLong;
  if (lacksUppercase(password)) return m.newPasswordUppercase;
  return undefined;
}

/** A verification code: exactly six digits. */
export function codeProblem(code: string): Problem {
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(code) ? undefined : m.codeIncomplete;
}

/** An avatar as the browser sees it before upload; the server decodes it to be sure. */
export function avatarProblem(file: { type: string; size: number }): Problem {
  if (!file.type.startsWith('image/')) return m.avatarNotImage;
  if (file.size > AVATAR_MAX_BYTES) return m.avatarTooLarge;
  return undefined;
}
