import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { GameListItem, WishlistItem } from '@keystore/contract';
import { PRICE_DROP_PERCENT, wishlistMessages } from '@keystore/contract/wishlist-rules';
import { messageOf } from '../../lib/api.ts';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { formatEuro } from '../../lib/money.ts';
import { useSession } from '../../lib/session.ts';
import { toggleWish, useWishlistState } from '../../lib/wishlist.ts';
import { AlertMailSwitch } from '../../ui/alert-mail-switch.tsx';
import { CartControl } from '../../ui/cart-control.tsx';
import { PageSkeleton } from '../../ui/page-skeleton.tsx';
import { showToast } from '../../ui/toasts.tsx';
import { changeAlerts, wishedGameQuery, wishlistQuery } from './api.ts';
import styles from './wishlist-page.module.css';

/** The wishlist (issue 31): each game's price now, when wished for and the change, its alerts, Add to cart and Remove. */
export function WishlistPage() {
  const { status } = useSession();
  return (
    <section className={styles.page} aria-labelledby="wishlist-title">
      <h1 id="wishlist-title" className={styles.title}>
        Wishlist
      </h1>
      {status === 'restoring' ? <Loading /> : status === 'signed-in' ? <AccountWishlist /> : <VisitorWishlist />}
    </section>
  );
}

function AccountWishlist() {
  const { version } = useWishlistState();
  const list = useQuery({ ...wishlistQuery(version), placeholderData: (previous) => previous });
  if (list.isPending) return <Loading />;
  if (list.isError) return <p role="alert">{messageOf(list.error, 'Your wishlist could not be loaded.')}</p>;
  return (
    <>
      <AlertMailSwitch />
      {list.data.length === 0 ? <Empty /> : <ul className={styles.items}>{list.data.map((item) => <Row key={item.gameId} game={item.game} item={item} />)}</ul>}
    </>
  );
}

function VisitorWishlist() {
  const { wished, count } = useWishlistState();
  const ids = Object.keys(wished);
  const games = useQueries({ queries: ids.map((id) => wishedGameQuery(id)) });
  if (count === 0) return <Empty />;
  return (
    <>
      <p className={styles.note}>
        <button type="button" className={styles.link} onClick={() => openAuthDialog('login')}>
          Log in
        </button>{' '}
        to keep this list in your account and hear when a price drops or a game is back in stock.
      </p>
      <ul className={styles.items}>{games.map((game, n) => (game.data ? <Row key={ids[n]} game={game.data} /> : null))}</ul>
    </>
  );
}

function Loading() {
  return (
    <PageSkeleton className={styles.items} label="Wishlist" status="Loading your wishlist">
      <div className={styles.placeholder} />
      <div className={styles.placeholder} />
    </PageSkeleton>
  );
}

function Empty() {
  return (
    <div className={styles.empty}>
      <p className={styles.emptyTitle}>{wishlistMessages.empty}</p>
      <p>{wishlistMessages.emptyHint}</p>
      <Link to="/store" className={styles.continue}>
        Go to the store
      </Link>
    </div>
  );
}

/** One wished game; its alerts when the list is the account's. */
function Row({ game, item }: { game: GameListItem; item?: WishlistItem }) {
  const change = item ? game.price - item.priceAtAdd : 0;
  return (
    <li className={styles.item}>
      <Link to={`/game/${game._id}`} className={styles.cover} tabIndex={-1} aria-hidden="true">
        <img src={game.image} alt="" width={72} height={108} />
      </Link>
      <div className={styles.info}>
        <h2 className={styles.itemTitle}>
          <Link to={`/game/${game._id}`}>{game.title}</Link>
        </h2>
        <p className={styles.meta}>
          {game.platform} · Region: {game.region || 'Global'}
        </p>
        {item && <Alerts item={item} />}
      </div>
      <div className={styles.prices}>
        <span className={styles.price}>{formatEuro(game.price)}</span>
        {item && (
          <>
            <span className={styles.meta}>When added: {formatEuro(item.priceAtAdd)}</span>
            <span className={change < 0 ? styles.down : change > 0 ? styles.up : styles.meta}>
              {change === 0 ? 'No change' : `${change < 0 ? '−' : '+'}${formatEuro(Math.abs(change))} (${change < 0 ? '−' : '+'}${Math.round((Math.abs(change) / item.priceAtAdd) * 100)} %)`}
            </span>
          </>
        )}
      </div>
      <div className={styles.actions}>
        {game.stock > 0 ? <CartControl game={game} className={styles.add} nameWithTitle /> : <span className={styles.out}>Out of stock</span>}
        <button
          type="button"
          className={styles.remove}
          onClick={() => toggleWish(game._id).catch((error: unknown) => showToast(messageOf(error, 'Could not remove the game.'), 'error'))}
        >
          Remove<span className="visually-hidden">: {game.title}</span>
        </button>
      </div>
    </li>
  );
}

/** An item's alerts: a price drop (10 % below the price when added, or a target price) and back in stock. */
function Alerts({ item }: { item: WishlistItem }) {
  const queryClient = useQueryClient();
  const [target, setTarget] = useState(item.alerts.targetPrice === null ? '' : item.alerts.targetPrice.toFixed(2));
  const save = useMutation({
    mutationFn: (body: Parameters<typeof changeAlerts>[1]) => changeAlerts(item.gameId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['wishlist'] }),
    onError: (error) => showToast(messageOf(error, 'Your alert could not be saved.'), 'error'),
  });
  const saveTarget = () => {
    const euro = target.trim() === '' ? null : Number(target.replace(',', '.'));
    if (euro !== item.alerts.targetPrice) save.mutate({ targetPrice: euro });
  };
  return (
    <fieldset className={styles.alerts}>
      <legend className="visually-hidden">Alerts for {item.game.title}</legend>
      <label className={styles.check}>
        <input type="checkbox" checked={item.alerts.priceDrop} onChange={(event) => save.mutate({ priceDrop: event.target.checked })} />
        Price drop
      </label>
      <label className={styles.target}>
        <span>at</span>
        <input
          inputMode="decimal"
          aria-label={`Target price for ${item.game.title}, in euro`}
          placeholder={`${PRICE_DROP_PERCENT} % off`}
          value={target}
          disabled={!item.alerts.priceDrop}
          onChange={(event) => setTarget(event.target.value)}
          onBlur={saveTarget}
          onKeyDown={(event) => event.key === 'Enter' && saveTarget()}
        />
      </label>
      <label className={styles.check}>
        <input type="checkbox" checked={item.alerts.backInStock} onChange={(event) => save.mutate({ backInStock: event.target.checked })} />
        Back in stock
      </label>
    </fieldset>
  );
}
