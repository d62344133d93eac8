// Rate limits of the account API. Sized for a real shop: generous enough for a household or an
// office behind one address (and for the browser journeys, which all come from 127.0.0.1), tight
// enough that guessing passwords or codes, or mailing strangers, goes nowhere. Codes also die after
// 5 wrong tries and resends wait 30 s, so these limits are the outer fence.
import { accountMessages, RESEND_LOCK_SECONDS } from '@keystore/contract';
import { TooManyRequests } from '../../platform/errors.ts';
import type { RateLimiter, RateRule } from '../../platform/rate-limit.ts';

const MINUTE = 60;

export const AUTH_LIMITS = {
  /** Password guesses against one account, from anywhere. */
  loginPerAccount: { name: 'login-account', limit: 10, windowSeconds: 15 * MINUTE },
  /** Password guesses from one address, across accounts. */
  loginPerIp: { name: 'login-ip', limit: 60, windowSeconds: 15 * MINUTE },
  registerPerIp: { name: 'register-ip', limit: 30, windowSeconds: 60 * MINUTE },
  /** The sign-up form checks availability as the visitor types. */
  checksPerIp: { name: 'check-ip', limit: 300, windowSeconds: 15 * MINUTE },
  forgotPerIp: { name: 'forgot-ip', limit: 20, windowSeconds: 15 * MINUTE },
  forgotPerEmail: { name: 'forgot-email', limit: 5, windowSeconds: 60 * MINUTE },
  resendPerIp: { name: 'resend-ip', limit: 20, windowSeconds: 15 * MINUTE },
  /**
   * The 30-second resend lock, per normalised e-mail and whether or not an account has it: a lock
   * kept on the account's last code answered 429 only for real accounts, which told who is one.
   */
  resendVerificationLock: { name: 'resend-lock-verify-email', limit: 1, windowSeconds: RESEND_LOCK_SECONDS },
  resendNewDeviceLock: { name: 'resend-lock-new-device', limit: 1, windowSeconds: RESEND_LOCK_SECONDS },
  /** Code and reset-token attempts from one address. */
  verifyPerIp: { name: 'verify-ip', limit: 60, windowSeconds: 15 * MINUTE },
} as const satisfies Record<string, RateRule>;

/** Counts the call under each rule; the first rule over its limit answers 429 with Retry-After. */
export async function enforce(limiter: RateLimiter, ...checks: Array<[rule: RateRule, subject: string]>): Promise<void> {
  const verdicts = await Promise.all(checks.map(([rule, subject]) => limiter.hit(rule, subject)));
  for (const verdict of verdicts) {
    if (!verdict.allowed) throw new TooManyRequests(accountMessages.tooManyRequests(verdict.retryAfterSeconds), verdict.retryAfterSeconds);
  }
}

/** Takes the resend lock of `email` under `rule`; while it is held, 429 with the seconds left. */
export async function holdResendLock(limiter: RateLimiter, rule: RateRule, email: string): Promise<void> {
  const verdict = await limiter.hit(rule, email);
  if (!verdict.allowed) throw new TooManyRequests(accountMessages.resendTooSoon(verdict.retryAfterSeconds), verdict.retryAfterSeconds);
}
