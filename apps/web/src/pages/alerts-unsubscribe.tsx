export { UnsubscribePage as default } from '../features/wishlist/unsubscribe-page.tsx';
