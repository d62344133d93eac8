export { ConfirmEmailPage as default } from '../features/auth/confirm-email-page.tsx';
