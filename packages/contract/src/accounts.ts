// Requests and answers of /api/auth and /api/users (SPEC §7, DESIGN §4). The field rules come from
// rules.ts, so the server answers exactly the messages the dialogs show.
import { z } from 'zod';
import { EMAIL_MAX_LENGTH, MEMBERSHIP_TIERS, ROLES } from './constants.ts';
import { ruled, safeText } from './fields.ts';
import { SECOND_STEP_METHODS } from './security-rules.ts';
import { validationMessages as m } from './messages.ts';
import {
  codeProblem,
  emailProblem,
  newPasswordProblem,
  normalizeEmail,
  passwordProblem,
  resetPasswordProblem,
  usernameProblem,
} from './rules.ts';

/** How long a password typed to log in may be: longer than any the rules allow, so an old password still gets its answer. */
const TYPED_PASSWORD_MAX_LENGTH = 1024;

/** An e-mail as the user typed it: checked by the shared rule, then lowercased. */
export const emailField = ruled(emailProblem, m.emailRequired).transform(normalizeEmail);
/** An e-mail that is only looked up (login, resend): lowercased, no provider check, so nobody is locked out. */
const lookupEmailField = safeText(m.emailRequired).min(1, m.emailRequired).max(EMAIL_MAX_LENGTH, m.emailFormat).transform(normalizeEmail);
const usernameField = ruled(usernameProblem, m.usernameRequired).transform((value) => value.trim());
const codeField = ruled(codeProblem, m.codeIncomplete);

export const messageSchema = z.object({ message: z.string() }).meta({ id: 'Message' });
export type MessageAnswer = z.infer<typeof messageSchema>;

/** One line of the order history (SPEC §3, purchase history entry). */
export const purchaseHistoryEntrySchema = z
  .object({
    _id: z.string(),
    items: z.string(),
    image: z.string(),
    date: z.string(),
    status: z.string(),
    deliveryStatus: z.string(),
    currency: z.string(),
    amount: z.number(),
  })
  .meta({ id: 'PurchaseHistoryEntry' });
export type PurchaseHistoryEntry = z.infer<typeof purchaseHistoryEntrySchema>;

/** The signed-in user as the profile and the login answer show it. */
export const userSchema = z
  .object({
    _id: z.string(),
    username: z.string(),
    email: z.string(),
    avatar: z.string().nullable(),
    role: z.enum(ROLES),
    createdAt: z.string(),
    totalSpent: z.number(),
    totalGames: z.number().int(),
    membership: z.enum(MEMBERSHIP_TIERS.map((tier) => tier.name) as [string, ...string[]]),
    purchaseHistory: z.array(purchaseHistoryEntrySchema),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

export const registerRequestSchema = z.object({ username: usernameField, email: emailField, password: ruled(passwordProblem, m.passwordRequired) });
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const loginRequestSchema = z.object({ email: lookupEmailField, password: safeText(m.passwordRequired).min(1, m.passwordRequired).max(TYPED_PASSWORD_MAX_LENGTH, m.passwordTooLong) });
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const sessionSchema = z.object({ token: z.string(), user: userSchema }).meta({ id: 'Session' });
export type Session = z.infer<typeof sessionSchema>;
/**
 * A sign-in that needs a second step (issue 30): `method` says which. `email`: a code was e-mailed (a
 * new device); `totp`: the authenticator app's code or a recovery code, sent with `challenge` to
 * /api/auth/login/totp; `setup`: the account's role requires a second factor it does not have yet,
 * set up with `challenge` before anything else.
 */
export const twoFactorSchema = z
  .object({ twoFactorRequired: z.literal(true), method: z.enum(SECOND_STEP_METHODS), message: z.string(), challenge: z.string().optional() })
  .meta({ id: 'TwoFactorRequired' });
export const loginAnswerSchema = z.union([sessionSchema, twoFactorSchema]);
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;

export const checkUsernameRequestSchema = z.object({ username: usernameField });
export const checkEmailRequestSchema = z.object({ email: emailField });
export type CheckUsernameRequest = z.input<typeof checkUsernameRequestSchema>;
export type CheckEmailRequest = z.input<typeof checkEmailRequestSchema>;
export const availabilitySchema = z.object({ available: z.boolean() }).meta({ id: 'Availability' });
export type Availability = z.infer<typeof availabilitySchema>;

export const emailCodeRequestSchema = z.object({ email: lookupEmailField, code: codeField });
export type EmailCodeRequest = z.input<typeof emailCodeRequestSchema>;
/** The /confirm-email page: its own messages for a link that lacks a part (SPEC §5). */
export const emailLinkRequestSchema = z.object({
  email: safeText(m.linkEmailMissing).min(1, m.linkEmailMissing).max(EMAIL_MAX_LENGTH, m.emailFormat).transform(normalizeEmail),
  code: safeText(m.linkCodeMissing).min(1, m.linkCodeMissing).max(64, m.codeIncomplete),
});
export type EmailLinkRequest = z.input<typeof emailLinkRequestSchema>;
export const linkVerificationSchema = z.object({ success: z.literal(true), message: z.string() }).meta({ id: 'LinkVerification' });
export type LinkVerification = z.infer<typeof linkVerificationSchema>;

export const emailRequestSchema = z.object({ email: lookupEmailField });
export type EmailRequest = z.input<typeof emailRequestSchema>;
export const forgotPasswordRequestSchema = z.object({ email: emailField });
export type ForgotPasswordRequest = z.input<typeof forgotPasswordRequestSchema>;

export const resetPasswordRequestSchema = z.object({
  email: lookupEmailField,
  token: safeText(m.tokenRequired).min(1, m.tokenRequired).max(200, m.tokenRequired),
  password: ruled(resetPasswordProblem, m.resetPasswordRules),
});
export type ResetPasswordRequest = z.input<typeof resetPasswordRequestSchema>;

/** The password the signed-in owner types again to confirm a change only they should make. */
const currentPasswordField = safeText(m.currentPasswordRequired).min(1, m.currentPasswordRequired).max(TYPED_PASSWORD_MAX_LENGTH, m.passwordTooLong);

export const changePasswordRequestSchema = z.object({
  currentPassword: currentPasswordField,
  newPassword: ruled(newPasswordProblem, m.newPasswordRequired),
  /** Also delete the account's seller API keys (issue 30): a thief who had the password may have made one. */
  revokeApiKeys: z.boolean().optional(),
});
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;

/** Deleting the account asks for the password: a stolen token alone cannot erase it. */
export const deleteAccountRequestSchema = z.object({ currentPassword: currentPasswordField });
export type DeleteAccountRequest = z.input<typeof deleteAccountRequestSchema>;
