export { OrderPage as default } from '../features/library/order-page.tsx';
