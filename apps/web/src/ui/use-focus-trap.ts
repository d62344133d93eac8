import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface FocusTrapOptions {
  /** Where focus goes on open: the first control, or the container itself (a dialog with tabIndex -1). */
  initialFocus?: 'first' | 'container';
  /**
   * For a dialog rendered beside the app root: makes the whole app inert and stops the page behind
   * from scrolling while it is open.
   */
  isolate?: boolean;
}

/**
 * Keeps keyboard focus inside a modal while it is open: focus moves in on open, Tab and Shift+Tab
 * wrap around, Escape calls `onEscape`, and focus returns to where it was on close.
 */
export function useFocusTrap(container: RefObject<HTMLElement | null>, onEscape: () => void, options: FocusTrapOptions = {}): void {
  const { initialFocus = 'first', isolate = false } = options;
  // Held in a ref so a new callback each render does not re-run the effect (which would move focus).
  const escape = useRef(onEscape);
  useEffect(() => {
    escape.current = onEscape;
  });

  useEffect(() => {
    const box = container.current;
    if (!box) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const app = isolate ? document.getElementById('root') : null;
    const appWasInert = app?.inert ?? false;
    const overflow = document.body.style.overflow;
    if (app) app.inert = true;
    if (isolate) document.body.style.overflow = 'hidden';
    const items = () => [...box.querySelectorAll<HTMLElement>(FOCUSABLE)];
    (initialFocus === 'container' ? box : (items()[0] ?? box)).focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        escape.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const list = items();
      const first = list[0];
      const last = list.at(-1);
      if (!first || !last) return event.preventDefault();
      const active = document.activeElement;
      const inside = box.contains(active);
      if (event.shiftKey && (active === first || active === box || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      if (app) app.inert = appWasInert;
      if (isolate) document.body.style.overflow = overflow;
      if (before?.isConnected) before.focus();
    };
  }, [container, initialFocus, isolate]);
}
