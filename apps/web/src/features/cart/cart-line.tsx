import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { regionWarning } from '@keystore/contract/activation-rules';
import { sellerMessages } from '@keystore/contract/seller-rules';
import type { CartItem } from '../../lib/cart.ts';
import { formatEuro } from '../../lib/money.ts';
import { visitorPlaceQuery } from '../../lib/visitor-place.ts';
import { QuantityControl } from '../../ui/quantity-control.tsx';
import styles from './cart-page.module.css';

/** The region shown for a game listed without one. */
const DEFAULT_REGION = 'Global';

interface CartLineProps {
  item: CartItem;
  onQuantity: (quantity: number) => void;
  onRemove: () => void;
}

/** One cart line (SPEC §2 Cart): cover, title, platform, region, euro price with the sale tag, quantity (min 1), remove. */
export function CartLine({ item, onQuantity, onRemove }: CartLineProps) {
  const { game, quantity } = item;
  // A line of an offer chosen on the game page is named for its seller too, so two lines of one game differ.
  const label = item.seller === undefined ? game.title : `${game.title} from ${item.seller}`;
  const onSale = game.originalPrice !== null && game.originalPrice > game.price;
  const warning = regionWarning(game.region, useQuery(visitorPlaceQuery).data?.country);
  return (
    <li className={styles.line}>
      <Link to={`/game/${game._id}`} className={styles.cover} tabIndex={-1} aria-hidden="true">
        <img src={game.image} alt="" width={80} height={120} />
      </Link>
      <div className={styles.info}>
        <h2 className={styles.lineTitle}>
          <Link to={`/game/${game._id}`}>{game.title}</Link>
        </h2>
        <p className={styles.meta}>
          <span>{game.platform}</span>
          <span aria-hidden="true">·</span>
          <span>Region: {game.region || DEFAULT_REGION}</span>
        </p>
        {item.seller !== undefined && <p className={styles.meta}>{sellerMessages.soldBy(item.seller)}</p>}
        {warning && (
          <p className={styles.regionWarning} role="note">
            {warning}
          </p>
        )}
      </div>
      <div className={styles.price}>
        {onSale && <span className={styles.hot}>HOT SALE</span>}
        {onSale && (
          <s className={styles.original}>
            <span className={styles.srOnly}>Original price </span>
            {formatEuro(game.originalPrice!)}
          </s>
        )}
        <span className={styles.amount}>{formatEuro(game.price)}</span>
      </div>
      <div className={styles.quantity}>
        <QuantityControl label={label} value={quantity} min={1} onChange={onQuantity} onRemove={onRemove} />
      </div>
    </li>
  );
}
