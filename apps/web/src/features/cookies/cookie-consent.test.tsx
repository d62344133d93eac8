import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { publicConfigSchema } from '@keystore/contract';
import { readStoredConsent, syncConsentFromStorage } from '../../lib/consent.ts';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';
import { answer } from '../../test/contract-fixtures.ts';
import { resetTestState, stubApi } from '../../test/fixtures.tsx';
import { CookieConsent } from './cookie-consent.tsx';

const SCRIPT = 'https://stats.example/script.js';

/** Renders the dialog over a page; the API configures an analytics script. Answers the requests made. */
function renderConsent() {
  const calls = stubApi({ 'GET /api/config': () => answer(publicConfigSchema, { analyticsScriptUrl: SCRIPT }) });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <button type="button">Page content</button>
        <CookieConsent />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return calls;
}

const dialog = () => screen.queryByRole('dialog', { name: 'Cookies on Keystore' });
const analyticsScripts = () => document.head.querySelectorAll('script[data-analytics]');

beforeEach(() => {
  localStorage.clear();
  syncConsentFromStorage();
});

afterEach(() => {
  resetTestState();
  analyticsScripts().forEach((script) => script.remove());
});

describe('the cookie consent dialog', () => {
  it('shows on a first visit as a modal dialog with focus inside, and Escape does not dismiss it', async () => {
    const user = userEvent.setup();
    renderConsent();
    const modal = dialog()!;
    expect(modal.getAttribute('aria-modal')).toBe('true');
    expect(modal.contains(document.activeElement)).toBe(true);
    expect((screen.getByRole('switch', { name: 'Necessary' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('switch', { name: 'Necessary' }) as HTMLInputElement).checked).toBe(true);
    await user.keyboard('{Escape}');
    expect(dialog()).not.toBeNull();
  });

  it('keeps Tab and Shift+Tab inside the dialog', async () => {
    const user = userEvent.setup();
    renderConsent();
    const modal = dialog()!;
    for (let step = 0; step < 12; step += 1) {
      await user.tab();
      expect(modal.contains(document.activeElement)).toBe(true);
    }
    screen.getByRole('button', { name: 'Allow all' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Cookie Policy' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Allow all' }));
  });

  it('Deny stores necessary only, closes the dialog and loads no analytics', async () => {
    const user = userEvent.setup();
    renderConsent();
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    expect(dialog()).toBeNull();
    expect(readStoredConsent()).toMatchObject({ status: 'necessary', preferences: { statistic: false, preferences: false } });
    expect(analyticsScripts()).toHaveLength(0);
  });

  it('Allow all stores every category and loads the analytics script once', async () => {
    const user = userEvent.setup();
    renderConsent();
    await user.click(screen.getByRole('button', { name: 'Allow all' }));
    expect(readStoredConsent()).toMatchObject({ status: 'all', preferences: { statistic: true, preferences: true } });
    await waitFor(() => expect(analyticsScripts()).toHaveLength(1));
    expect(analyticsScripts()[0]!.getAttribute('src')).toBe(SCRIPT);
  });

  it('asks the server for the analytics configuration only once statistics are allowed', async () => {
    const user = userEvent.setup();
    const calls = renderConsent();
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    expect(calls).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Cookie settings' }));
    await user.click(screen.getByRole('button', { name: 'Allow all' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.route).toBe('GET /api/config');
  });

  it('Allow selection stores only the switched-on categories', async () => {
    const user = userEvent.setup();
    renderConsent();
    await user.click(screen.getByRole('switch', { name: 'Preferences' }));
    await user.click(screen.getByRole('button', { name: 'Allow selection' }));
    expect(readStoredConsent()).toMatchObject({ status: 'custom', preferences: { statistic: false, preferences: true } });
  });

  it('reopens from the cookie button with the current choice, closes on Escape and gives focus back', async () => {
    const user = userEvent.setup();
    localStorage.setItem(
      STORAGE_KEYS.cookieConsent,
      JSON.stringify({ id: 'a1b2', status: 'custom', preferences: { necessary: true, statistic: true, preferences: false }, givenAt: new Date().toISOString() }),
    );
    syncConsentFromStorage();
    renderConsent();
    expect(dialog()).toBeNull();
    const button = screen.getByRole('button', { name: 'Cookie settings' });
    await user.click(button);
    expect((screen.getByRole('switch', { name: 'Statistics' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('switch', { name: 'Preferences' }) as HTMLInputElement).checked).toBe(false);
    await user.keyboard('{Escape}');
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(readStoredConsent()?.status).toBe('custom');
  });

  it('removes the analytics script when statistics are withdrawn', async () => {
    const user = userEvent.setup();
    renderConsent();
    await user.click(screen.getByRole('button', { name: 'Allow all' }));
    await waitFor(() => expect(analyticsScripts()).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Cookie settings' }));
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    await act(async () => {});
    expect(analyticsScripts()).toHaveLength(0);
  });
});
