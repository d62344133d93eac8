import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { useCart } from '../../lib/cart.ts';
import { CartLine } from './cart-line.tsx';
import { CartSummary } from './cart-summary.tsx';
import styles from './cart-page.module.css';

const RelatedRow = lazy(() => import('../../ui/related-row.tsx'));

/** The cart (SPEC §2 Cart): its lines in euro, Remove all, and the summary with the terms gate to checkout. */
export function CartPage() {
  const { items, totalItems, totalPrice, setQuantity, remove, clear } = useCart();

  if (items.length === 0) {
    return (
      <section className={styles.empty} aria-labelledby="cart-title">
        <h1 id="cart-title" className={styles.title}>
          Cart
        </h1>
        <p className={styles.emptyText}>Your cart is empty.</p>
        <Link to="/store" className={styles.continue}>
          Continue Shopping
        </Link>
      </section>
    );
  }

  return (
    <section className={styles.page} aria-labelledby="cart-title">
      <div className={styles.head}>
        <h1 id="cart-title" className={styles.title}>
          Cart
        </h1>
        <button type="button" className={styles.removeAll} onClick={clear}>
          Remove all products
        </button>
      </div>
      <div className={styles.layout}>
        <ul className={styles.lines} aria-label="Products in your cart">
          {items.map((item) => (
            <CartLine
              key={`${item.game._id}:${item.offerId ?? ''}`}
              item={item}
              onQuantity={(quantity) => setQuantity(item.game._id, quantity, item.offerId)}
              onRemove={() => remove(item.game._id, item.offerId)}
            />
          ))}
        </ul>
        <CartSummary items={items} totalItems={totalItems} totalPrice={totalPrice} />
      </div>
      {/* Games like the first one in the cart, after the page shows (issue 31). */}
      <Suspense fallback={<div className={styles.related} />}>
        <RelatedRow gameId={items[0]!.game._id} />
      </Suspense>
    </section>
  );
}
