import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { claimAnswerSchema, claimListSchema, claimMessages, type Claim } from '@keystore/contract';
import { answer } from '../../test/contract-fixtures.ts';
import { json, renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { testClaim } from '../../test/seller-fixtures.ts';
import { Toasts } from '../../ui/toasts.tsx';
import { AdminClaimsPage } from './claims-page.tsx';

afterEach(resetTestState);

function renderClaims(path = '/admin/claims') {
  renderWithQueries(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/admin/claims" element={<AdminClaimsPage />} />
      </Routes>
      <Toasts />
    </MemoryRouter>,
  );
}

/** A claim its seller rejected: Keystore decides. */
const rejected = () =>
  testClaim({ _id: 'c2', title: 'Celeste', state: 'rejected', maskedKey: '••••••••WXYZ', sellerMessage: 'The key was unused when sold.', message: 'Steam says used.' });
const declined = () => testClaim({ _id: 'c1', state: 'declined', note: 'Redeemed on your account.', decidedAt: '2026-02-03T10:00:00Z' });

describe('the claims page', () => {
  it('lists the claims by state, and decides a rejected one with a note, showing the server’s refusal first', async () => {
    let claims: Claim[] = [rejected(), declined()];
    const calls = stubApi({
      'GET /api/admin/claims': () => answer(claimListSchema, claims),
      'GET /api/admin/claims?state=rejected': () => answer(claimListSchema, claims.filter((claim) => claim.state === 'rejected')),
      'POST /api/admin/claims/c2/decide': ({ body }) => {
        const { outcome } = body as { outcome: string };
        // The seller has no key left to replace it with.
        if (outcome === 'replace') return json(409, { error: claimMessages.noReplacement });
        claims = [{ ...rejected(), state: 'refunded', note: (body as { note: string }).note, decidedAt: '2026-02-04T09:00:00Z' }, declined()];
        return answer(claimAnswerSchema, { claim: claims[0]! });
      },
    });
    renderClaims();
    const table = await screen.findByRole('table', { name: 'Claims' });
    const row = within(table).getByRole('rowheader', { name: /Celeste/ }).parentElement!;
    expect([...row.children].map((cell) => cell.textContent)).toEqual([
      'Celeste••••••••WXYZord1',
      'KeyShack',
      'Already redeemed',
      'Buyer: Steam says used.Seller: The key was unused when sold.',
      'Waiting for KeystoreReported 2026-02-02 09:00Due 2026-02-03 09:00',
      'Decide',
    ]);
    expect(within(row).getByRole('link', { name: 'ord1' }).getAttribute('href')).toBe('/admin/orders/ord1');
    // A decided claim has nothing left to decide.
    expect(within(within(table).getByRole('rowheader', { name: /Hades/ }).parentElement!).queryByRole('button')).toBeNull();

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Show'), 'Waiting for Keystore');
    await waitFor(() => expect(within(table).queryByRole('rowheader', { name: /Hades/ })).toBeNull());

    await user.click(within(table).getByRole('button', { name: 'Decide the claim on Celeste' }));
    const dialog = screen.getByRole('dialog', { name: 'Decide the claim on Celeste' });
    expect(within(dialog).getByText(/The seller says: “The key was unused when sold.”/)).toBeTruthy();
    expect((within(dialog).getByLabelText(/^Replace the key/) as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Decide' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(claimMessages.noReplacement);

    await user.click(within(dialog).getByLabelText(/^Refund the key/));
    await user.type(within(dialog).getByLabelText('Note for the buyer (optional)'), ' The seller had no key left. ');
    await user.click(within(dialog).getByRole('button', { name: 'Decide' }));
    expect(await screen.findByText('Claim on Celeste: Refunded.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((call) => call.route.startsWith('POST')).map(({ route, body }) => [route, body])).toEqual([
      ['POST /api/admin/claims/c2/decide', { outcome: 'replace', note: '' }],
      ['POST /api/admin/claims/c2/decide', { outcome: 'refund', note: 'The seller had no key left.' }],
    ]);
    // The list is read again: nothing is waiting for Keystore any more.
    expect(await screen.findByText('No claim is “Waiting for Keystore”.')).toBeTruthy();
  });

  it('opens with the state of its address, and refuses a note that is too long without asking the server', async () => {
    const calls = stubApi({ 'GET /api/admin/claims?state=rejected': () => answer(claimListSchema, [rejected()]) });
    renderClaims('/admin/claims?state=rejected');
    expect(((await screen.findByLabelText('Show')) as HTMLSelectElement).value).toBe('rejected');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Decide the claim on Celeste' }));
    const dialog = screen.getByRole('dialog', { name: 'Decide the claim on Celeste' });
    const note = within(dialog).getByLabelText('Note for the buyer (optional)');
    note.removeAttribute('maxLength');
    await user.click(within(dialog).getByLabelText(/^Reject the claim/));
    await user.click(note);
    await user.paste('x'.repeat(1001));
    await user.click(within(dialog).getByRole('button', { name: 'Decide' }));
    expect(await within(dialog).findByText(claimMessages.messageInvalid)).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('POST'))).toEqual([]);
  });
});
