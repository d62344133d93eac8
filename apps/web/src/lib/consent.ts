import { queryOptions } from '@tanstack/react-query';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { PublicConfig } from '@keystore/contract';
import { apiGet } from './api.ts';
import { STORAGE_KEYS } from './storage-keys.ts';

/** The three answers of the consent dialog (SPEC §4): Deny, Allow selection, Allow all. */
export type ConsentStatus = 'necessary' | 'custom' | 'all';

/** What the visitor allows (SPEC §3, cookie preferences). Necessary storage cannot be refused. */
export interface CookiePreferences {
  necessary: true;
  statistic: boolean;
  preferences: boolean;
}

/** A recorded choice: which one, what it allows, its random id and when it was given (ISO date). */
export interface Consent {
  id: string;
  status: ConsentStatus;
  preferences: CookiePreferences;
  givenAt: string;
}

/** How long a cookie choice holds before the dialog asks again (SPEC §9). */
export const COOKIE_CONSENT_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;
const STATUSES: readonly ConsentStatus[] = ['necessary', 'custom', 'all'];

/** When a consent stops counting and the dialog asks again (COOKIE_CONSENT_DAYS after it was given). */
export function consentExpiresAt(consent: Consent): Date {
  return new Date(Date.parse(consent.givenAt) + COOKIE_CONSENT_DAYS * DAY_MS);
}

/** Reads the stored consent; a missing, malformed or expired one counts as no choice (null). */
export function readStoredConsent(now: number = Date.now()): Consent | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(localStorage.getItem(STORAGE_KEYS.cookieConsent) ?? 'null');
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { id, status, preferences, givenAt } = parsed as Record<string, unknown>;
  if (typeof id !== 'string' || id.length === 0) return null;
  if (!STATUSES.includes(status as ConsentStatus)) return null;
  if (typeof givenAt !== 'string' || Number.isNaN(Date.parse(givenAt))) return null;
  if (typeof preferences !== 'object' || preferences === null) return null;
  const { statistic, preferences: remember } = preferences as Record<string, unknown>;
  if (typeof statistic !== 'boolean' || typeof remember !== 'boolean') return null;
  const consent: Consent = { id, status: status as ConsentStatus, preferences: { necessary: true, statistic, preferences: remember }, givenAt };
  // A date in the future is as untrustworthy as an old one.
  if (Date.parse(givenAt) > now + DAY_MS || consentExpiresAt(consent).getTime() <= now) return null;
  return consent;
}

interface ConsentState {
  consent: Consent | null;
  /** The dialog was opened again on purpose (cookie button, "Change your consent"). */
  reopened: boolean;
}

const consentStore = createStore<ConsentState>(() => ({
  consent: typeof localStorage === 'undefined' ? null : readStoredConsent(),
  reopened: false,
}));

function update(next: Partial<ConsentState>): void {
  consentStore.setState(next);
}

/** Re-reads the stored consent, for a change made in another tab or a consent that has since expired. */
export function syncConsentFromStorage(): void {
  update({ consent: readStoredConsent() });
}

// Another tab decided: follow it here, so the dialog closes (or opens) everywhere at once.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEYS.cookieConsent || event.key === null) syncConsentFromStorage();
  });
}

function preferencesFor(status: ConsentStatus, chosen?: Partial<Omit<CookiePreferences, 'necessary'>>): CookiePreferences {
  if (status === 'all') return { necessary: true, statistic: true, preferences: true };
  if (status === 'necessary') return { necessary: true, statistic: false, preferences: false };
  return { necessary: true, statistic: chosen?.statistic ?? false, preferences: chosen?.preferences ?? false };
}

/** Records a choice for COOKIE_CONSENT_DAYS and closes the dialog. The consent id is kept while a choice stands. */
export function decideConsent(status: ConsentStatus, chosen?: Partial<Omit<CookiePreferences, 'necessary'>>): Consent {
  const consent: Consent = {
    id: consentStore.getState().consent?.id ?? crypto.randomUUID(),
    status,
    preferences: preferencesFor(status, chosen),
    givenAt: new Date().toISOString(),
  };
  try {
    localStorage.setItem(STORAGE_KEYS.cookieConsent, JSON.stringify(consent));
  } catch {
    // Storage full or disabled: the choice holds for this page, and the dialog asks again next visit.
  }
  update({ consent, reopened: false });
  return consent;
}

/** Withdraws consent: back to necessary storage only (a recorded "Deny", with a new date). */
export function withdrawConsent(): Consent {
  return decideConsent('necessary');
}

/** Opens the dialog again so the visitor can change the choice. */
export function reopenConsent(): void {
  update({ reopened: true });
}

/** Closes a reopened dialog without a new choice; while no choice exists the dialog stays. */
export function closeConsent(): void {
  update({ reopened: false });
}

/** The visitor's cookie consent, shared by every component and every tab, and whether the dialog is open. */
export function useConsent() {
  const current = useStore(consentStore);
  return {
    consent: current.consent,
    isOpen: current.consent === null || current.reopened,
    decide: decideConsent,
    withdraw: withdrawConsent,
    reopen: reopenConsent,
    close: closeConsent,
  };
}

/** The store's own cookies, kept whatever the choice (it keeps its state in localStorage, so normally none). */
const OWN_COOKIE_PREFIX = 'keystore';
const ANALYTICS_SCRIPT = 'script[data-analytics]';

/**
 * Loads the analytics script when statistics are allowed and one is configured; otherwise removes it
 * and deletes the cookies analytics may have left (`_ga`, `_gid`, `_pk`… and any cookie that is not the store's).
 */
export function applyAnalytics(consent: Consent | null, scriptUrl: string | null): void {
  const existing = document.head.querySelectorAll<HTMLScriptElement>(ANALYTICS_SCRIPT);
  if (consent?.preferences.statistic && scriptUrl) {
    if (existing.length === 1 && existing[0]!.getAttribute('src') === scriptUrl) return;
    existing.forEach((script) => script.remove());
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.dataset.analytics = '';
    document.head.append(script);
    return;
  }
  existing.forEach((script) => script.remove());
  deleteNonEssentialCookies();
}

/** Cookie names set in this document that are not the store's own. */
function nonEssentialCookieNames(): string[] {
  return document.cookie
    .split(';')
    .map((pair) => pair.split('=')[0]!.trim())
    .filter((name) => name.length > 0 && !name.startsWith(OWN_COOKIE_PREFIX));
}

function deleteNonEssentialCookies(): void {
  const names = nonEssentialCookieNames();
  if (names.length === 0) return;
  // Analytics scripts set their cookies on the widest domain they can (".example.com"), and a cookie
  // only goes away when deleted with the same domain, so try the host and each parent domain.
  const labels = location.hostname.split('.');
  const domains = [undefined, ...labels.slice(0, -1).map((_, index) => labels.slice(index).join('.'))];
  const expired = 'expires=Thu, 01 Jan 1970 00:00:00 GMT; max-age=0; path=/';
  for (const name of names) {
    for (const domain of domains) document.cookie = `${name}=; ${expired}${domain ? `; domain=${domain}` : ''}`;
  }
}

/** GET /api/config, fetched once per page: it names the analytics script, when one is configured. */
export const appConfigQuery = queryOptions({
  queryKey: ['config'] as const,
  queryFn: () => apiGet<PublicConfig>('/api/config'),
  staleTime: Infinity,
});
