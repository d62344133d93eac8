import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideConsent, readStoredConsent, syncConsentFromStorage, useConsent } from '../../lib/consent.ts';
import { ConsentStatus } from './consent-status.tsx';

function OpenState() {
  return <p>{useConsent().isOpen ? 'dialog open' : 'dialog closed'}</p>;
}

beforeEach(() => {
  localStorage.clear();
  syncConsentFromStorage();
});
afterEach(cleanup);

const panelText = () => screen.getByRole('region', { name: 'Your consent' }).textContent;

describe('the consent panel of the cookie policy', () => {
  it('says when no choice has been made yet', () => {
    render(<ConsentStatus />);
    expect(panelText()).toContain('Not given yet');
    expect(panelText()).toContain('None yet');
  });

  it('shows the status, the consent ID and the date given', () => {
    // Decided before anything is rendered, so no act() is needed.
    const consent = decideConsent('custom', { statistic: true, preferences: false });
    render(<ConsentStatus />);
    expect(panelText()).toContain('Your selection');
    expect(panelText()).toContain('Necessary, Statistics');
    expect(panelText()).toContain(consent.id);
    expect(screen.getAllByText((_, element) => element?.tagName === 'TIME')[0]!.getAttribute('datetime')).toBe(consent.givenAt);
  });

  it('"Change your consent" reopens the dialog and "Withdraw your consent" goes back to necessary only', async () => {
    const user = userEvent.setup();
    decideConsent('all');
    render(
      <>
        <ConsentStatus />
        <OpenState />
      </>,
    );
    expect(screen.getByText('dialog closed')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Change your consent' }));
    expect(screen.getByText('dialog open')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Withdraw your consent' }));
    expect(readStoredConsent()).toMatchObject({ status: 'necessary', preferences: { statistic: false, preferences: false } });
    expect(panelText()).toContain('Necessary only (denied)');
    expect(screen.getByRole('status').textContent).toContain('Your consent has been withdrawn');
  });
});
