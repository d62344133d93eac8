export { SellerArea as default } from '../features/seller/seller-area.tsx';
