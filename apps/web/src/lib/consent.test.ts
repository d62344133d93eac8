import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyAnalytics, decideConsent, readStoredConsent, syncConsentFromStorage, useConsent, withdrawConsent, type Consent } from './consent.ts';
import { STORAGE_KEYS } from './storage-keys.ts';

const DAY = 24 * 60 * 60 * 1000;

function store(value: unknown): void {
  localStorage.setItem(STORAGE_KEYS.cookieConsent, typeof value === 'string' ? value : JSON.stringify(value));
}

const valid = (givenAt: string): Consent => ({
  id: '2d0c5a4e-8a52-4f3b-9a53-6f9d2a1f7c11',
  status: 'custom',
  preferences: { necessary: true, statistic: true, preferences: false },
  givenAt,
});

beforeEach(() => {
  localStorage.clear();
  syncConsentFromStorage();
});

afterEach(() => {
  vi.useRealTimers();
  document.head.querySelectorAll('script[data-analytics]').forEach((script) => script.remove());
});

describe('the stored consent', () => {
  it('is unset on a first visit', () => {
    expect(readStoredConsent()).toBeNull();
  });

  it('holds for 365 days and is unset after', () => {
    const givenAt = Date.parse('2026-01-10T12:00:00Z');
    store(valid(new Date(givenAt).toISOString()));
    expect(readStoredConsent(givenAt + 364 * DAY)).toMatchObject({ status: 'custom', preferences: { statistic: true } });
    expect(readStoredConsent(givenAt + 365 * DAY - 1)).not.toBeNull();
    expect(readStoredConsent(givenAt + 365 * DAY)).toBeNull();
  });

  it.each([
    ['not JSON', '{status: all'],
    ['an array', []],
    ['an unknown status', { ...valid(new Date().toISOString()), status: 'everything' }],
    ['no id', { ...valid(new Date().toISOString()), id: '' }],
    ['no date', { ...valid('yesterday') }],
    ['a date far in the future', valid('2999-01-01T00:00:00Z')],
    ['preferences that are not booleans', { ...valid(new Date().toISOString()), preferences: { statistic: 'yes', preferences: false } }],
  ])('is unset when the storage holds %s', (_, value) => {
    store(value);
    expect(readStoredConsent()).toBeNull();
  });
});

describe('deciding', () => {
  it('records Deny as necessary only, with a random id and the date', () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z'), toFake: ['Date'] });
    const consent = decideConsent('necessary');
    expect(consent).toMatchObject({ status: 'necessary', preferences: { necessary: true, statistic: false, preferences: false }, givenAt: '2026-11-22T10:00:00.000Z' });
    expect(consent.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(readStoredConsent()).toEqual(consent);
  });

  it('records Allow all with every category and Allow selection with the chosen ones', () => {
    expect(decideConsent('all').preferences).toEqual({ necessary: true, statistic: true, preferences: true });
    expect(decideConsent('custom', { statistic: false, preferences: true })).toMatchObject({ status: 'custom', preferences: { statistic: false, preferences: true } });
  });

  it('keeps the consent id while a choice stands', () => {
    const first = decideConsent('all');
    expect(decideConsent('necessary').id).toBe(first.id);
  });

  it('withdraws back to necessary only', () => {
    decideConsent('all');
    const withdrawn = withdrawConsent();
    expect(withdrawn).toMatchObject({ status: 'necessary', preferences: { statistic: false, preferences: false } });
    expect(readStoredConsent()?.status).toBe('necessary');
  });
});

describe('useConsent', () => {
  it('opens the dialog while unset, closes it on a choice, and reopens it on demand', () => {
    const { result } = renderHook(() => useConsent());
    expect(result.current).toMatchObject({ consent: null, isOpen: true });
    act(() => result.current.decide('all'));
    expect(result.current).toMatchObject({ consent: { status: 'all' }, isOpen: false });
    act(() => result.current.reopen());
    expect(result.current.isOpen).toBe(true);
    act(() => result.current.close());
    expect(result.current.isOpen).toBe(false);
  });

  it('follows a choice made in another tab', () => {
    const { result } = renderHook(() => useConsent());
    store(valid(new Date().toISOString()));
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.cookieConsent }));
    });
    expect(result.current).toMatchObject({ consent: { status: 'custom' }, isOpen: false });
  });
});

describe('applyAnalytics', () => {
  const url = 'https://stats.example/script.js';
  const scripts = () => document.head.querySelectorAll<HTMLScriptElement>('script[data-analytics]');

  it('adds one async script when statistics are allowed', () => {
    const consent = decideConsent('all');
    applyAnalytics(consent, url);
    applyAnalytics(consent, url);
    expect(scripts()).toHaveLength(1);
    expect(scripts()[0]).toMatchObject({ src: url, async: true });
  });

  it('loads nothing without consent or without a configured script', () => {
    applyAnalytics(null, url);
    applyAnalytics(decideConsent('custom', { statistic: false, preferences: true }), url);
    applyAnalytics(decideConsent('all'), null);
    expect(scripts()).toHaveLength(0);
  });

  it('removes the script and the analytics cookies when statistics are refused', () => {
    applyAnalytics(decideConsent('all'), url);
    document.cookie = '_ga=GA1.1.123; path=/';
    document.cookie = '_pk_id.1.abc=xyz; path=/';
    document.cookie = 'keystore.own=1; path=/';
    applyAnalytics(withdrawConsent(), url);
    expect(scripts()).toHaveLength(0);
    expect(document.cookie).toBe('keystore.own=1');
  });
});
