import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { Notification } from '@keystore/contract';
import { ApiError } from '../../lib/api.ts';
import { useSession, visitorSessionId } from '../../lib/session.ts';
import { notificationsKey, notificationsQuery, streamTicket, useMarkNotificationsRead } from './api.ts';

/** The list as the bell shows it, with its unread count and the calls that change it. */
export interface NotificationsState {
  notifications: Notification[];
  unreadCount: number;
  refetch: () => void;
  markRead: (ids: string[]) => void;
}

const LIST_LIMIT = 50;

/**
 * The bell's notifications (SPEC §4): a signed-in user's from the server with read state kept
 * there; a visitor's public ones with read state kept in this browser, or the two demo
 * notifications when the public list cannot be fetched. New ones arrive live over the event stream.
 */
export function useNotifications(): NotificationsState {
  const { status, token } = useSession();
  const client = useQueryClient();
  const query = useQuery({
    ...notificationsQuery(token),
    // A stored token is checked first: the visitor's list would flash up for a signed-in user.
    enabled: status !== 'restoring',
  });
  const { mutate: markReadNow } = useMarkNotificationsRead(token);

  useEffect(() => {
    if (status === 'restoring' || typeof EventSource === 'undefined') return undefined;
    const queryKey = notificationsKey(token);
    return openStream(token !== null, {
      arrived: (arrived) =>
        client.setQueryData<Notification[]>(queryKey, (list = []) => [arrived, ...list.filter((n) => n._id !== arrived._id)].slice(0, LIST_LIMIT)),
      // What was created while the stream was away is fetched once it is back.
      reconnected: () => void client.invalidateQueries({ queryKey }),
    });
  }, [status, token, client]);

  const markRead = useCallback(
    (ids: string[]) => {
      if (ids.length > 0) markReadNow(ids);
    },
    [markReadNow],
  );

  const notifications = query.data ?? [];
  return {
    notifications,
    unreadCount: notifications.filter((n) => !n.isRead).length,
    refetch: () => void query.refetch(),
    markRead,
  };
}

/** The longest wait before opening a lost stream again. */
const MAX_REOPEN_DELAY_MS = 30_000;

/**
 * Keeps a live stream open until the returned function is called. EventSource cannot send headers:
 * a signed-in user's stream opens with a one-use ticket asked for with the bearer token (the token
 * itself never goes in a URL, where logs and proxies keep it), a visitor's with the session id. A
 * lost stream is opened again with a new ticket, after a growing, jittered wait.
 */
function openStream(signedIn: boolean, on: { arrived: (notification: Notification) => void; reconnected: () => void }): () => void {
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let opened = false;
  let stopped = false;

  const reopenLater = () => {
    failures += 1;
    const ceiling = Math.min(MAX_REOPEN_DELAY_MS, 1000 * 2 ** Math.min(failures, 5));
    timer = setTimeout(() => void open(), ceiling / 2 + Math.random() * (ceiling / 2));
  };

  const open = async () => {
    let credentials: string;
    try {
      credentials = signedIn
        ? `ticket=${encodeURIComponent(await streamTicket())}`
        : `sessionId=${encodeURIComponent(visitorSessionId())}`;
    } catch (error) {
      // A session that has ended gets no stream; any other failure tries again.
      if (!stopped && !(error instanceof ApiError && error.status === 401)) reopenLater();
      return;
    }
    if (stopped) return;
    source = new EventSource(`/api/notifications/stream?${credentials}`);
    source.addEventListener('open', () => {
      if (opened) on.reconnected();
      opened = true;
      failures = 0;
    });
    source.addEventListener('notification', (event) => on.arrived(JSON.parse((event as MessageEvent<string>).data) as Notification));
    source.addEventListener('error', () => {
      // The browser would open the same URL again, with a ticket already used: this opens a new one.
      source?.close();
      if (!stopped) reopenLater();
    });
  };

  void open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
}
