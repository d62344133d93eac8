import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { QuickSearchHit } from '@keystore/contract';
import { euroCents, netPriceProblem } from '@keystore/contract/seller-rules';
import { messageOf } from '../../lib/api.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { DataTable, type Column } from '../../ui/data-table.tsx';
import { gameSearchQuery, offersQuery, useCreateOffer } from './api.ts';
import { BuyerPrice, TYPING_PAUSE_MS } from './buyer-price.tsx';
import { OfferRow } from './offer-row.tsx';
import buttons from '../../ui/buttons.module.css';
import styles from './seller.module.css';

/** The offers table's headings, OfferRow's cells in order; then Action, where the seller may change an offer. */
const OFFER_COLUMNS: Column[] = [
  'Game',
  { label: 'Net price', numeric: true },
  { label: 'Buyer pays', numeric: true },
  'Delivery',
  { label: 'Keys', numeric: true },
  { label: 'Sold', numeric: true },
  'Status',
];

/**
 * The seller's offers (price, pause, resume, delivery) and, unless the account is suspended, the form for
 * a new one. A new offer sells uploaded keys; its Delivery button switches it to declared stock.
 */
export function OffersSection({ readOnly }: { readOnly: boolean }) {
  const offers = useQuery(offersQuery());
  return (
    <>
      {!readOnly && <NewOfferForm />}
      {offers.isPending && (
        <p className={styles.muted} role="status">
          Loading…
        </p>
      )}
      {offers.isError && (
        <p className={styles.problem} role="alert">
          {messageOf(offers.error, 'Could not load your offers. Please try again.')}
        </p>
      )}
      {offers.data && offers.data.length === 0 && <p className={styles.muted}>No offers yet: find a game above and set your price.</p>}
      {offers.data && offers.data.length > 0 && (
        <DataTable caption="Your offers" captionHidden columns={readOnly ? OFFER_COLUMNS : [...OFFER_COLUMNS, 'Action']} className={styles.tableWrap}>
          {offers.data.map((offer) => (
            <OfferRow key={offer._id} offer={offer} readOnly={readOnly} />
          ))}
        </DataTable>
      )}
      {offers.data?.some((offer) => offer.delivery === 'declared') && (
        <p className={styles.note}>
          A declared-stock offer leaves the store for a while when many of its reservations fail, and is paused after several failures in a row: resume it once
          your endpoint answers again. Every call to it is listed under Reservations.
        </p>
      )}
    </>
  );
}

/** A new offer: a game found by the catalogue's search, and the net price with what buyers will pay. */
function NewOfferForm() {
  const [text, setText] = useState('');
  const [game, setGame] = useState<QuickSearchHit | null>(null);
  const [netPrice, setNetPrice] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateOffer();
  const query = useDebounced(text.trim(), TYPING_PAUSE_MS);
  const hits = useQuery({ ...gameSearchQuery(query), enabled: query.length > 0 });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const priceProblem = netPriceProblem(netPrice);
    if (!game) return setProblem('Choose a game first');
    if (priceProblem) return setProblem(priceProblem);
    setProblem(null);
    create.mutate(
      { gameId: game._id, netPrice: euroCents(netPrice)! / 100 },
      {
        onSuccess: () => {
          setGame(null);
          setText('');
          setNetPrice('');
        },
      },
    );
  };

  const shownProblem = problem ?? (create.isError ? messageOf(create.error, 'The offer could not be added. Please try again.') : null);
  return (
    <form className={`${styles.panel} ${styles.stack}`} onSubmit={submit} noValidate aria-labelledby="new-offer-title">
      <h2 id="new-offer-title" className={styles.subtitle}>
        New offer
      </h2>
      <div className={styles.field}>
        <label htmlFor="offer-game">Game</label>
        <input id="offer-game" type="search" value={text} placeholder="Search the catalogue" onChange={(event) => setText(event.target.value)} />
      </div>
      {query.length > 0 && hits.data && (
        <ul className={styles.hits} aria-label="Games found">
          {hits.data.length === 0 && <li className={styles.note}>Not found :(</li>}
          {hits.data.map((hit) => (
            <li key={hit._id}>
              <button type="button" className={styles.hit} aria-pressed={game?._id === hit._id} onClick={() => setGame(hit)}>
                {hit.title} · {hit.platform}
              </button>
            </li>
          ))}
        </ul>
      )}
      {game && (
        <p className={styles.note} aria-live="polite">
          Chosen: {game.title} ({game.platform})
        </p>
      )}
      <div className={styles.field}>
        <label htmlFor="offer-net-price">Your net price per key (€)</label>
        <input id="offer-net-price" inputMode="decimal" value={netPrice} onChange={(event) => setNetPrice(event.target.value)} aria-describedby="offer-preview" />
        <BuyerPrice id="offer-preview" netPrice={netPrice} />
      </div>
      {shownProblem && (
        <p className={styles.problem} role="alert">
          {shownProblem}
        </p>
      )}
      <div className={buttons.actions}>
        <button type="submit" className={buttons.primary} disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add offer'}
        </button>
      </div>
    </form>
  );
}

