import { useState } from 'react';
import { Link } from 'react-router';
import { NotificationBell } from '../../features/notifications/notification-bell.tsx';
import { useCart } from '../../lib/cart.ts';
import { useWishlistState } from '../../lib/wishlist.ts';
import { CartIcon, CloseIcon, HeartIcon, SearchIcon } from '../../ui/icons.tsx';
import { CatalogMenu } from './catalog-menu.tsx';
import { SearchBox } from './search-box.tsx';
import styles from './header.module.css';

/** Logo, catalogue menu, search (a toggle on phones), the notifications bell and the cart with its item count. */
export function Header() {
  const { totalItems } = useCart();
  const wishes = useWishlistState().count;
  const [searching, setSearching] = useState(false);
  return (
    <header className={styles.header}>
      <Link to="/" className={styles.logo} aria-label="Keystore home">
        <img src="/favicon.svg" alt="" width={32} height={32} />
        <span className={styles.name}>Keystore</span>
      </Link>
      <CatalogMenu />
      <div className={styles.search} data-open={searching}>
        <SearchBox autoFocus={searching} onDone={() => setSearching(false)} />
      </div>
      <div className={styles.actions}>
        <button
          type="button"
          className={styles.searchToggle}
          aria-label={searching ? 'Close search' : 'Open search'}
          aria-expanded={searching}
          onClick={() => setSearching((value) => !value)}
        >
          {searching ? <CloseIcon /> : <SearchIcon />}
        </button>
        <NotificationBell />
        <Link to="/wishlist" className={styles.cart} aria-label={`Wishlist, ${wishes} ${wishes === 1 ? 'game' : 'games'}`}>
          <HeartIcon />
          {wishes > 0 && <span className={styles.badge}>{wishes > 99 ? '99+' : wishes}</span>}
        </Link>
        <Link to="/cart" className={styles.cart} aria-label={`Cart, ${totalItems} ${totalItems === 1 ? 'item' : 'items'}`}>
          <CartIcon />
          {totalItems > 0 && <span className={styles.badge}>{totalItems > 99 ? '99+' : totalItems}</span>}
        </Link>
      </div>
    </header>
  );
}
