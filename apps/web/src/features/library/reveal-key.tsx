import { useState } from 'react';
import { orderUiMessages } from '@keystore/contract/order-ui-messages';
import { activationFor } from '@keystore/contract/activation-rules';
import { messageOf } from '../../lib/api.ts';
import { FoldedActivationGuide } from '../../ui/activation-guide.tsx';
import { useRevealKey, type KeyLink } from './api.ts';
import styles from './library-page.module.css';

/**
 * 'Reveal Key': the key is fetched only when asked for (GET /api/purchases/{id}/key, or through the
 * `link` of the order's or the gift's page), so it is not on screen, or in memory, until the owner wants it.
 * Then 'Product Key:' with a copy button, and how to activate it on its platform (issue 31).
 */
export function RevealKey({ purchaseId, title, link, platform }: { purchaseId: string; title: string; link?: KeyLink; platform?: string | undefined }) {
  const revealKey = useRevealKey(link);
  const key = revealKey.data?.key ?? null;
  const busy = revealKey.isPending;
  const problem = revealKey.error ? messageOf(revealKey.error, orderUiMessages.keyLoadFailed) : null;
  const [copied, setCopied] = useState(false);

  const reveal = () => revealKey.mutate(purchaseId);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(key!);
      setCopied(true);
    } catch {
      // No clipboard permission: the key is on screen and can be selected by hand.
    }
  };

  if (key) {
    return (
      <div className={styles.key}>
        <p className={styles.keyLabel}>Product Key:</p>
        <div className={styles.keyRow}>
          <code className={styles.keyValue}>{key}</code>
          <button type="button" className={styles.copy} onClick={() => void copy()} aria-label={`Copy the key of ${title}`}>
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
        <span className="visually-hidden" role="status">
          {copied ? 'Key copied' : ''}
        </span>
        {platform !== undefined && <FoldedActivationGuide guide={activationFor(platform)} />}
      </div>
    );
  }
  return (
    <>
      {problem && (
        <p className={styles.keyProblem} role="alert">
          {problem}
        </p>
      )}
      <button type="button" className={styles.reveal} onClick={reveal} disabled={busy} aria-label={`Reveal Key of ${title}`}>
        {busy ? 'Revealing…' : 'Reveal Key'}
      </button>
    </>
  );
}
