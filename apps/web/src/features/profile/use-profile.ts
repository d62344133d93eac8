import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { clearSession, updateUser } from '../../lib/session.ts';
import { profileQuery } from './api.ts';

/**
 * Fetches the profile afresh when the page opens, so the figures are current, and shares it with
 * the rest of the app through the session. A 401 removes the token, clears the user and goes to
 * /login (SPEC §4); any other failure keeps what the session already holds.
 */
export function useProfileRefresh(token: string): void {
  const navigate = useNavigate();
  const { data, error } = useQuery(profileQuery(token));
  useEffect(() => {
    if (data) updateUser(data);
  }, [data]);
  useEffect(() => {
    if (!(error instanceof ApiError) || error.status !== 401) return;
    clearSession();
    navigate('/login', { replace: true });
  }, [error, navigate]);
}
