import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { claimAnswerSchema, claimListSchema, claimMessages, sellerSchema, type Claim } from '@keystore/contract';
import { signIn } from '../../lib/session.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { json, renderWithQueries, resetTestState, stubApi, type ApiRoutes } from '../../test/fixtures.tsx';
import { testClaim, testOffer, testSeller } from '../../test/seller-fixtures.ts';
import { SellerArea } from './seller-area.tsx';

afterEach(resetTestState);

/** The area at /seller/claims, the API answering `routes` and the seller's account. */
function renderClaims(routes: ApiRoutes, seller = testSeller()) {
  act(() => signIn('token-1', testUser()));
  const calls = stubApi({ 'GET /api/seller': () => answer(sellerSchema, seller), 'GET /api/seller/offers': () => json(200, [testOffer()]), ...routes });
  renderWithQueries(
    <MemoryRouter initialEntries={['/seller/claims']}>
      <Routes>
        <Route path="/seller/*" element={<SellerArea />} />
      </Routes>
    </MemoryRouter>,
  );
  return calls;
}

const open = () => testClaim({ _id: 'c2', title: 'Celeste', maskedKey: '••••••••WXYZ', createdAt: '2026-02-03T09:00:00Z', dueAt: '2026-02-04T09:00:00Z' });
const replaced = () =>
  testClaim({ state: 'replaced', maskedKey: '••••••••ABCD', reason: 'wrong-region', message: '', decidedAt: '2026-02-02T12:00:00Z', note: null });

describe('the claims section', () => {
  it('lists the claims, those waiting for an answer first, and rejects one only with a reason', async () => {
    let claims: Claim[] = [replaced(), open()];
    const calls = renderClaims({
      'GET /api/seller/claims': () => answer(claimListSchema, claims),
      'POST /api/seller/claims/c2/reject': ({ body }) => {
        claims = [replaced(), { ...open(), state: 'rejected', sellerMessage: (body as { message: string }).message }];
        return answer(claimAnswerSchema, { claim: claims[1]! });
      },
    });
    const list = await screen.findByRole('list', { name: 'Claims on your keys' });
    expect(screen.getByText('1 claim waits for your answer.')).toBeTruthy();
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByRole('heading', { name: 'Celeste' })).toBeTruthy();
    expect(first!.textContent).toContain('Waiting for the seller');
    expect(first!.textContent).toContain('ReasonAlready redeemed');
    expect(first!.textContent).toContain('Key••••••••WXYZ');
    expect(first!.textContent).toContain('Answer by');
    expect(first!.textContent).toContain('Buyer’s message: Steam says the key was used.');
    expect(second!.textContent).toContain('Replaced');
    expect(second!.textContent).toContain('ReasonWrong region');
    expect(within(second!).queryByRole('button')).toBeNull();

    const user = userEvent.setup();
    await user.click(within(first!).getByRole('button', { name: 'Reject the claim on Celeste' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject the claim on Celeste?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject claim' }));
    expect(await within(dialog).findByText(claimMessages.rejectMessageInvalid)).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Your reason'), ' The key was unused when sold. ');
    await user.click(within(dialog).getByRole('button', { name: 'Reject claim' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Waiting for Keystore')).toBeTruthy();
    expect(screen.getByText('The key was unused when sold.')).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('POST'))).toEqual([
      { route: 'POST /api/seller/claims/c2/reject', body: { message: 'The key was unused when sold.' }, authorization: 'Bearer token-1' },
    ]);
  });

  it('replaces a key once confirmed, and shows the server’s refusal when no key is left', async () => {
    let left = 0;
    const calls = renderClaims({
      'GET /api/seller/claims': () => answer(claimListSchema, [open()]),
      'POST /api/seller/claims/c2/replace': () =>
        (left -= 1) < 0 ? json(409, { error: claimMessages.noReplacement }) : answer(claimAnswerSchema, { claim: { ...open(), state: 'replaced' } }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Replace the key of Celeste' }));
    const dialog = screen.getByRole('dialog', { name: 'Replace the key of Celeste?' });
    expect(within(dialog).getByText(/in place of ••••••••WXYZ/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Replace key' }));
    expect(await within(dialog).findByText(claimMessages.noReplacement)).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('POST')).map((call) => call.route)).toEqual(['POST /api/seller/claims/c2/replace']);
  });

  it('shows a suspended seller its claims without the buttons to answer them', async () => {
    renderClaims({ 'GET /api/seller/claims': () => answer(claimListSchema, [open()]) }, testSeller({ status: 'suspended' }));
    expect(await screen.findByRole('heading', { name: 'Celeste' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Replace|Reject/ })).toBeNull();
  });
});
