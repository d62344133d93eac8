// What no text sent to the store may contain (issue 12), written once for every field of every
// request: control characters other than tab and line breaks (PostgreSQL refuses NUL outright, and
// XML, so the SVG covers, refuses the rest) and lone UTF-16 surrogates, which are not Unicode at all.
// No zod here, so a web form can use it too.
import { requestMessages } from './messages.ts';
import type { Problem } from './rules.ts';

// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a text holds a character no field takes. */
export function hasUnsafeCharacters(text: string): boolean {
  return CONTROL_CHARACTER.test(text) || LONE_SURROGATE.test(text);
}

export function unsafeTextProblem(text: string): Problem {
  return hasUnsafeCharacters(text) ? requestMessages.unsafeText : undefined;
}

/** The shape of every id the server gives (apps/server/src/platform/ids.ts): 16 to 24 lowercase letters and digits. */
export const ID_PATTERN = /^[0-9a-z]{16,24}$/;
