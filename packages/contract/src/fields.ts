// The building blocks of every request schema (issue 12): text that passes the safe-text rule, a
// field checked by one of the shared rules, and ids. A request that breaks them is a 4xx at the
// schema, before any handler or database sees it.
import { z } from 'zod';
import type { Problem } from './rules.ts';
import { requestMessages } from './messages.ts';
import { hasUnsafeCharacters, ID_PATTERN } from './text-rules.ts';

/** A string without unsafe characters (text-rules.ts); `missing` is the message when it is absent or not a string. */
export function safeText(missing?: string) {
  return z
    .string(missing === undefined ? undefined : { error: missing })
    .refine((text) => !hasUnsafeCharacters(text), { message: requestMessages.unsafeText, abort: true });
}

/** A required safe string checked by one of the shared rules (rules.ts, support-rules.ts, payment-rules.ts). */
export function ruled(rule: (value: string) => Problem, missing: string) {
  return safeText(missing).superRefine((value, context) => {
    const problem = rule(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
}

/** A required safe string checked by one of the shared rules, then trimmed. */
export function trimmedRuled(rule: (value: string) => Problem, missing: string) {
  return ruled(rule, missing).transform((value) => value.trim());
}

/**
 * An id in a path. One of another shape cannot name anything, so it fails with the not-found message of
 * what it would name, and the server's error handler answers a path that fails its schema with a 404.
 */
export function idField(notFound: string) {
  return z.string({ error: notFound }).regex(ID_PATTERN, notFound);
}
