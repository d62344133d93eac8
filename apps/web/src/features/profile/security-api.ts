import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import type {
  ApiKey,
  IdentityConfirmation,
  MessageAnswer,
  PasskeyOptions,
  PasskeyRegistrationRequest,
  PasswordAndCodeRequest,
  PasswordConfirmation,
  RecoveryCodes,
  RevokeOthersRequest,
  SecurityOverview,
  SignedInDevice,
  TotpCodeRequest,
  TotpSetup,
} from '@keystore/contract';
import { apiGet, apiSend } from '../../lib/api.ts';

// The profile's Security section (issue 30): the second factors (/api/auth/security, totp, recovery
// codes, passkeys) and the signed-in devices (/api/auth/sessions). Keyed by the session's token.

export function securityQuery(token: string) {
  return queryOptions({ queryKey: ['security', token], queryFn: () => apiGet<SecurityOverview>('/api/auth/security'), retry: false });
}

/** The seller's API keys (never the keys): a customer who is not a seller gets a 404 and sees nothing of it. */
export function sellerApiKeysQuery(token: string) {
  return queryOptions({ queryKey: ['seller-api-keys', token], queryFn: () => apiGet<ApiKey[]>('/api/seller/api-keys'), retry: false });
}

export function devicesQuery(token: string) {
  return queryOptions({ queryKey: ['devices', token], queryFn: () => apiGet<SignedInDevice[]>('/api/auth/sessions'), retry: false });
}

/** A mutation that shows its change at once: the Security section's data is read again afterwards. */
function useSecurityMutation<Answer, Variables>(mutationFn: (variables: Variables) => Promise<Answer>, key: 'security' | 'devices' = 'security') {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: [key] }) });
}

export const useTotpSetup = () => useMutation({ mutationFn: (body: PasswordConfirmation) => apiSend<TotpSetup, PasswordConfirmation>('POST', '/api/auth/totp/setup', body) });
export const useEnableTotp = () => useSecurityMutation((body: TotpCodeRequest) => apiSend<RecoveryCodes, TotpCodeRequest>('POST', '/api/auth/totp/enable', body));
export const useDisableTotp = () => useSecurityMutation((body: PasswordAndCodeRequest) => apiSend<MessageAnswer, PasswordAndCodeRequest>('POST', '/api/auth/totp/disable', body));
export const useNewRecoveryCodes = () =>
  useSecurityMutation((body: PasswordAndCodeRequest) => apiSend<RecoveryCodes, PasswordAndCodeRequest>('POST', '/api/auth/recovery-codes', body));

/** Adds a passkey: the store's options (behind the password), the browser's passkey prompt, then the store keeps it under `name`. */
export const useAddPasskey = () =>
  useSecurityMutation(async ({ name, password, code }: { name: string; password: string; code?: string }) => {
    const { challengeId, options } = await apiSend<PasskeyOptions, IdentityConfirmation>('POST', '/api/auth/passkeys/options', code ? { password, code } : { password });
    const { startRegistration } = await import('@simplewebauthn/browser');
    const credential = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
    return apiSend<MessageAnswer, PasskeyRegistrationRequest>('POST', '/api/auth/passkeys', { challengeId, name, credential: credential as never });
  });

export const useRemovePasskey = () => useSecurityMutation((id: string) => apiSend<undefined>('DELETE', `/api/auth/passkeys/${encodeURIComponent(id)}`));

export const useSignOutDevice = () => useSecurityMutation((id: string) => apiSend<undefined>('DELETE', `/api/auth/sessions/${encodeURIComponent(id)}`), 'devices');
export function useSignOutOthers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RevokeOthersRequest) => apiSend<MessageAnswer, RevokeOthersRequest>('POST', '/api/auth/sessions/revoke-others', body),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['devices'] }), queryClient.invalidateQueries({ queryKey: ['seller-api-keys'] })]),
  });
}
