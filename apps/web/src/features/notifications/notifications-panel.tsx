import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { Notification } from '@keystore/contract';
import { CloseIcon } from '../../ui/icons.tsx';
import { formatNotificationTime, stripQuotes } from './notification-format.ts';
import type { NotificationsState } from './use-notifications.ts';
import styles from './notifications.module.css';

/** Notifications shown while the dropdown is collapsed (SPEC §9). */
const NOTIFICATIONS_COLLAPSED_COUNT = 2;

/**
 * The notifications dropdown (SPEC §2): the first 2 items until 'View All Notifications', 'Read all'
 * and a close button. It is unmounted on close, so it opens collapsed again (SPEC §4).
 */
export function NotificationsPanel({ id, state, onClose }: { id: string; state: NotificationsState; onClose: () => void }) {
  const { notifications, markRead } = state;
  const [expanded, setExpanded] = useState(false);
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), []);

  const shown = expanded ? notifications : notifications.slice(0, NOTIFICATIONS_COLLAPSED_COUNT);
  const unreadIds = notifications.filter((n) => !n.isRead).map((n) => n._id);
  return (
    <div id={id} ref={panel} className={styles.panel} role="dialog" aria-labelledby={titleId} tabIndex={-1}>
      <div className={styles.top}>
        <h2 id={titleId} className={styles.title}>
          Notifications
        </h2>
        <button type="button" className={styles.readAll} onClick={() => markRead(unreadIds)} disabled={unreadIds.length === 0}>
          Read all
        </button>
        <button type="button" className={styles.close} aria-label="Close notifications" onClick={onClose}>
          <CloseIcon />
        </button>
      </div>
      {notifications.length === 0 ? (
        <p className={styles.empty}>No notifications yet</p>
      ) : (
        <ul className={styles.list}>
          {shown.map((notification) => (
            <NotificationItem key={notification._id} notification={notification} onRead={() => markRead([notification._id])} onFollow={onClose} />
          ))}
        </ul>
      )}
      {notifications.length > NOTIFICATIONS_COLLAPSED_COUNT && (
        <button type="button" className={styles.toggle} aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
          {expanded ? 'View Less' : 'View All Notifications'}
        </button>
      )}
    </div>
  );
}

/** One notification; opening it (its link, or the item itself) marks it read. */
function NotificationItem({ notification, onRead, onFollow }: { notification: Notification; onRead: () => void; onFollow: () => void }) {
  const unread = !notification.isRead;
  const body = (
    <>
      <span className={styles.dot} data-unread={unread} aria-hidden="true" />
      <span className={styles.itemText}>
        {unread && <span className="visually-hidden">Unread: </span>}
        <strong className={styles.itemTitle}>{stripQuotes(notification.title)}</strong>
        <span className={styles.itemBody}>{stripQuotes(notification.text)}</span>
        <time className={styles.time} dateTime={notification.generatedAt}>
          {formatNotificationTime(notification.rawTimestamp)}
        </time>
      </span>
    </>
  );
  return (
    <li>
      {notification.link ? (
        <Link
          to={notification.link}
          className={styles.item}
          onClick={() => {
            if (unread) onRead();
            onFollow();
          }}
        >
          {body}
        </Link>
      ) : (
        <button type="button" className={styles.item} onClick={() => unread && onRead()}>
          {body}
        </button>
      )}
    </li>
  );
}
