import { useNavigate } from 'react-router';
import type { Game } from '@keystore/contract';
import { addToCart, useCartQuantity } from '../../lib/cart.ts';
import { formatEuro } from '../../lib/money.ts';
import { CartControl } from '../../ui/cart-control.tsx';
import { keysLeftText } from './game-info.ts';
import styles from './purchase-panel.module.css';

/** Stock, price and the buying actions of the game page. */
export function PurchasePanel({ game }: { game: Game }) {
  const navigate = useNavigate();
  const quantity = useCartQuantity(game._id);
  const outOfStock = game.stock <= 0;
  const onSale = game.originalPrice !== null && game.originalPrice > game.price;

  // Until checkout exists, buying at once means: this game in the cart, and the cart open.
  const buyNow = () => {
    if (quantity === 0) addToCart(game);
    navigate('/cart');
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
        <button type="button" className={styles.buy} disabled={outOfStock} onClick={buyNow}>
          Buy in 1 click
        </button>
      </div>
    </div>
  );
}
