export { GiftPage as default } from '../features/library/gift-page.tsx';
