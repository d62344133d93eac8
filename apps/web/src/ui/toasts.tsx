import { useEffect, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { TOAST_MS } from '@keystore/contract/constants';
import { CloseIcon } from './icons.tsx';
import styles from './toasts.module.css';

export type ToastTone = 'success' | 'error';

interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let toasts: readonly Toast[] = [];
let nextId = 1;

function set(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows a short message in the toast region; it closes by itself after TOAST_MS (SPEC §9). */
export function showToast(message: string, tone: ToastTone = 'success'): void {
  set([...toasts, { id: nextId++, message, tone }]);
}

/** Shows a message unless it is on screen already (many calls meeting the same trouble at once say it once). */
export function showToastOnce(message: string, tone: ToastTone = 'success'): void {
  if (!toasts.some((toast) => toast.message === message)) showToast(message, tone);
}

/** Removes every toast at once (a fresh start, as in tests). */
export function clearToasts(): void {
  set([]);
}

function dismiss(id: number): void {
  set(toasts.filter((toast) => toast.id !== id));
}

/**
 * The one live region that announces toasts, mounted once by the layout. It is portalled beside the
 * app root so it stays readable and clickable while a modal makes the app inert.
 */
export function Toasts() {
  const list = useSyncExternalStore(subscribe, () => toasts, () => toasts);
  return createPortal(
    <section className={styles.region} aria-label="Messages" aria-live="polite">
      {list.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </section>,
    document.body,
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  useEffect(() => {
    const timer = setTimeout(() => dismiss(toast.id), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast.id]);
  return (
    <div className={styles.toast} data-tone={toast.tone}>
      <p className={styles.message}>{toast.message}</p>
      <button type="button" className={styles.close} aria-label="Dismiss notification" onClick={() => dismiss(toast.id)}>
        <CloseIcon />
      </button>
    </div>
  );
}
