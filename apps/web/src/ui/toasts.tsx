import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { CloseIcon } from './icons.tsx';
import styles from './toasts.module.css';

/** How long a toast stays on screen (SPEC §9). */
const TOAST_MS = 4000;

export type ToastTone = 'success' | 'error';

interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
}

const toastStore = createStore<{ toasts: readonly Toast[] }>(() => ({ toasts: [] }));
const toasts = () => toastStore.getState().toasts;
let nextId = 1;

function set(next: readonly Toast[]): void {
  toastStore.setState({ toasts: next });
}

/** Shows a short message in the toast region; it closes by itself after TOAST_MS (SPEC §9). */
export function showToast(message: string, tone: ToastTone = 'success'): void {
  set([...toasts(), { id: nextId++, message, tone }]);
}

/** Shows a message unless it is on screen already (many calls meeting the same trouble at once say it once). */
export function showToastOnce(message: string, tone: ToastTone = 'success'): void {
  if (!toasts().some((toast) => toast.message === message)) showToast(message, tone);
}

/** Removes every toast at once (a fresh start, as in tests). */
export function clearToasts(): void {
  set([]);
}

function dismiss(id: number): void {
  set(toasts().filter((toast) => toast.id !== id));
}

/**
 * The one live region that announces toasts, mounted once by the layout. It is portalled beside the
 * app root so it stays readable and clickable while a modal makes the app inert.
 */
export function Toasts() {
  const list = useStore(toastStore, (state) => state.toasts);
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
