import type { Availability, LoginAnswer, MessageAnswer, Session } from '@keystore/contract';
import { normalizeEmail } from '@keystore/contract/rules';
import { apiSend } from '../../lib/api.ts';

// The /api/auth calls of SPEC §7. E-mails are lowercased before sending (SPEC §5).

export const login = (email: string, password: string) => apiSend<LoginAnswer>('POST', '/api/auth/login', { email: normalizeEmail(email), password });

export const register = (username: string, email: string, password: string) =>
  apiSend<MessageAnswer>('POST', '/api/auth/register', { username: username.trim(), email: normalizeEmail(email), password });

export const usernameAvailability = (username: string) => apiSend<Availability>('POST', '/api/auth/check-username', { username });

export const emailAvailability = (email: string) => apiSend<Availability>('POST', '/api/auth/check-email', { email });

export const verifyEmail = (email: string, code: string) => apiSend<MessageAnswer>('POST', '/api/auth/verify-email', { email: normalizeEmail(email), code });

export const verifyEmailFromLink = (email: string, code: string) =>
  apiSend<{ success: boolean; message: string }>('POST', '/api/auth/verify-email-from-link', { email: normalizeEmail(email), code });

export const resendVerification = (email: string) => apiSend<MessageAnswer>('POST', '/api/auth/resend-verification', { email: normalizeEmail(email) });

export const verifyNewDevice = (email: string, code: string) => apiSend<Session>('POST', '/api/auth/verify-new-device', { email: normalizeEmail(email), code });

export const resendNewDeviceCode = (email: string) => apiSend<MessageAnswer>('POST', '/api/auth/resend-new-device-code', { email: normalizeEmail(email) });

export const forgotPassword = (email: string) => apiSend<MessageAnswer>('POST', '/api/auth/forgot-password', { email: normalizeEmail(email) });

export const resetPassword = (email: string, token: string, password: string) =>
  apiSend<MessageAnswer>('POST', '/api/auth/reset-password', { email: normalizeEmail(email), token, password });
