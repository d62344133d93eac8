import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertPreferences } from '@keystore/contract';
import { apiGet, apiSend, messageOf } from '../lib/api.ts';
import { showToast } from './toasts.tsx';
import styles from './alert-mail-switch.module.css';

const alertPreferencesQuery = queryOptions({ queryKey: ['alert-preferences'], queryFn: () => apiGet<AlertPreferences>('/api/users/alerts') });
const setAlertMails = (email: boolean) => apiSend<AlertPreferences, AlertPreferences>('PUT', '/api/users/alerts', { email });

/** Whether the wishlist's alerts are also e-mailed (issue 31); the bell tells either way. On the wishlist and in the profile. */
export function AlertMailSwitch() {
  const queryClient = useQueryClient();
  const preferences = useQuery(alertPreferencesQuery);
  const change = useMutation({
    mutationFn: setAlertMails,
    onSuccess: (answer) => queryClient.setQueryData(alertPreferencesQuery.queryKey, answer),
    onError: (error) => showToast(messageOf(error, 'Your choice could not be saved.'), 'error'),
  });
  return (
    <label className={styles.switch}>
      <input
        type="checkbox"
        role="switch"
        checked={preferences.data?.email ?? true}
        disabled={!preferences.data || change.isPending}
        onChange={(event) => change.mutate(event.target.checked)}
      />
      E-mail me when a wished game drops in price or is back in stock
    </label>
  );
}
