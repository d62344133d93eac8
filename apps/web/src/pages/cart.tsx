export { CartPage as default } from '../features/cart/cart-page.tsx';
