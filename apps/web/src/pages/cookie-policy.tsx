export { CookiePolicyPage as default } from '../features/legal/cookie-policy-page.tsx';
