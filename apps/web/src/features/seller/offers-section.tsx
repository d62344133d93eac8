import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Offer, QuickSearchHit } from '@keystore/contract';
import { euroCents, netPriceProblem } from '@keystore/contract/seller-rules';
import { messageOf } from '../../lib/api.ts';
import { formatEuro } from '../../lib/money.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { gameSearchQuery, offersQuery, pricePreviewQuery, useCreateOffer, useUpdateOffer } from './api.ts';
import styles from './seller.module.css';

/** Typing pauses this long before the game search or the price preview asks the server. */
const TYPING_PAUSE_MS = 300;

/** The seller's offers (pause, resume) and, unless the account is suspended, the form for a new one. */
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
        <div className={styles.tableWrap} role="region" aria-label="Your offers" tabIndex={0}>
          <table className={styles.table}>
            <caption className="visually-hidden">Your offers</caption>
            <thead>
              <tr>
                <th scope="col">Game</th>
                <th scope="col" className={styles.number}>
                  Net price
                </th>
                <th scope="col" className={styles.number}>
                  Buyer pays
                </th>
                <th scope="col" className={styles.number}>
                  Keys
                </th>
                <th scope="col" className={styles.number}>
                  Sold
                </th>
                <th scope="col">Status</th>
                {!readOnly && <th scope="col">Action</th>}
              </tr>
            </thead>
            <tbody>
              {offers.data.map((offer) => (
                <OfferRow key={offer._id} offer={offer} readOnly={readOnly} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** An offer's row: its figures, Pause or Resume, and its net price changed in place with what buyers will pay. */
function OfferRow({ offer, readOnly }: { offer: Offer; readOnly: boolean }) {
  const update = useUpdateOffer();
  const [editing, setEditing] = useState(false);
  const [netPrice, setNetPrice] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const changeButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  const fieldId = `net-price-${offer._id}`;
  useEffect(() => {
    if (wasEditing.current && !editing) changeButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const edit = () => {
    setNetPrice(offer.netPrice.toFixed(2));
    setProblem(null);
    update.reset();
    setEditing(true);
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    const priceProblem = netPriceProblem(netPrice);
    if (priceProblem) return setProblem(priceProblem);
    setProblem(null);
    update.mutate({ offerId: offer._id, patch: { netPrice: euroCents(netPrice)! / 100 } }, { onSuccess: () => setEditing(false) });
  };
  const toggle = () => update.mutate({ offerId: offer._id, patch: { status: offer.status === 'active' ? 'paused' : 'active' } });

  const shownProblem = problem ?? (update.isError ? messageOf(update.error, 'The offer could not be changed. Please try again.') : null);
  return (
    <tr>
      <th scope="row">{offer.title}</th>
      <td className={styles.number}>
        {editing ? (
          <form className={styles.priceEdit} onSubmit={save} noValidate aria-label={`Net price of ${offer.title}`}>
            <label htmlFor={fieldId} className="visually-hidden">
              New net price for {offer.title} (€)
            </label>
            <span className={styles.field}>
              <input
                id={fieldId}
                className={styles.price}
                inputMode="decimal"
                value={netPrice}
                onChange={(event) => setNetPrice(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Escape') setEditing(false);
                }}
                aria-describedby={`${fieldId}-preview`}
                {...(shownProblem ? { 'aria-invalid': true } : {})}
                // Focus moves to the field the seller asked to edit; Escape or Cancel gives it back to Change price.
                autoFocus
              />
            </span>
            <BuyerPrice id={`${fieldId}-preview`} netPrice={netPrice} />
            {shownProblem && (
              <span className={styles.problem} role="alert">
                {shownProblem}
              </span>
            )}
            <span className={styles.actions}>
              <button type="submit" className={`${styles.primary} ${styles.small}`} disabled={update.isPending}>
                Save
              </button>
              <button type="button" className={`${styles.secondary} ${styles.small}`} disabled={update.isPending} onClick={() => setEditing(false)}>
                Cancel
              </button>
            </span>
          </form>
        ) : (
          formatEuro(offer.netPrice)
        )}
      </td>
      <td className={styles.number}>{formatEuro(offer.price)}</td>
      <td className={styles.number}>{offer.stock}</td>
      <td className={styles.number}>{offer.sold}</td>
      <td>{offer.status === 'active' ? 'Active' : 'Paused'}</td>
      {!readOnly && (
        <td>
          <span className={styles.actions}>
            {!editing && (
              <button
                ref={changeButton}
                type="button"
                className={`${styles.secondary} ${styles.small}`}
                disabled={update.isPending}
                aria-label={`Change price of ${offer.title}`}
                onClick={edit}
              >
                Change price
              </button>
            )}
            <button
              type="button"
              className={`${styles.secondary} ${styles.small}`}
              disabled={update.isPending}
              aria-label={`${offer.status === 'active' ? 'Pause' : 'Resume'} ${offer.title}`}
              onClick={toggle}
            >
              {offer.status === 'active' ? 'Pause' : 'Resume'}
            </button>
          </span>
          {!editing && update.isError && (
            <span className={styles.problem} role="alert">
              {messageOf(update.error, 'The offer could not be changed. Please try again.')}
            </span>
          )}
        </td>
      )}
    </tr>
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
      <div className={styles.actions}>
        <button type="submit" className={styles.primary} disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add offer'}
        </button>
      </div>
    </form>
  );
}

/** What buyers will pay for the net price typed, by the seller's commission (GET /api/seller/price-preview), as it is typed. */
export function BuyerPrice({ id, netPrice }: { id: string; netPrice: string }) {
  const settled = useDebounced(netPrice, TYPING_PAUSE_MS);
  const valid = netPriceProblem(settled) === undefined;
  const preview = useQuery({ ...pricePreviewQuery(valid ? euroCents(settled)! / 100 : 0), enabled: valid });
  let text = 'Buyers pay your net price plus the store’s commission.';
  if (settled.trim() !== '' && !valid) text = netPriceProblem(settled)!;
  else if (valid && preview.data) text = `Buyers pay ${formatEuro(preview.data.price)} (commission ${formatEuro(preview.data.commission)})`;
  return (
    <span id={id} className={styles.note} aria-live="polite">
      {text}
    </span>
  );
}
