import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Offer } from '@keystore/contract';
import { euroCents, netPriceProblem } from '@keystore/contract/seller-rules';
import { messageOf } from '../../lib/api.ts';
import { formatEuro } from '../../lib/money.ts';
import { useUpdateOffer } from './api.ts';
import { BuyerPrice } from './buyer-price.tsx';
import { DeliveryDialog } from './delivery-dialog.tsx';
import { formatWhen } from './when.tsx';
import buttons from '../../ui/buttons.module.css';
import dataTable from '../../ui/data-table.module.css';
import styles from './seller.module.css';

/**
 * An offer's row: its figures, how its keys are delivered, whether the circuit breaker hides it, Pause or
 * Resume, its net price changed in place with what buyers will pay, and its delivery changed in a dialog.
 */
export function OfferRow({ offer, readOnly }: { offer: Offer; readOnly: boolean }) {
  const update = useUpdateOffer();
  const [editing, setEditing] = useState(false);
  const [choosingDelivery, setChoosingDelivery] = useState(false);
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
      <td className={dataTable.number}>
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
            <span className={buttons.actions}>
              <button type="submit" className={`${buttons.primary} ${buttons.small}`} disabled={update.isPending}>
                Save
              </button>
              <button type="button" className={`${buttons.secondary} ${buttons.small}`} disabled={update.isPending} onClick={() => setEditing(false)}>
                Cancel
              </button>
            </span>
          </form>
        ) : (
          formatEuro(offer.netPrice)
        )}
      </td>
      <td className={dataTable.number}>{formatEuro(offer.price)}</td>
      <td className={styles.nowrap}>
        {offer.delivery === 'uploaded' ? (
          'Uploaded keys'
        ) : (
          <>
            Declared stock
            <span className={styles.cellNote}>{offer.declaredStock.toLocaleString('en')} declared</span>
          </>
        )}
      </td>
      <td className={dataTable.number}>{offer.stock}</td>
      <td className={dataTable.number}>{offer.sold}</td>
      <td>
        <OfferStatus offer={offer} />
      </td>
      {!readOnly && (
        <td>
          <span className={buttons.actions}>
            {!editing && (
              <button
                ref={changeButton}
                type="button"
                className={`${buttons.secondary} ${buttons.small}`}
                disabled={update.isPending}
                aria-label={`Change price of ${offer.title}`}
                onClick={edit}
              >
                Change price
              </button>
            )}
            <button
              type="button"
              className={`${buttons.secondary} ${buttons.small}`}
              disabled={update.isPending}
              aria-label={`${offer.status === 'active' ? 'Pause' : 'Resume'} ${offer.title}`}
              onClick={toggle}
            >
              {offer.status === 'active' ? 'Pause' : 'Resume'}
            </button>
            <button
              type="button"
              className={`${buttons.secondary} ${buttons.small}`}
              disabled={update.isPending}
              aria-label={`Delivery of ${offer.title}`}
              onClick={() => setChoosingDelivery(true)}
            >
              Delivery
            </button>
          </span>
          {choosingDelivery && <DeliveryDialog offer={offer} onClose={() => setChoosingDelivery(false)} />}
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


/** Active, Paused (or "Paused after failures", the breaker's), and "Hidden until 10:45" while the circuit breaker keeps the offer out of the store. */
function OfferStatus({ offer }: { offer: Offer }) {
  // The server clears hiddenUntil once it has passed (a job every minute), so a set one is a hidden offer.
  const hidden = offer.hiddenUntil !== null;
  return (
    <span className={styles.badges}>
      <span className={styles.badge} data-tone={offer.status === 'active' ? 'good' : offer.pausedAfterFailures ? 'bad' : undefined}>
        {offer.status === 'active' ? 'Active' : offer.pausedAfterFailures ? 'Paused after failures' : 'Paused'}
      </span>
      {hidden && (
        <span className={styles.badge} data-tone="bad">
          Hidden until <time dateTime={offer.hiddenUntil!}>{formatWhen(offer.hiddenUntil!, 'clock')}</time>
        </span>
      )}
    </span>
  );
}
