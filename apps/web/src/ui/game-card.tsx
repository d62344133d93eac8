import { Link } from 'react-router';
import type { GameListItem } from '@keystore/contract';
import { formatEuro } from '../lib/money.ts';
import { CartControl } from './cart-control.tsx';
import { WishButton } from './wish-button.tsx';
import styles from './game-card.module.css';

/** A product tile: cover, type, platform, price and title open the game page; Add to cart or the quantity control below. */
export function GameCard({ game }: { game: GameListItem }) {
  const onSale = game.originalPrice !== null && game.originalPrice > game.price;
  const outOfStock = game.stock === 0;
  return (
    <article className={styles.card}>
      <Link to={`/game/${game._id}`} className={styles.link}>
        <img className={styles.image} src={game.image} alt="" loading="lazy" width={400} height={600} />
        <div className={styles.meta}>
          <span className={styles.type}>{game.type}</span>
          <span className={styles.platform}>{game.platform}</span>
        </div>
        <div className={styles.price}>
          {formatEuro(game.price)}
          {onSale && <s className={styles.original}>{formatEuro(game.originalPrice!)}</s>}
        </div>
        <h3 className={styles.title}>{game.title}</h3>
      </Link>
      <WishButton gameId={game._id} title={game.title} className={styles.wish} />
      <div className={styles.actions}>
        {outOfStock ? (
          <span className={styles.out}>Out of stock</span>
        ) : (
          <CartControl game={game} className={styles.add} nameWithTitle />
        )}
      </div>
    </article>
  );
}
