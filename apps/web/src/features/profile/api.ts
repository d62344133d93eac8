import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordRequest, DeleteAccountRequest, MessageAnswer, User } from '@keystore/contract';
import { apiGet, apiSend } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { updateUser } from '../../lib/session.ts';

// The profile's calls (SPEC §7, users). The orders of its history are lib/orders.ts' orderQuery.

/** The signed-in customer's profile (GET /api/users/profile), fetched afresh each time the page opens. */
export function profileQuery(token: string) {
  return queryOptions({ queryKey: [...queryKeys.profile, token], queryFn: () => apiGet<User>('/api/users/profile'), staleTime: 0, retry: false });
}

/** Uploads a new profile photo (PUT /api/users/profile, the `avatar` field); the new photo shows everywhere at once. */
export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('avatar', file);
      return apiSend<User, FormData>('PUT', '/api/users/profile', form);
    },
    // The answer is the updated user: the session and the profile take it as it is, without asking again.
    onSuccess: (user) => {
      updateUser(user);
      queryClient.setQueriesData<User>({ queryKey: queryKeys.profile }, user);
    },
  });
}

/** Changes the password (PUT /api/users/password); the server also ends the other sessions. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (request: ChangePasswordRequest) => apiSend<MessageAnswer, ChangePasswordRequest>('PUT', '/api/users/password', request),
  });
}

/**
 * Deletes the account (DELETE /api/users/profile, confirmed with the password); the server may answer
 * without a body. The caller leaves the page and then forgets the session (clearSession): every query
 * of the account is keyed by its token, so nothing fetched for it is shown again.
 */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (request: DeleteAccountRequest) => apiSend<MessageAnswer | undefined, DeleteAccountRequest>('DELETE', '/api/users/profile', request),
  });
}
