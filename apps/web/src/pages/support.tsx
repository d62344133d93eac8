export { SupportPage as default } from '../features/support/support-page.tsx';
