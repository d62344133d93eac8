// What other modules may use of the supplier module (eslint.config.js lets them import only this file).
export type { Supplier, SupplierKey, SupplierOrderLine, SupplierProduct } from './supplier.ts';
export { SupplierPriceRefused } from './supplier.ts';
