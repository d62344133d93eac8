import { queryOptions, useMutation } from '@tanstack/react-query';
import type {
  Availability,
  CheckEmailRequest,
  CheckUsernameRequest,
  EmailCodeRequest,
  EmailLinkRequest,
  EmailRequest,
  ForgotPasswordRequest,
  LinkVerification,
  LoginAnswer,
  PasskeyLoginRequest,
  PasskeyOptions,
  TotpLoginRequest,
  LoginRequest,
  MessageAnswer,
  RegisterRequest,
  ResetPasswordRequest,
  Session,
} from '@keystore/contract';
import { normalizeEmail } from '@keystore/contract/rules';
import { apiSend } from '../../lib/api.ts';

// The /api/auth calls of SPEC §7, each body typed by the contract, and the mutations the dialogs use.
// E-mails are lowercased before sending (SPEC §5). Signing in changes no query: every query of an
// account is keyed by its token (lib/session.ts).

const login = (email: string, password: string) =>
  apiSend<LoginAnswer, LoginRequest>('POST', '/api/auth/login', { email: normalizeEmail(email), password });

const register = (username: string, email: string, password: string) =>
  apiSend<MessageAnswer, RegisterRequest>('POST', '/api/auth/register', { username: username.trim(), email: normalizeEmail(email), password });

/** Whether a username (an e-mail) is still free; the sign-up form asks while typing pauses (use-availability.ts). */
export const usernameAvailability = (username: string) =>
  apiSend<Availability, CheckUsernameRequest>('POST', '/api/auth/check-username', { username });

export const emailAvailability = (email: string) => apiSend<Availability, CheckEmailRequest>('POST', '/api/auth/check-email', { email });

const verifyEmail = (email: string, code: string) =>
  apiSend<MessageAnswer, EmailCodeRequest>('POST', '/api/auth/verify-email', { email: normalizeEmail(email), code });

const verifyEmailFromLink = (email: string, code: string) =>
  apiSend<LinkVerification, EmailLinkRequest>('POST', '/api/auth/verify-email-from-link', { email: normalizeEmail(email), code });

const resendVerification = (email: string) =>
  apiSend<MessageAnswer, EmailRequest>('POST', '/api/auth/resend-verification', { email: normalizeEmail(email) });

const verifyNewDevice = (email: string, code: string) =>
  apiSend<LoginAnswer, EmailCodeRequest>('POST', '/api/auth/verify-new-device', { email: normalizeEmail(email), code });

const resendNewDeviceCode = (email: string) =>
  apiSend<MessageAnswer, EmailRequest>('POST', '/api/auth/resend-new-device-code', { email: normalizeEmail(email) });

const loginWithTotp = (request: TotpLoginRequest) => apiSend<Session, TotpLoginRequest>('POST', '/api/auth/login/totp', request);

/** The options of a passkey sign-in: a single-use challenge any of the store's passkeys may sign. */
export const passkeyLoginOptions = () => apiSend<PasskeyOptions>('POST', '/api/auth/login/passkey/options');

export const loginWithPasskey = (request: PasskeyLoginRequest) => apiSend<Session, PasskeyLoginRequest>('POST', '/api/auth/login/passkey', request);

const forgotPassword = (email: string) =>
  apiSend<MessageAnswer, ForgotPasswordRequest>('POST', '/api/auth/forgot-password', { email: normalizeEmail(email) });

const resetPassword = (email: string, token: string, password: string) =>
  apiSend<MessageAnswer, ResetPasswordRequest>('POST', '/api/auth/reset-password', { email: normalizeEmail(email), token, password });

/**
 * The /confirm-email link's verification, as a query rather than a mutation: the code is single use,
 * and the query runs once per link even when React mounts the page twice (StrictMode) or the user
 * comes back to it.
 */
export function verifyEmailLinkQuery(email: string, code: string) {
  return queryOptions({
    queryKey: ['verify-email-link', email, code],
    queryFn: () => verifyEmailFromLink(email, code),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

export function useLogin() {
  return useMutation({ mutationFn: ({ email, password }: LoginRequest) => login(email, password) });
}

export function useRegister() {
  return useMutation({ mutationFn: ({ username, email, password }: RegisterRequest) => register(username, email, password) });
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: ({ email, code }: EmailCodeRequest) => verifyEmail(email, code) });
}

export function useResendVerification() {
  return useMutation({ mutationFn: (email: string) => resendVerification(email) });
}

export function useVerifyNewDevice() {
  return useMutation({ mutationFn: ({ email, code }: EmailCodeRequest) => verifyNewDevice(email, code) });
}

export function useResendNewDeviceCode() {
  return useMutation({ mutationFn: (email: string) => resendNewDeviceCode(email) });
}

export function useLoginWithTotp() {
  return useMutation({ mutationFn: loginWithTotp });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: (email: string) => forgotPassword(email) });
}

export function useResetPassword() {
  return useMutation({ mutationFn: ({ email, token, password }: ResetPasswordRequest) => resetPassword(email, token, password) });
}
