import type { Game } from '@keystore/contract';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { useCheckout } from '../../lib/checkout.ts';
import { formatEuro } from '../../lib/money.ts';
import { currentSession } from '../../lib/session.ts';
import { CartControl } from '../../ui/cart-control.tsx';
import { keysLeftText } from './game-info.ts';
import styles from './purchase-panel.module.css';

/** Stock, price and the buying actions of the game page. */
export function PurchasePanel({ game }: { game: Game }) {
  const { busy, problem, checkout } = useCheckout();
  const outOfStock = game.stock <= 0;
  const onSale = game.originalPrice !== null && game.originalPrice > game.price;

  // One key of this game in an order of its own, and its payment page; a visitor logs in first.
  const buyNow = () => {
    if (busy) return;
    if (currentSession().status !== 'signed-in') {
      openAuthDialog('login');
      return;
    }
    checkout([{ gameId: game._id, quantity: 1 }]);
  };

  return (
    <div className={styles.panel}>
      <p className={outOfStock ? styles.out : styles.stock}>{outOfStock ? 'Out of stock' : keysLeftText(game.stock)}</p>
      <p className={styles.price}>
        <span className={styles.hidden}>Price: </span>
        {formatEuro(game.price)}
        {onSale && (
          <s className={styles.original}>
            <span className={styles.hidden}>Original price: </span>
            {formatEuro(game.originalPrice!)}
          </s>
        )}
      </p>
      <div className={styles.actions}>
        <CartControl game={game} className={styles.add} disabled={outOfStock} />
        <button type="button" className={styles.buy} disabled={outOfStock} aria-busy={busy} onClick={buyNow}>
          {busy ? 'Placing your order…' : 'Buy in 1 click'}
        </button>
      </div>
      {problem && (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
