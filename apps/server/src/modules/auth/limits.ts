// Rate limits of the account API (docs/decisions/016-abuse-limits.md). Sized for a real shop:
// generous enough for a household or an office behind one address (and for the browser journeys,
// which all come from 127.0.0.1), tight enough that guessing passwords or codes, or mailing
// strangers, goes nowhere. Codes also die after 5 wrong tries, so these limits are the outer fence.
import { accountMessages, RESEND_LOCK_SECONDS } from '@keystore/contract';
import { addressKey, type LimitRule, type Limits } from '../../platform/limits.ts';

const MINUTE = 60;

export const AUTH_LIMITS = {
  /** Sign-in attempts from one address, across accounts: the attacker's budget, strict whoever they aim at. */
  loginPerIp: { name: 'login-ip', limit: 60, windowSeconds: 15 * MINUTE },
  /**
   * Wrong passwords for one account from addresses it has not proved (see LoginThrottle): past
   * this, those addresses no longer learn whether a password was right.
   */
  loginFailuresPerAccount: { name: 'login-fail-account', limit: 10, windowSeconds: 15 * MINUTE },
  /** A run of wrong passwords for one account from one address; past 5, each costs a doubling wait. */
  loginFailuresPerPair: { name: 'login-fail-pair', limit: 1000, windowSeconds: 60 * MINUTE },
  loginWait: { name: 'login-wait', limit: 1, windowSeconds: 15 * MINUTE },
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
  resendVerificationLock: { name: 'resend-lock-verify-email', limit: 1, windowSeconds: RESEND_LOCK_SECONDS, message: accountMessages.resendTooSoon },
  resendNewDeviceLock: { name: 'resend-lock-new-device', limit: 1, windowSeconds: RESEND_LOCK_SECONDS, message: accountMessages.resendTooSoon },
  /**
   * Second-step codes (the authenticator app's, recovery codes) tried for one account, from any
   * address: past this, the account's second step waits, whoever asks (each challenge also dies after 5).
   */
  secondStepFailuresPerAccount: { name: 'second-step-fail-account', limit: 15, windowSeconds: 15 * MINUTE },
  /** Second-step codes tried for one account from one address. */
  secondStepFailuresPerPair: { name: 'second-step-fail-pair', limit: 8, windowSeconds: 15 * MINUTE },
  /**
   * Passkey sign-in ceremonies from one address: the login dialog asks for one each time it opens
   * (the browser offers passkeys among the e-mail field's suggestions), so as generous as the checks.
   */
  passkeyPerIp: { name: 'passkey-ip', limit: 300, windowSeconds: 15 * MINUTE },
  /** Code and reset-token attempts from one address. */
  verifyPerIp: { name: 'verify-ip', limit: 60, windowSeconds: 15 * MINUTE },
} as const satisfies Record<string, LimitRule>;

/** Wrong passwords in a row from one address before each further one makes it wait. */
export const FREE_WRONG_PASSWORDS = 5;
/** The longest wait, however long the run. */
const MAX_LOGIN_WAIT_SECONDS = 15 * MINUTE;

/** The wait after the `run`-th wrong password in a row: none for the first five, then 1 s, 2 s, 4 s … up to 15 minutes. */
function loginWaitSeconds(run: number): number {
  return run < FREE_WRONG_PASSWORDS ? 0 : Math.min(2 ** (run - FREE_WRONG_PASSWORDS), MAX_LOGIN_WAIT_SECONDS);
}

/**
 * Throttles password guessing without letting anyone lock the owner out (ASVS 6.3, OWASP's
 * "throttle the attacker, not the owner"):
 * - one address's run of wrong passwords for one account earns doubling waits, and a right
 *   password ends the run;
 * - wrong passwords from addresses the account has not proved are counted per account; past the
 *   limit, such an address gets the new-device answer whatever the password (a code is mailed only
 *   when it was right), so guessing learns nothing, while the owner still signs in: at once from a
 *   proved address, with the e-mailed code (the second factor) from any other.
 * The per-address limit on every attempt stays strict (a route limit).
 */
export class LoginThrottle {
  private readonly limits: Limits;

  constructor(limits: Limits) {
    this.limits = limits;
  }

  /** Before the password is checked: 429 while this address waits after a run of wrong ones. */
  async admit(email: string, ip: string): Promise<void> {
    await this.limits.assertAllowed(AUTH_LIMITS.loginWait, pair(email, ip));
  }

  /** Whether this account is being guessed at from unproved addresses past its limit. */
  async underAttack(email: string): Promise<boolean> {
    return !(await this.limits.peek(AUTH_LIMITS.loginFailuresPerAccount, email)).allowed;
  }

  async failed(email: string, ip: string, provedAddress: boolean): Promise<void> {
    const key = pair(email, ip);
    const { count } = await this.limits.hit(AUTH_LIMITS.loginFailuresPerPair, key);
    const wait = loginWaitSeconds(count);
    await Promise.all([
      wait > 0 ? this.limits.block(AUTH_LIMITS.loginWait, key, wait) : undefined,
      provedAddress ? undefined : this.limits.hit(AUTH_LIMITS.loginFailuresPerAccount, email),
    ]);
  }

  /**
   * Counts a second-step try before its code is checked: 429 once the account, or this address for
   * it, tried too many. A decoy's tries (a hidden wrong password) count for the address only.
   */
  async secondStepTry(userId: string, ip: string, { decoy }: { decoy: boolean }): Promise<void> {
    await this.limits.enforce([AUTH_LIMITS.secondStepFailuresPerPair, pair(userId, ip)], ...(decoy ? [] : [[AUTH_LIMITS.secondStepFailuresPerAccount, userId] as [LimitRule, string]]));
  }

  async succeeded(email: string, ip: string): Promise<void> {
    await this.limits.forget(AUTH_LIMITS.loginFailuresPerPair, pair(email, ip));
  }
}

function pair(email: string, ip: string): string {
  return `${email}|${addressKey(ip)}`;
}
