import { queryOptions } from '@tanstack/react-query';
import type { VisitorPlace } from '@keystore/contract';
import { apiGet } from './api.ts';

/** Where the visitor seems to be (GET /api/visitor), asked once a visit: the game page's and the cart's region warning. */
export const visitorPlaceQuery = queryOptions({ queryKey: ['visitor-place'], queryFn: () => apiGet<VisitorPlace>('/api/visitor'), staleTime: Infinity, retry: false });
