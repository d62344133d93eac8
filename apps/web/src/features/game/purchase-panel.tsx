import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import type { Game } from '@keystore/contract';
import { isRefusal } from '../../lib/api.ts';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { useCheckout } from '../../lib/checkout.ts';
import { formatEuro } from '../../lib/money.ts';
import { currentSession } from '../../lib/session.ts';
import { CartControl } from '../../ui/cart-control.tsx';
import { WishButton } from '../../ui/wish-button.tsx';
import { keysLeftText } from './game-info.ts';
import styles from './purchase-panel.module.css';

// The sellers' offers load after the page shows, in a chunk of their own (decision 027).
const GameOffers = lazy(() => import('./game-offers.tsx'));
// Where the key works and the region warning share their rules with the cart: a chunk of their own, its line kept meanwhile.
const RegionNote = lazy(() => import('./region-note.tsx'));

/** Stock, price and the buying actions of the game page. */
export function PurchasePanel({ game }: { game: Game }) {
  const { busy, problem, checkout } = useCheckout();
  const queryClient = useQueryClient();
  const outOfStock = game.stock <= 0;
  const onSale = game.originalPrice !== null && game.originalPrice > game.price;

  // One key of this game in an order of its own, and its payment page; a visitor logs in or goes on as a guest first.
  const buyNow = () => {
    if (busy) return;
    // The price shown goes along: when the offers now cost more (or ran out), the server refuses (409)
    // and the page fetches the game and its offers again, so what the buyer sees next is true.
    const items = [{ gameId: game._id, quantity: 1, expectedPrice: game.price }];
    const onError = (error: unknown) => {
      if (isRefusal(error)) void queryClient.invalidateQueries({ queryKey: ['game', game._id] });
    };
    if (currentSession().status !== 'signed-in') {
      openAuthDialog('login', { checkout: { items, onError } });
      return;
    }
    checkout(items, onError);
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
      <Suspense fallback={null}>
        <GameOffers game={game} />
      </Suspense>
      <Suspense fallback={<p className={styles.worksIn}>&nbsp;</p>}>
        <RegionNote region={game.region} />
      </Suspense>
      <div className={styles.actions}>
        <CartControl game={game} className={styles.add} disabled={outOfStock} />
        <button type="button" className={styles.buy} disabled={outOfStock} aria-busy={busy} onClick={buyNow}>
          {busy ? 'Placing your order…' : 'Buy in 1 click'}
        </button>
        <WishButton gameId={game._id} title={game.title} className={styles.wish} />
      </div>
      {problem && (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
