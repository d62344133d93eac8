import { Route, Routes } from 'react-router';
import { AdminGate } from '../app/admin-gate.tsx';
import { NotFoundPage } from '../app/not-found-page.tsx';
import {
  AdminAuditPage,
  AdminCataloguePage,
  AdminClaimsPage,
  AdminDashboardPage,
  AdminOrderPage,
  AdminOrdersPage,
  AdminPayoutsPage,
  AdminRiskPage,
  AdminSellersPage,
  AdminSupportPage,
  AdminUserPage,
  AdminUsersPage,
} from '../features/admin/admin-area.tsx';
import { AdminNewsPage } from '../features/news/admin-news-page.tsx';

/**
 * The back office (issue 15): one page of the contract's table for every /admin address, routing its
 * sections itself, so the area, its gate and its charts are one lazy chunk and the storefront's first
 * chunk carries one route for it (decision 024).
 */
export default function BackOffice() {
  return (
    <Routes>
      <Route element={<AdminGate />}>
        <Route index element={<AdminDashboardPage />} />
        <Route path="orders" element={<AdminOrdersPage />} />
        <Route path="orders/:id" element={<AdminOrderPage />} />
        <Route path="users" element={<AdminUsersPage />} />
        <Route path="users/:id" element={<AdminUserPage />} />
        <Route path="catalogue" element={<AdminCataloguePage />} />
        <Route path="sellers" element={<AdminSellersPage />} />
        <Route path="payouts" element={<AdminPayoutsPage />} />
        <Route path="risk" element={<AdminRiskPage />} />
        <Route path="claims" element={<AdminClaimsPage />} />
        <Route path="support" element={<AdminSupportPage />} />
        <Route path="audit" element={<AdminAuditPage />} />
        <Route path="news" element={<AdminNewsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
