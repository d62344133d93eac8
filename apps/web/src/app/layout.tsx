import { Link, Outlet } from 'react-router';
import styles from './layout.module.css';

/** The frame around every page. The full header, sidebar and bottom bar come with the storefront. */
export function Layout() {
  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <Link to="/" className={styles.logo} aria-label="Keystore home">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>Keystore</span>
        </Link>
        <nav className={styles.nav} aria-label="Main">
          <Link to="/store">Store</Link>
        </nav>
      </header>
      <main className={styles.main}>
        <Outlet />
      </main>
    </div>
  );
}
