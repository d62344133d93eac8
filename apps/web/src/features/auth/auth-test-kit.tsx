// Test helpers for the auth dialogs: the dialogs rendered as the layout renders them, and what a
// person reads in them. The API stub, the user and the reset between tests are in src/test/fixtures.tsx.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { openAuthDialog, type AuthDialogState, type AuthView } from '../../lib/auth-dialog.ts';
import { Toasts } from '../../ui/toasts.tsx';
import { AuthDialogHost } from './auth-dialog-host.tsx';

/** Renders the auth dialogs and the toasts as the layout does, with one dialog open. */
export function renderDialog(view: AuthView, details: Omit<AuthDialogState, 'view'> = {}, extra?: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  openAuthDialog(view, details);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        {extra}
        <AuthDialogHost />
        <Toasts />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** A user-event driver that also moves fake timers along when a test uses them. */
export function typist() {
  return userEvent.setup({ advanceTimers: (ms) => (vi.isFakeTimers() ? vi.advanceTimersByTime(ms) : undefined) });
}

/** The open dialog once its lazy chunk has loaded, named by its title. */
export function findDialog(title: string) {
  return screen.findByRole('dialog', { name: title });
}

/** The text of the toasts on screen. */
export function toastTexts(): string[] {
  const region = screen.getByRole('region', { name: 'Messages' });
  return [...region.querySelectorAll('p')].map((p) => p.textContent ?? '');
}

/** The six code boxes of a dialog. */
export function codeBoxes(dialog: HTMLElement): HTMLInputElement[] {
  return within(dialog).getAllByRole('textbox', { name: /^Digit \d of 6$/ }) as HTMLInputElement[];
}

/** Pastes `digits` into a dialog's code boxes and presses Verify. */
export async function enterCode(dialog: HTMLElement, digits: string) {
  const type = typist();
  await type.click(codeBoxes(dialog)[0]!);
  await type.paste(digits);
  await type.click(within(dialog).getByRole('button', { name: 'Verify' }));
  return type;
}
