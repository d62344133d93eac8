export { LibraryPage as default } from '../features/library/library-page.tsx';
// The order page of a receipt's link (issue 29) shares the library's chunk until the contract's page table gives it a page (app/router.tsx).
export { OrderPage } from '../features/library/order-page.tsx';
