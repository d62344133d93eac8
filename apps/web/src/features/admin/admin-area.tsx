// The back office's pages and frame (issue 15), as the area's one page module (src/pages/admin.tsx)
// routes them: the whole area, charts included, is one lazy chunk the storefront never loads.
export { AdminLayout } from './admin-layout.tsx';
export { AdminDashboardPage } from './dashboard-page.tsx';
export { AdminOrdersPage } from './orders-page.tsx';
export { AdminOrderPage } from './order-page.tsx';
export { AdminUsersPage } from './users-page.tsx';
export { AdminUserPage } from './user-page.tsx';
export { AdminCataloguePage } from './catalogue-page.tsx';
export { AdminSupportPage } from './support-page.tsx';
export { AdminAuditPage } from './audit-page.tsx';
export { AdminSellersPage } from './sellers-page.tsx';
export { AdminPayoutsPage } from './payouts-page.tsx';
export { AdminRiskPage } from './risk-page.tsx';
export { AdminClaimsPage } from './claims-page.tsx';
