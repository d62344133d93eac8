// The support form's and the chat's rules (SPEC §5), written once: the support page calls them as
// react-hook-form validators, the server's zod schemas (support.ts) through `ruled`. The e-mail
// follows the shared rule of rules.ts. No zod here, so the web bundle stays small.
import { SUPPORT_MESSAGE_MAX_LENGTH, SUPPORT_NAME_MAX_LENGTH, SUPPORT_TITLE_MAX_LENGTH } from './constants.ts';
import { supportMessages as m } from './messages.ts';
import type { Problem } from './rules.ts';

/** The sender's name: required, at most 100 characters. */
export function supportNameProblem(raw: string): Problem {
  const name = raw.trim();
  if (!name) return m.nameRequired;
  if (name.length > SUPPORT_NAME_MAX_LENGTH) return m.nameTooLong;
  return undefined;
}

/** The title of the message: required, at most 150 characters. */
export function supportTitleProblem(raw: string): Problem {
  const title = raw.trim();
  if (!title) return m.titleRequired;
  if (title.length > SUPPORT_TITLE_MAX_LENGTH) return m.titleTooLong;
  return undefined;
}

/** A support or chat message: required, at most 450 characters (SPEC §9). */
export function supportMessageProblem(raw: string): Problem {
  const message = raw.trim();
  if (!message) return m.messageRequired;
  if (message.length > SUPPORT_MESSAGE_MAX_LENGTH) return m.messageTooLong;
  return undefined;
}

/** Who speaks in the support chat (SPEC §3). */
export const CHAT_SENDERS = ['user', 'bot'] as const;
