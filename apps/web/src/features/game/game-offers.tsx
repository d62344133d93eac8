import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Game, GameOffer } from '@keystore/contract';
import { HOUSE_SELLER_NAME, sellerMessages } from '@keystore/contract/seller-rules';
import { addToCart, removeFromCart, setCartQuantity, useCartQuantity } from '../../lib/cart.ts';
import { formatEuro } from '../../lib/money.ts';
import { QuantityControl } from '../../ui/quantity-control.tsx';
import { gameOffersQuery } from './api.ts';
import styles from './game-offers.module.css';

/**
 * Who sells the game at the price shown, and the other sellers' offers, each with its own 'Add to cart'
 * (issue 23). Its own lazy chunk, fetched after the page shows: the first view of a game page stays
 * the entry and the page's chunk (decision 027). Shows nothing until the offers are there, or when
 * they fail to load: the page's own price and buttons still buy the best offer.
 */
export default function GameOffers({ game }: { game: Game }) {
  const { data: offers } = useQuery(gameOffersQuery(game._id));
  const [open, setOpen] = useState(false);
  const listId = useId();
  const best = offers?.[0];
  if (!best) return null;
  const others = offers.slice(1);
  return (
    <div className={styles.offers}>
      <p className={styles.soldBy}>
        {sellerMessages.soldBy(best.seller.name)}
        <ScoreBadge seller={best.seller} />
      </p>
      {others.length > 0 && (
        <>
          <button type="button" className={styles.toggle} aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
            {sellerMessages.otherOffers(others.length, formatEuro(Math.min(...others.map((offer) => offer.price))))}
          </button>
          <ul id={listId} className={styles.list} aria-label="Other offers" hidden={!open}>
            {others.map((offer) => (
              <OfferRow key={offer.offerId} game={game} offer={offer} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** One seller's offer: name, price, keys left, and its own cart line. */
function OfferRow({ game, offer }: { game: Game; offer: GameOffer }) {
  const quantity = useCartQuantity(game._id, offer.offerId);
  const label = `${game.title} from ${offer.seller.name}`;
  return (
    <li className={styles.row}>
      <span className={styles.seller}>
        <span>{offer.seller.name}</span>
        <ScoreBadge seller={offer.seller} />
      </span>
      <span className={styles.price}>{formatEuro(offer.price)}</span>
      <span className={styles.stock}>{offer.stock === 1 ? '1 key' : `${offer.stock} keys`}</span>
      {quantity > 0 ? (
        <QuantityControl
          label={label}
          value={quantity}
          min={0}
          onChange={(next) => setCartQuantity(game._id, next, offer.offerId)}
          onRemove={() => removeFromCart(game._id, offer.offerId)}
        />
      ) : (
        <button
          type="button"
          className={styles.add}
          onClick={() => addToCart(game, { offerId: offer.offerId, seller: offer.seller.name, price: offer.price })}
        >
          Add to cart<span className="visually-hidden">: {label}</span>
        </button>
      )}
    </li>
  );
}

/**
 * A seller's score from its outcomes (issue 24), "★ 94", read out as "Seller score 94 of 100". None for the
 * house: its keys come from the supplier, and its 90 is only the starting score it stands in with.
 */
export function ScoreBadge({ seller }: { seller: GameOffer['seller'] }) {
  if (seller.name === HOUSE_SELLER_NAME) return null;
  return (
    <>
      {' '}
      <span className={styles.score} role="img" aria-label={`Seller score ${seller.score} of 100`} title="Seller score from deliveries, claims and refunds over 90 days">
        ★ {seller.score}
      </span>
    </>
  );
}
