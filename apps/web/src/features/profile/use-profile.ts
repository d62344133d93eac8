import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import type { User } from '@keystore/contract';
import { ApiError, apiGet } from '../../lib/api.ts';
import { clearSession, updateUser } from '../../lib/session.ts';

/**
 * Fetches the profile afresh when the page opens, so the figures are current, and shares it with
 * the rest of the app through the session. A 401 removes the token, clears the user and goes to
 * /login (SPEC §4); any other failure keeps what the session already holds.
 */
export function useProfileRefresh(token: string): void {
  const navigate = useNavigate();
  const { data, error } = useQuery({
    queryKey: ['profile', token],
    queryFn: () => apiGet<User>('/api/users/profile'),
    staleTime: 0,
    retry: false,
  });
  useEffect(() => {
    if (data) updateUser(data);
  }, [data]);
  useEffect(() => {
    if (!(error instanceof ApiError) || error.status !== 401) return;
    clearSession();
    navigate('/login', { replace: true });
  }, [error, navigate]);
}
