// The test gateway's card form rules (issue 5), written once for the pay page and the server. Like
// rules.ts, no zod here: each rule answers the first message that applies, or undefined.
import { orderMessages as m } from './messages.ts';
import type { Problem } from './rules.ts';

const CARD_NUMBER_SHAPE = /^\d{12,19}$/;
const EXPIRY_SHAPE = /^(\d{2})\s*\/\s*(\d{2})$/;
export const CARDHOLDER_NAME_MAX_LENGTH = 100;

/** The digits of a card number as typed: spaces and dashes between groups are allowed. */
export function cardDigits(raw: string): string {
  return raw.replace(/[\s-]/g, '');
}

/** The Luhn checksum every real card number passes (ISO/IEC 7812). */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardNumberProblem(raw: string): Problem {
  const digits = cardDigits(raw);
  if (!digits) return m.cardNumberRequired;
  if (!CARD_NUMBER_SHAPE.test(digits) || !passesLuhn(digits)) return m.cardNumberInvalid;
  return undefined;
}

/** MM/YY; a card is good through the last day of its month. `now` is a parameter so tests can move time. */
export function expiryProblem(raw: string, now: Date = new Date()): Problem {
  const text = raw.trim();
  if (!text) return m.expiryRequired;
  const match = EXPIRY_SHAPE.exec(text);
  const month = Number(match?.[1]);
  if (!match || month < 1 || month > 12) return m.expiryFormat;
  const year = 2000 + Number(match[2]);
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (year * 12 + (month - 1) < current) return m.expiryPast;
  return undefined;
}

export function cvcProblem(raw: string): Problem {
  return /^\d{3}$/.test(raw.trim()) ? undefined : m.cvcInvalid;
}

export function cardholderNameProblem(raw: string): Problem {
  const name = raw.trim();
  if (!name) return m.nameRequired;
  if (name.length > CARDHOLDER_NAME_MAX_LENGTH) return m.nameTooLong;
  return undefined;
}
