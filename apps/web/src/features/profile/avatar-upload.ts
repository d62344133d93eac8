import type { User } from '@keystore/contract';
import { accountUiMessages as m } from '@keystore/contract/messages';
import { ApiError, apiSend } from '../../lib/api.ts';

/** Sends the chosen image as the `avatar` field; the server answers the updated user. */
export function uploadAvatar(file: File): Promise<User> {
  const form = new FormData();
  form.append('avatar', file);
  return apiSend<User>('PUT', '/api/users/profile', form);
}

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
