export { StorePage as default } from '../features/store/store-page.tsx';
