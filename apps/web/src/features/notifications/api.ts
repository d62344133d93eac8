import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Notification, StreamTicket } from '@keystore/contract';
import { apiGet, apiSend } from '../../lib/api.ts';
import { readIds, rememberRead } from './visitor-reads.ts';

// The bell's calls (SPEC §7, notifications).

/** The bell's list of a signed-in user (by token) or of a visitor. */
export const notificationsKey = (token: string | null) => ['notifications', token ?? 'visitor'] as const;

/**
 * The list for a user (failures silently empty it) or a visitor (failures show the demo ones, and the
 * read state is this browser's), SPEC §7-8. Fresh for a minute: new ones arrive over the event stream.
 */
export function notificationsQuery(token: string | null) {
  return queryOptions({
    queryKey: notificationsKey(token),
    queryFn: async (): Promise<Notification[]> => {
      if (token) return apiGet<Notification[]>('/api/notifications').catch(() => []);
      const list = await apiGet<Notification[]>('/api/notifications/public').catch(demoNotifications);
      const read = readIds();
      return list.map((n) => ({ ...n, isRead: read.has(n._id) }));
    },
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * The demo notifications, loaded only when a visitor's list cannot be fetched: every first view carries
 * the bell, rarely its fallback (decision 027). Without even that chunk, the list is empty.
 */
function demoNotifications(): Promise<Notification[]> {
  return import('./demo-notifications.ts').then(({ DEMO_NOTIFICATIONS }) => [...DEMO_NOTIFICATIONS]).catch(() => []);
}

/**
 * Marks notifications read: at once in the list, then on the server one call per item (SPEC §7) for a
 * user, or in this browser for a visitor. A failed call only leaves the item unread at the next fetch.
 */
export function useMarkNotificationsRead(token: string | null) {
  const client = useQueryClient();
  return useMutation({
    onMutate: (ids: string[]) => {
      client.setQueryData<Notification[]>(notificationsKey(token), (list) => list?.map((n) => (ids.includes(n._id) ? { ...n, isRead: true } : n)));
    },
    mutationFn: async (ids: string[]) => {
      if (!token) return rememberRead(ids);
      // 204, no body.
      await Promise.all(ids.map((id) => apiSend<undefined>('POST', `/api/notifications/mark-read/${encodeURIComponent(id)}`).catch(() => undefined)));
    },
  });
}

/** A one-use ticket for the event stream, asked for with the bearer token (EventSource cannot send headers). */
export async function streamTicket(): Promise<string> {
  return (await apiSend<StreamTicket>('POST', '/api/notifications/stream-ticket')).ticket;
}
