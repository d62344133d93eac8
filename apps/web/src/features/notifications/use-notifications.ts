import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import type { Notification } from '@keystore/contract';
import { DEMO_NOTIFICATIONS } from '@keystore/contract/constants';
import { apiGet, apiSend } from '../../lib/api.ts';
import { useSession, visitorSessionId } from '../../lib/session.ts';
import { readIds, rememberRead } from './visitor-reads.ts';

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
  const queryKey = useMemo(() => ['notifications', token ?? 'visitor'], [token]);
  const query = useQuery({
    queryKey,
    queryFn: () => fetchNotifications(token),
    // A stored token is checked first: the visitor's list would flash up for a signed-in user.
    enabled: status !== 'restoring',
    staleTime: 60_000,
    retry: false,
  });

  useEffect(() => {
    if (status === 'restoring' || typeof EventSource === 'undefined') return undefined;
    // EventSource cannot send headers: the token or the session id travels in the query string.
    const credentials = token ? `token=${encodeURIComponent(token)}` : `sessionId=${encodeURIComponent(visitorSessionId())}`;
    const source = new EventSource(`/api/notifications/stream?${credentials}`);
    source.addEventListener('notification', (event) => {
      const arrived = JSON.parse((event as MessageEvent<string>).data) as Notification;
      client.setQueryData<Notification[]>(queryKey, (list = []) => [arrived, ...list.filter((n) => n._id !== arrived._id)].slice(0, LIST_LIMIT));
    });
    return () => source.close();
  }, [status, token, client, queryKey]);

  const markRead = useCallback(
    (ids: string[]) => {
      if (ids.length === 0) return;
      client.setQueryData<Notification[]>(queryKey, (list) => list?.map((n) => (ids.includes(n._id) ? { ...n, isRead: true } : n)));
      if (!token) return rememberRead(ids);
      // One call per item (SPEC §7); a failed call only leaves the item unread at the next fetch.
      for (const id of ids) void apiSend('POST', `/api/notifications/mark-read/${encodeURIComponent(id)}`).catch(() => undefined);
    },
    [client, queryKey, token],
  );

  const notifications = query.data ?? [];
  return {
    notifications,
    unreadCount: notifications.filter((n) => !n.isRead).length,
    refetch: () => void query.refetch(),
    markRead,
  };
}

/** The list for a user (failures silently empty it) or a visitor (failures show the demo ones), SPEC §7-8. */
async function fetchNotifications(token: string | null): Promise<Notification[]> {
  if (token) return apiGet<Notification[]>('/api/notifications').catch(() => []);
  const list = await apiGet<Notification[]>('/api/notifications/public').catch(() => [...DEMO_NOTIFICATIONS]);
  const read = readIds();
  return list.map((n) => ({ ...n, isRead: read.has(n._id) }));
}
