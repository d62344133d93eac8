import { useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from './icons.tsx';
import { useFocusTrap } from './use-focus-trap.ts';
import styles from './modal.module.css';

interface ModalProps {
  title: string;
  /** Closing is refused while `busy` (an upload or a deletion under way). */
  busy?: boolean;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal dialog with its title and a close button: focus kept inside, Escape or a click beside it
 * closes, the page behind inert. Portalled beside the app root so the app can be made inert.
 */
export function Modal({ title, busy = false, onClose, children }: ModalProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const close = () => {
    if (!busy) onClose();
  };
  useFocusTrap(ref, close, { isolate: true });

  return createPortal(
    <div
      className={styles.backdrop}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      {/* tabIndex -1: a click on the dialog's text keeps focus in the dialog, not on the page behind. */}
      <div ref={ref} className={styles.dialog} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <div className={styles.head}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          <button type="button" className={styles.close} aria-label="Close" onClick={close} disabled={busy}>
            <CloseIcon />
          </button>
        </div>
        {children}
      </div>
    </div>,
    document.body,
  );
}
