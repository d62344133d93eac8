export { PayPage as default } from '../features/payment/pay-page.tsx';
