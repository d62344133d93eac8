import { NavLink, Outlet } from 'react-router';
import styles from './admin.module.css';

const SECTIONS = [
  { to: '/admin', label: 'Dashboard', end: true },
  { to: '/admin/orders', label: 'Orders', end: false },
  { to: '/admin/users', label: 'Customers', end: false },
  { to: '/admin/catalogue', label: 'Catalogue', end: false },
  { to: '/admin/sellers', label: 'Sellers', end: false },
  { to: '/admin/payouts', label: 'Payouts', end: false },
  { to: '/admin/claims', label: 'Claims', end: false },
  { to: '/admin/risk', label: 'Risk desk', end: false },
  { to: '/admin/support', label: 'Support', end: false },
  { to: '/admin/audit', label: 'Audit log', end: false },
  { to: '/admin/news', label: 'News', end: false },
] as const;

/** The back office's frame inside the store's: its side nav and the section's page. */
export function AdminLayout() {
  return (
    <div className={styles.area}>
      <nav className={styles.nav} aria-labelledby="admin-nav-title">
        <p id="admin-nav-title" className={styles.navTitle}>
          Back office
        </p>
        {SECTIONS.map(({ to, label, end }) => (
          <NavLink key={to} to={to} end={end} className={styles.navLink}>
            {label}
          </NavLink>
        ))}
      </nav>
      <div className={styles.content}>
        <Outlet />
      </div>
    </div>
  );
}
