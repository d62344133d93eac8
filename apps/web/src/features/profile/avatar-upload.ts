import { accountUiMessages as m } from '@keystore/contract/messages';
import { ApiError } from '../../lib/api.ts';

/** What the status of a failed upload means to the user (SPEC §8, avatar upload). */
const BY_STATUS: Record<number, string> = {
  413: m.avatarTooLarge,
  415: m.avatarUnsupported,
  401: m.avatarLoginAgain,
};

/** 'Failed to upload avatar. ' followed by the reason: the status's text, the server's, or 'Please try again.'. */
export function avatarUploadError(error: unknown): string {
  if (!(error instanceof ApiError)) return m.avatarUploadPrefix + m.avatarTryAgain;
  const reason = BY_STATUS[error.status] ?? (error.fromServer ? error.message : m.avatarTryAgain);
  return m.avatarUploadPrefix + reason;
}
