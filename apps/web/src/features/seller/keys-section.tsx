import { useQuery } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { KEYS_PER_UPLOAD, sellerMessages } from '@keystore/contract/seller-rules';
import { messageOf } from '../../lib/api.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { offerKeysQuery, offersQuery, useDeleteKey, useUploadKeys } from './api.ts';
import buttons from '../../ui/buttons.module.css';
import styles from './seller.module.css';

/** The keys of a pasted list or an uploaded .txt/.csv: one a line (or a cell), blanks and a "key" header dropped. */
export function keysOfText(text: string): string[] {
  return text
    .split(/[\r\n,;\t]+/)
    .map((serial) => serial.trim().replace(/^"(.*)"$/, '$1').trim())
    .filter((serial) => serial.length > 0 && !/^(keys?|serials?|codes?)$/i.test(serial));
}

/** An offer's keys: choose the offer, paste a list or upload a .txt/.csv, and see its keys, masked. */
export function KeysSection({ readOnly }: { readOnly: boolean }) {
  const offers = useQuery(offersQuery());
  const [chosen, setChosen] = useState('');
  if (offers.isPending) {
    return (
      <p className={styles.muted} role="status">
        Loading…
      </p>
    );
  }
  if (offers.isError) {
    return (
      <p className={styles.problem} role="alert">
        {messageOf(offers.error, 'Could not load your offers. Please try again.')}
      </p>
    );
  }
  if (offers.data.length === 0) return <p className={styles.muted}>Add an offer first: keys belong to an offer.</p>;
  const offerId = chosen || offers.data[0]!._id;
  return (
    <>
      <div className={styles.field}>
        <label htmlFor="keys-offer">Offer</label>
        <select id="keys-offer" value={offerId} onChange={(event) => setChosen(event.target.value)}>
          {offers.data.map((offer) => (
            <option key={offer._id} value={offer._id}>
              {offer.title} ({offer.stock} keys)
            </option>
          ))}
        </select>
      </div>
      {!readOnly && <KeyUpload key={offerId} offerId={offerId} />}
      <OfferKeys offerId={offerId} readOnly={readOnly} />
    </>
  );
}

function KeyUpload({ offerId }: { offerId: string }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useUploadKeys(offerId);

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) setText(await file.text());
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const serials = keysOfText(text);
    if (serials.length === 0 || serials.length > KEYS_PER_UPLOAD) return setProblem(sellerMessages.keysInvalid);
    setProblem(null);
    upload.mutate(serials, { onSuccess: () => setText('') });
  };

  const shownProblem = problem ?? (upload.isError ? messageOf(upload.error, 'The keys could not be uploaded. Please try again.') : null);
  return (
    <form className={`${styles.panel} ${styles.stack}`} onSubmit={submit} noValidate aria-labelledby="keys-upload-title">
      <h2 id="keys-upload-title" className={styles.subtitle}>
        Add keys
      </h2>
      <div className={styles.field}>
        <label htmlFor="keys-text">Keys, one a line</label>
        <textarea id="keys-text" rows={6} value={text} onChange={(event) => setText(event.target.value)} />
      </div>
      <div className={styles.field}>
        <label htmlFor="keys-file">Or a .txt or .csv file</label>
        <input id="keys-file" type="file" accept=".txt,.csv,text/plain,text/csv" onChange={(event) => void readFile(event)} />
      </div>
      {shownProblem && (
        <p className={styles.problem} role="alert">
          {shownProblem}
        </p>
      )}
      {upload.data && (
        <p className={styles.note} role="status">
          {upload.data.added} added · {upload.data.duplicates} duplicates · {upload.data.invalid} invalid
        </p>
      )}
      <div className={buttons.actions}>
        <button type="submit" className={buttons.primary} disabled={upload.isPending}>
          {upload.isPending ? 'Uploading…' : 'Upload keys'}
        </button>
      </div>
    </form>
  );
}

const STATE_LABELS = { available: 'Available', reserved: 'Reserved', sold: 'Sold' } as const;

/** The offer's keys as a seller may see them: masked, with Delete for one not reserved or sold. */
function OfferKeys({ offerId, readOnly }: { offerId: string; readOnly: boolean }) {
  const keys = useQuery(offerKeysQuery(offerId));
  const remove = useDeleteKey(offerId);
  if (keys.isPending) {
    return (
      <p className={styles.muted} role="status">
        Loading…
      </p>
    );
  }
  if (keys.isError) {
    return (
      <p className={styles.problem} role="alert">
        {messageOf(keys.error, 'Could not load the keys. Please try again.')}
      </p>
    );
  }
  if (keys.data.length === 0) return <p className={styles.muted}>No keys for this offer yet.</p>;
  return (
    <>
      {remove.isError && (
        <p className={styles.problem} role="alert">
          {messageOf(remove.error, 'The key could not be deleted. Please try again.')}
        </p>
      )}
      <DataTable caption="Keys of the offer" captionHidden columns={['Key', 'State', ...(readOnly ? [] : ['Action'])]} className={styles.tableWrap}>
        {keys.data.map((key) => (
          <tr key={key._id}>
            <th scope="row" className={styles.mono}>
              {key.masked}
            </th>
            <td>{STATE_LABELS[key.state]}</td>
            {!readOnly && (
              <td>
                {key.state === 'available' && (
                  <button
                    type="button"
                    className={`${buttons.danger} ${buttons.small}`}
                    disabled={remove.isPending}
                    aria-label={`Delete key ${key.masked}`}
                    onClick={() => remove.mutate(key._id)}
                  >
                    Delete
                  </button>
                )}
              </td>
            )}
          </tr>
        ))}
      </DataTable>
    </>
  );
}
