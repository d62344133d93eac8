import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { SellerWebhook, SellerWebhookPing } from '@keystore/contract';
import { messageOf } from '../../lib/api.ts';
import { byRule } from '../../lib/form-rules.ts';
import { sellerDeliveryMessages, SIGNATURE_HEADER, WEBHOOK_URL_MAX, webhookUrlProblem } from '@keystore/contract/seller-delivery-rules';
import { Modal } from '../../ui/modal.tsx';
import { usePingWebhook, useRotateWebhookSecret, useSetWebhook, webhookQuery } from './api.ts';
import { When } from './when.tsx';
import { IdentityFields, identityToSend, NO_IDENTITY } from './identity-fields.tsx';
import buttons from '../../ui/buttons.module.css';
import styles from './seller.module.css';

/** A signing secret on screen, and why it is there. */
interface ShownSecret {
  secret: string;
  rotated: boolean;
}

/**
 * The endpoint the store calls for declared stock (issue 24): register or change its URL, see the signing
 * secret once (on the first registration, or after a rotation), rotate it once confirmed, and send a
 * signed ping to check the receiver.
 */
export function WebhookSection({ readOnly }: { readOnly: boolean }) {
  const webhook = useQuery(webhookQuery());
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  if (webhook.isPending) {
    return (
      <p className={styles.muted} role="status">
        Loading…
      </p>
    );
  }
  if (webhook.isError) {
    return (
      <p className={styles.problem} role="alert">
        {messageOf(webhook.error, 'Could not load your webhook. Please try again.')}
      </p>
    );
  }
  const current = webhook.data;
  return (
    <>
      <section className={`${styles.panel} ${styles.stack}`} aria-labelledby="webhook-title">
        <h2 id="webhook-title" className={styles.subtitle}>
          Webhook
        </h2>
        <p className={styles.note}>
          Offers with declared stock need it: when a buyer orders, Keystore calls it to reserve keys, and once paid, to have them handed over. Every call is
          signed with your secret in the <code>{SIGNATURE_HEADER}</code> header.
        </p>
        {current ? (
          <p className={styles.note}>
            Calls go to <span className={styles.mono}>{current.url}</span>
            {current.createdAt && (
              <>
                {' '}
                · registered <When iso={current.createdAt} />
              </>
            )}
          </p>
        ) : (
          <p className={styles.note}>No webhook registered yet.</p>
        )}
        {/* A new form once registered (its button changes); a changed URL keeps the form and its "saved" note. */}
        {!readOnly && <WebhookForm key={current ? 'change' : 'register'} current={current} onSecret={(shown) => setSecret({ secret: shown, rotated: false })} />}
        {secret && <SecretBox {...secret} />}
      </section>
      {current && !readOnly && <WebhookActions onRotated={(shown) => setSecret({ secret: shown, rotated: true })} />}
    </>
  );
}

/** The URL, registered the first time (the answer carries the secret then) and changed afterwards. */
function WebhookForm({ current, onSecret }: { current: SellerWebhook | null; onSecret: (secret: string) => void }) {
  const save = useSetWebhook();
  const [saved, setSaved] = useState(false);
  const [identity, setIdentity] = useState(NO_IDENTITY);
  const [missing, setMissing] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<{ url: string }>({ defaultValues: { url: current?.url ?? '' } });
  const problem = formState.errors.url?.message;
  const submit = handleSubmit(({ url }) => {
    setSaved(false);
    if (!identity.password) return setMissing('Please enter your password');
    setMissing(null);
    save.mutate(
      { url: url.trim(), ...identityToSend(identity) },
      {
        onSuccess: (answer) => {
          setIdentity(NO_IDENTITY);
          if (answer.secret) onSecret(answer.secret);
          else setSaved(true);
        },
      },
    );
  });
  return (
    <form className={styles.stack} onSubmit={submit} noValidate>
      <div className={styles.field}>
        <label htmlFor="webhook-url">Webhook URL</label>
        <input
          id="webhook-url"
          type="url"
          inputMode="url"
          autoComplete="url"
          maxLength={WEBHOOK_URL_MAX}
          placeholder="https://keys.example.com/keystore"
          {...register('url', { validate: byRule(webhookUrlProblem) })}
          {...(problem ? { 'aria-invalid': true, 'aria-describedby': 'webhook-url-error' } : {})}
        />
        {problem && (
          <span id="webhook-url-error" className={styles.problem} role="alert">
            {problem}
          </span>
        )}
      </div>
      <IdentityFields value={identity} onChange={setIdentity} />
      {(missing || save.isError) && (
        <p className={styles.problem} role="alert">
          {missing ?? messageOf(save.error, 'The webhook could not be saved. Please try again.')}
        </p>
      )}
      {saved && (
        <p className={styles.note} role="status">
          Webhook URL saved. Your signing secret stays the same.
        </p>
      )}
      <div className={buttons.actions}>
        <button type="submit" className={buttons.primary} disabled={save.isPending}>
          {current ? 'Change URL' : 'Register webhook'}
        </button>
      </div>
    </form>
  );
}

/** The signing secret in a box to copy, with the warning that it will not be shown again. */
function SecretBox({ secret, rotated }: ShownSecret) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // No clipboard permission: the secret is on screen and can be selected by hand.
    }
  };
  return (
    <div className={`${styles.secret} ${styles.stack}`} role="status" aria-labelledby="webhook-secret-title">
      <p id="webhook-secret-title" className={styles.secretTitle}>
        {rotated ? 'Your new signing secret' : 'Your signing secret'} — shown once
      </p>
      <p className={styles.note}>
        Copy it into your receiver now: Keystore keeps it sealed and cannot show it again. If it is lost, rotate it for a new one.
        {rotated && ' Calls are signed with this one from now on.'}
      </p>
      <div className={styles.copyRow}>
        <code className={styles.secretValue}>{secret}</code>
        <button type="button" className={`${buttons.secondary} ${buttons.small}`} onClick={() => void copy()} aria-label="Copy the signing secret">
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}

/** Rotate the secret (confirmed first) and send a test ping. */
function WebhookActions({ onRotated }: { onRotated: (secret: string) => void }) {
  const rotate = useRotateWebhookSecret();
  const ping = usePingWebhook();
  const [confirming, setConfirming] = useState(false);
  const [identity, setIdentity] = useState(NO_IDENTITY);
  return (
    <section className={`${styles.panel} ${styles.stack}`} aria-labelledby="webhook-check-title">
      <h2 id="webhook-check-title" className={styles.subtitle}>
        Check and secure
      </h2>
      <div className={buttons.actions}>
        <button type="button" className={buttons.secondary} disabled={ping.isPending} onClick={() => ping.mutate()}>
          {ping.isPending ? 'Sending…' : 'Send test ping'}
        </button>
        <button
          type="button"
          className={buttons.danger}
          disabled={rotate.isPending}
          onClick={() => {
            rotate.reset();
            setConfirming(true);
          }}
        >
          Rotate secret
        </button>
      </div>
      <div aria-live="polite">
        {ping.data && <PingOutcome ping={ping.data} />}
        {ping.isError && (
          <p className={styles.problem} role="alert">
            {messageOf(ping.error, 'The ping could not be sent. Please try again.')}
          </p>
        )}
      </div>
      {confirming && (
        <Modal title="Rotate the signing secret?" busy={rotate.isPending} onClose={() => setConfirming(false)}>
          <div className={styles.stack}>
            <p className={styles.muted}>
              Every call from now on is signed with a new secret, shown once; your receiver refuses them until it has the new one. The old secret stops working at once.
            </p>
            <IdentityFields value={identity} onChange={setIdentity} />
            {rotate.isError && (
              <p className={styles.problem} role="alert">
                {messageOf(rotate.error, 'The secret could not be rotated. Please try again.')}
              </p>
            )}
            <div className={buttons.actions}>
              <button
                type="button"
                className={buttons.danger}
                disabled={rotate.isPending}
                onClick={() =>
                  rotate.mutate(identityToSend(identity), {
                    onSuccess: ({ secret }) => {
                      setConfirming(false);
                      setIdentity(NO_IDENTITY);
                      onRotated(secret);
                    },
                  })
                }
              >
                {rotate.isPending ? 'Rotating…' : 'Rotate secret'}
              </button>
              <button type="button" className={buttons.secondary} disabled={rotate.isPending} onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          </div>
        </Modal>
      )}
    </section>
  );
}

/** What the ping came back with: the HTTP status and time, or why it failed. */
function PingOutcome({ ping }: { ping: SellerWebhookPing }) {
  if (ping.ok) {
    return (
      <p className={styles.success}>
        Your endpoint answered the ping: HTTP {ping.status} in {ping.durationMs} ms.
      </p>
    );
  }
  const why = ping.error ?? (ping.status === null ? 'no answer' : `HTTP ${ping.status}`);
  return (
    <p className={styles.problem}>
      {sellerDeliveryMessages.pingFailed(why)} ({ping.durationMs} ms)
    </p>
  );
}
