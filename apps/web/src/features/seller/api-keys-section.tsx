import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ApiKey } from '@keystore/contract';
import { apiKeyNameProblem } from '@keystore/contract/seller-rules';
import { messageOf } from '../../lib/api.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { Modal } from '../../ui/modal.tsx';
import { apiKeysQuery, useCreateApiKey, useRevokeApiKey } from './api.ts';
import { IdentityFields, identityToSend, NO_IDENTITY } from './identity-fields.tsx';
import buttons from '../../ui/buttons.module.css';
import styles from './seller.module.css';

/** API keys for the seller's own systems: a new key is shown once, then only its name; any can be revoked, once confirmed. */
export function ApiKeysSection({ readOnly }: { readOnly: boolean }) {
  const keys = useQuery(apiKeysQuery());
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [identity, setIdentity] = useState(NO_IDENTITY);
  const [problem, setProblem] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const nameProblem = apiKeyNameProblem(name);
    if (nameProblem) return setProblem(nameProblem);
    if (!identity.password) return setProblem('Please enter your password');
    setProblem(null);
    create.mutate(
      { name: name.trim(), ...identityToSend(identity) },
      {
        onSuccess: () => {
          setName('');
          setIdentity(NO_IDENTITY);
        },
      },
    );
  };

  const shownProblem = problem ?? (create.isError ? messageOf(create.error, 'The API key could not be created. Please try again.') : null);
  return (
    <>
      {!readOnly && (
        <form className={`${styles.panel} ${styles.stack}`} onSubmit={submit} noValidate aria-labelledby="api-key-title">
          <h2 id="api-key-title" className={styles.subtitle}>
            New API key
          </h2>
          <p className={styles.note}>Your systems send it as the X-Api-Key header of /api/seller/* calls. A key is as good as your password: type it again to make one.</p>
          <div className={styles.field}>
            <label htmlFor="api-key-name">Name</label>
            <input id="api-key-name" value={name} onChange={(event) => setName(event.target.value)} />
          </div>
          <IdentityFields value={identity} onChange={setIdentity} />
          {shownProblem && (
            <p className={styles.problem} role="alert">
              {shownProblem}
            </p>
          )}
          {create.data && (
            <div className={styles.secret} role="status">
              <p className={styles.note}>Copy the key “{create.data.name}” now: it is shown only this once.</p>
              <p className={styles.mono}>
                {create.data.key}
              </p>
            </div>
          )}
          <div className={buttons.actions}>
            <button type="submit" className={buttons.primary} disabled={create.isPending}>
              Create key
            </button>
          </div>
        </form>
      )}
      {keys.isPending && <p className={styles.muted}>Loading…</p>}
      {keys.isError && (
        <p className={styles.problem} role="alert">
          {messageOf(keys.error, 'Could not load your API keys. Please try again.')}
        </p>
      )}
      {keys.data && keys.data.length === 0 && <p className={styles.muted}>No API keys.</p>}
      {keys.data && keys.data.length > 0 && (
        <DataTable caption="Your API keys" captionHidden columns={['Name', 'Created', 'Last used', ...(readOnly ? [] : ['Action'])]} className={styles.tableWrap}>
          {keys.data.map((key) => (
            <tr key={key._id}>
              <th scope="row">{key.name}</th>
              <td>{key.createdAt.slice(0, 10)}</td>
              <td>{key.lastUsedAt?.slice(0, 10) ?? 'Never'}</td>
              {!readOnly && (
                <td>
                  <button
                    type="button"
                    className={`${buttons.danger} ${buttons.small}`}
                    disabled={revoke.isPending}
                    aria-label={`Revoke ${key.name}`}
                    onClick={() => {
                      revoke.reset();
                      setRevoking(key);
                    }}
                  >
                    Revoke
                  </button>
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      )}
      {revoking && (
        <Modal title={`Revoke “${revoking.name}”?`} busy={revoke.isPending} onClose={() => setRevoking(null)}>
          <div className={styles.stack}>
            <p className={styles.muted}>Systems that send this key are refused from now on. This cannot be undone: a new key has to be created and set up instead.</p>
            {revoke.isError && (
              <p className={styles.problem} role="alert">
                {messageOf(revoke.error, 'The API key could not be revoked. Please try again.')}
              </p>
            )}
            <div className={buttons.actions}>
              <button type="button" className={buttons.danger} disabled={revoke.isPending} onClick={() => revoke.mutate(revoking._id, { onSuccess: () => setRevoking(null) })}>
                {revoke.isPending ? 'Revoking…' : 'Revoke key'}
              </button>
              <button type="button" className={buttons.secondary} disabled={revoke.isPending} onClick={() => setRevoking(null)}>
                Cancel
              </button>
            </div>
          </div>
        </Modal>
      )}
    </>
  );
}
