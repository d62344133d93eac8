// The authenticator app's codes (RFC 6238) through @epic-web/totp: the settings every app reads from
// an otpauth:// URI (SHA-1, 6 digits, 30 seconds), a secret of 160 bits (RFC 4226's advice), and a
// check that answers the time step a code was made for, so the caller can accept each code once.
import { randomBytes } from 'node:crypto';
import { getTOTPAuthUri, verifyTOTP } from '@epic-web/totp';
import base32Encode from 'base32-encode';
import QRCode from 'qrcode';

const PERIOD_SECONDS = 30;
const DIGITS = 6;
const ALGORITHM = 'SHA-1';
/** One step either side of now: a phone's clock a little off still works (RFC 6238 §5.2). */
const DRIFT_STEPS = 1;

/** A new secret in base32, as the apps take it. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20), 'RFC4648', { padding: false });
}

/** The otpauth:// URI an app scans, and the same as an SVG QR code. */
export async function totpEnrolment(secret: string, accountName: string, issuer: string): Promise<{ otpauthUri: string; qrSvg: string }> {
  const otpauthUri = getTOTPAuthUri({ secret, accountName, issuer, period: PERIOD_SECONDS, digits: DIGITS, algorithm: ALGORITHM });
  const qrSvg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUri, qrSvg };
}

/**
 * The time step `code` was made for, when it is right within the drift window at `now`; undefined
 * otherwise. Accepting a code only for a step later than the last one accepted makes it single use.
 */
export async function totpStepOf(secret: string, code: string): Promise<number | undefined> {
  // The library reads the clock itself: a check that straddles a step's end could name the step one
  // too low (and the code pass twice), so such a check is refused; the person types the next code.
  const before = Math.floor(Date.now() / 1000 / PERIOD_SECONDS);
  const result = await verifyTOTP({ otp: code, secret, period: PERIOD_SECONDS, digits: DIGITS, algorithm: ALGORITHM, window: DRIFT_STEPS });
  const after = Math.floor(Date.now() / 1000 / PERIOD_SECONDS);
  return result && before === after ? before + result.delta : undefined;
}
