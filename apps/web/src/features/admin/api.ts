import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AdminActionRequest,
  AdminGame,
  AdminGameList,
  AdminGamePatch,
  AdminNotificationRequest,
  AdminOrder,
  AdminOrderList,
  AdminSeller,
  AdminSellerList,
  AdminSellerPatch,
  AdminSettings,
  AdminSettingsPatch,
  AdminStats,
  AdminSupportList,
  AdminSupportReply,
  AdminUser,
  AdminUserList,
  AdminUserPatch,
  AuditList,
  Backtest,
  BacktestRequest,
  BlocklistCreate,
  BlocklistEntry,
  Claim,
  ClaimOutcome,
  ClaimState,
  DeliveryStatus,
  LedgerBalance,
  Notification,
  OrderStatus,
  Payout,
  ReviewDecision,
  RiskFigures,
  RiskQueueEntry,
  RiskRule,
  RiskRuleSet,
  RiskRulesUpdate,
  SellerStatus,
  SupportStatus,
  SyncRun,
} from '@keystore/contract';
import { ApiError, apiGet, apiSend } from '../../lib/api.ts';
import { authHeaders } from '../../lib/session.ts';

// The back office's calls (issue 15, /api/admin/*): queries keyed under 'admin', and mutations that
// invalidate what they change. Tables keep the previous page on screen while the next one loads.

const ADMIN = ['admin'] as const;
const keys = {
  stats: [...ADMIN, 'stats'] as const,
  orders: [...ADMIN, 'orders'] as const,
  users: [...ADMIN, 'users'] as const,
  syncRuns: [...ADMIN, 'sync-runs'] as const,
  games: [...ADMIN, 'games'] as const,
  settings: [...ADMIN, 'settings'] as const,
  support: [...ADMIN, 'support'] as const,
  audit: [...ADMIN, 'audit'] as const,
  sellers: [...ADMIN, 'sellers'] as const,
  payouts: [...ADMIN, 'payouts'] as const,
  ledger: [...ADMIN, 'ledger'] as const,
  claims: [...ADMIN, 'claims'] as const,
};

/** A query string of the filters that are set ('' when none is). */
function searchOf(filters: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The dashboard's figures for whole days from `from` to `to` (YYYY-MM-DD, UTC). */
export function statsQuery(from: string, to: string) {
  return queryOptions({ queryKey: [...keys.stats, from, to], queryFn: () => apiGet<AdminStats>(`/api/admin/stats${searchOf({ from, to })}`) });
}

/** The orders table's filters, as the URL and the API spell them. */
export interface OrderFilters {
  status?: OrderStatus;
  deliveryStatus?: DeliveryStatus;
  q?: string;
  from?: string;
  to?: string;
  page?: number;
}

export function ordersQuery(filters: OrderFilters) {
  return queryOptions({
    queryKey: [...keys.orders, 'list', filters],
    queryFn: () => apiGet<AdminOrderList>(`/api/admin/orders${searchOf({ ...filters })}`),
    placeholderData: keepPreviousData,
  });
}

/** The CSV export of the orders the filters select (a download link; the page is left out). */
export function ordersCsvHref({ page: _page, ...filters }: OrderFilters): string {
  return `/api/admin/orders.csv${searchOf({ ...filters })}`;
}

/** Saves the CSV export as a file: fetched with the session's token (a plain link would not send it). */
export async function downloadOrdersCsv(filters: OrderFilters): Promise<void> {
  const response = await fetch(ordersCsvHref(filters), { headers: authHeaders() });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    throw new ApiError(response.status, typeof body === 'object' && body !== null && 'error' in body ? String(body.error) : response.statusText);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: 'orders.csv' });
  link.click();
  // The browser has taken the file once the click's task is over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function orderQuery(id: string) {
  return queryOptions({ queryKey: [...keys.orders, 'one', id], queryFn: () => apiGet<AdminOrder>(`/api/admin/orders/${encodeURIComponent(id)}`), retry: false });
}

/** An admin's action on an order: support's three, and the risk desk's two on an order in review (issue 29). */
export type OrderAction = 'refund' | 'resend' | 'retry-delivery' | 'approve' | 'cancel';

/**
 * Refunds, resends or retries an order, or approves or cancels one in review (the reason is then the
 * decision's note); the order, the lists, the review queue, the figures and the audit log are fetched again.
 */
export function useOrderAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, reason }: { action: OrderAction; reason?: string }) =>
      apiSend<AdminOrder | { message: string }, NonNullable<AdminActionRequest> | ReviewDecision>(
        'POST',
        `/api/admin/orders/${encodeURIComponent(id)}/${action}`,
        action === 'approve' || action === 'cancel' ? { note: reason ?? '' } : reason ? { reason } : {},
      ),
    onSettled: () => Promise.all([keys.orders, keys.stats, keys.audit, keys.users, riskKeys.queue].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export function usersQuery(q: string, page: number) {
  return queryOptions({
    queryKey: [...keys.users, 'list', q, page],
    queryFn: () => apiGet<AdminUserList>(`/api/admin/users${searchOf({ q, page: page > 1 ? page : undefined })}`),
    placeholderData: keepPreviousData,
  });
}

export function userQuery(id: string) {
  return queryOptions({ queryKey: [...keys.users, 'one', id], queryFn: () => apiGet<AdminUser>(`/api/admin/users/${encodeURIComponent(id)}`), retry: false });
}

/** Blocks, unblocks or changes the role of a user; the users and the audit log are fetched again. */
export function usePatchUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: AdminUserPatch) => apiSend<AdminUser, AdminUserPatch>('PATCH', `/api/admin/users/${encodeURIComponent(id)}`, patch),
    onSettled: () => Promise.all([keys.users, keys.audit].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export function syncRunsQuery() {
  return queryOptions({ queryKey: keys.syncRuns, queryFn: () => apiGet<SyncRun[]>('/api/admin/sync-runs') });
}

/** Starts a catalogue sync (202); the runs are fetched again to show it. */
export function useStartSync() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend<{ message: string }>('POST', '/api/admin/sync'),
    onSettled: () => Promise.all([keys.syncRuns, keys.audit].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export function gamesQuery(q: string, page: number) {
  return queryOptions({
    queryKey: [...keys.games, q, page],
    queryFn: () => apiGet<AdminGameList>(`/api/admin/games${searchOf({ q, page: page > 1 ? page : undefined })}`),
    placeholderData: keepPreviousData,
  });
}

/** Hides, features or prices a game; the games, the figures and the audit log are fetched again. */
export function usePatchGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: AdminGamePatch }) => apiSend<AdminGame, AdminGamePatch>('PATCH', `/api/admin/games/${encodeURIComponent(id)}`, patch),
    onSettled: () => Promise.all([keys.games, keys.stats, keys.audit].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export function settingsQuery() {
  return queryOptions({ queryKey: keys.settings, queryFn: () => apiGet<AdminSettings>('/api/admin/settings') });
}

export function usePatchSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: AdminSettingsPatch) => apiSend<AdminSettings, AdminSettingsPatch>('PATCH', '/api/admin/settings', patch),
    onSuccess: (settings) => queryClient.setQueryData(keys.settings, settings),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.audit }),
  });
}

export function supportQuery(status: SupportStatus | undefined, page: number) {
  return queryOptions({
    queryKey: [...keys.support, status, page],
    queryFn: () => apiGet<AdminSupportList>(`/api/admin/support${searchOf({ status, page: page > 1 ? page : undefined })}`),
    placeholderData: keepPreviousData,
  });
}

/** Answers a support message by e-mail; the inbox, the figures (open messages) and the audit log are fetched again. */
export function useReplySupport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reply }: { id: string; reply: string }) =>
      apiSend<{ message: string }, AdminSupportReply>('POST', `/api/admin/support/${encodeURIComponent(id)}/reply`, { reply }),
    onSettled: () => Promise.all([keys.support, keys.stats, keys.audit].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export function auditQuery(page: number) {
  return queryOptions({
    queryKey: [...keys.audit, page],
    queryFn: () => apiGet<AuditList>(`/api/admin/audit${searchOf({ page: page > 1 ? page : undefined })}`),
    placeholderData: keepPreviousData,
  });
}

/** Publishes a public notification to every shopper (POST /api/admin/notifications, existing). */
export function usePublishNotification() {
  return useMutation({
    mutationFn: (body: AdminNotificationRequest) => apiSend<Notification, AdminNotificationRequest>('POST', '/api/admin/notifications', body),
  });
}

// --- The marketplace (issue 23) -----------------------------------------------------------------

export function sellersQuery(status: SellerStatus | undefined, q: string, page: number) {
  return queryOptions({
    queryKey: [...keys.sellers, status, q, page],
    queryFn: () => apiGet<AdminSellerList>(`/api/admin/sellers${searchOf({ status, q, page: page > 1 ? page : undefined })}`),
    placeholderData: keepPreviousData,
  });
}

/** Approves, suspends or reactivates a seller, or sets its commission or hold days; the sellers and the audit log are fetched again. */
export function usePatchSeller() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: AdminSellerPatch }) => apiSend<AdminSeller, AdminSellerPatch>('PATCH', `/api/admin/sellers/${encodeURIComponent(id)}`, patch),
    onSettled: () => Promise.all([keys.sellers, keys.audit].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export function payoutsQuery() {
  return queryOptions({ queryKey: keys.payouts, queryFn: () => apiGet<Payout[]>('/api/admin/payouts') });
}

export function ledgerBalanceQuery() {
  return queryOptions({ queryKey: keys.ledger, queryFn: () => apiGet<LedgerBalance>('/api/admin/ledger/balance') });
}

/** Payouts move money between ledger accounts and out of sellers' balances: all of these are fetched again. */
const PAYOUT_KEYS = [keys.payouts, keys.ledger, keys.sellers, keys.audit];

/** Makes one payout per seller whose available balance reaches the minimum (none twice); answers those made. */
export function useRunPayouts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend<{ created: Payout[] }>('POST', '/api/admin/payouts/run'),
    onSettled: () => Promise.all(PAYOUT_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

/** Records a payout's bank transfer with its reference (409 when it is already marked paid). */
export function useMarkPayoutPaid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reference }: { id: string; reference: string }) =>
      apiSend<Payout, { reference: string }>('POST', `/api/admin/payouts/${encodeURIComponent(id)}/paid`, { reference }),
    onSettled: () => Promise.all(PAYOUT_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

// --- Claims (issue 24) ---------------------------------------------------------------------------

/** Claims in one state, or all, newest first. */
export function claimsQuery(state: ClaimState | undefined) {
  return queryOptions({
    queryKey: [...keys.claims, state],
    queryFn: () => apiGet<Claim[]>(`/api/admin/claims${searchOf({ state })}`),
    placeholderData: keepPreviousData,
  });
}

/**
 * Decides an open or rejected claim: a new key, a refund from the seller's balance, or no. A refund or a
 * replacement moves money and stock, so the sellers, the ledger, the orders and the figures are read again.
 */
export function useDecideClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, outcome, note }: { id: string; outcome: ClaimOutcome; note: string }) =>
      apiSend<{ claim: Claim }, { outcome: ClaimOutcome; note: string }>('POST', `/api/admin/claims/${encodeURIComponent(id)}/decide`, { outcome, note }),
    onSettled: () => Promise.all([keys.claims, keys.sellers, keys.ledger, keys.orders, keys.stats, keys.audit].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

// --- The risk desk (issue 29) --------------------------------------------------------------------

const riskKeys = {
  rules: [...ADMIN, 'risk', 'rules'] as const,
  blocklist: [...ADMIN, 'risk', 'blocklist'] as const,
  figures: [...ADMIN, 'risk', 'figures'] as const,
  queue: [...ADMIN, 'risk', 'queue'] as const,
};

/** The orders in review, the soonest deadline first; fetched again every half minute, as holds come in from payments. */
export function reviewQueueQuery() {
  return queryOptions({ queryKey: riskKeys.queue, queryFn: () => apiGet<RiskQueueEntry[]>('/api/admin/risk/queue'), refetchInterval: 30_000 });
}

export function riskRulesQuery() {
  return queryOptions({ queryKey: riskKeys.rules, queryFn: () => apiGet<RiskRuleSet>('/api/admin/risk/rules') });
}

export function riskFiguresQuery() {
  return queryOptions({ queryKey: riskKeys.figures, queryFn: () => apiGet<RiskFigures>('/api/admin/risk/figures') });
}

export function blocklistQuery() {
  return queryOptions({ queryKey: riskKeys.blocklist, queryFn: () => apiGet<BlocklistEntry[]>('/api/admin/risk/blocklist') });
}

/** Saves the rules as the next version; the audit log has it too. */
export function useSaveRiskRules() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rules: RiskRule[]) => apiSend<RiskRuleSet, RiskRulesUpdate>('PUT', '/api/admin/risk/rules', { rules }),
    onSuccess: (saved) => {
      client.setQueryData(riskKeys.rules, saved);
      void client.invalidateQueries({ queryKey: keys.audit });
    },
  });
}

export function useBlock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (entry: BlocklistCreate) => apiSend<BlocklistEntry, BlocklistCreate>('POST', '/api/admin/risk/blocklist', entry),
    onSuccess: () => void client.invalidateQueries({ queryKey: riskKeys.blocklist }),
  });
}

export function useUnblock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend<void>('DELETE', `/api/admin/risk/blocklist/${encodeURIComponent(id)}`),
    onSuccess: () => void client.invalidateQueries({ queryKey: riskKeys.blocklist }),
  });
}

/** Replays a rule set over the assessments of a period: what it would have held, caught and delayed. */
export function useBacktest() {
  return useMutation({ mutationFn: (request: BacktestRequest) => apiSend<Backtest, BacktestRequest>('POST', '/api/admin/risk/backtest', request) });
}
