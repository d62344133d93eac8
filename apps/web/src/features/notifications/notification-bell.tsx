import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { BellIcon } from '../../ui/icons.tsx';
import { useNotifications } from './use-notifications.ts';
import styles from './notifications.module.css';

// The dropdown is fetched only when first wanted; the bell and its count are part of the header.
const loadPanel = () => import('./notifications-panel.tsx');
const NotificationsPanel = lazy(() => loadPanel().then((module) => ({ default: module.NotificationsPanel })));

/** The header's bell: the unread count, and the notifications dropdown (SPEC §2, §4). */
export function NotificationBell() {
  const state = useNotifications();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const bell = useRef<HTMLButtonElement>(null);
  const { unreadCount, refetch } = state;

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) bell.current?.focus();
  };

  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close(true);
    const onPointer = (event: MouseEvent) => !root.current?.contains(event.target as Node) && close(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onPointer);
    };
  }, [open]);

  const toggle = () => {
    // Opening refetches (SPEC §4); the list shown meanwhile is the one already held.
    if (!open) refetch();
    setOpen(!open);
  };

  const label = unreadCount > 0 ? `Notifications, ${unreadCount} unread` : 'Notifications';
  return (
    <div className={styles.bellRoot} ref={root}>
      <button
        ref={bell}
        type="button"
        className={styles.bell}
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={toggle}
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
      >
        <BellIcon />
        {unreadCount > 0 && (
          <span className={styles.badge} aria-hidden="true">
            {unreadCount > 99 ? '99+' : unreadCount}
          </span>
        )}
      </button>
      {open && (
        <Suspense fallback={null}>
          <NotificationsPanel id={panelId} state={state} onClose={() => close(true)} />
        </Suspense>
      )}
    </div>
  );
}
