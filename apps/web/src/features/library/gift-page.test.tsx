import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { claimAnswerSchema, claimListSchema, giftSchema, orderKeysSchema, type Claim } from '@keystore/contract';
import { CLAIM_STATE_LABELS } from '@keystore/contract/claim-rules';
import { giftMessages } from '@keystore/contract/gift-rules';
import { signIn } from '../../lib/session.ts';
import { answer, testGift, testUser } from '../../test/contract-fixtures.ts';
import { AuthDialogProbe, json, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { testClaim } from '../../test/seller-fixtures.ts';
import { GiftPage } from './gift-page.tsx';

function renderGift(path = '/gifts/gf1?token=tok-g') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/gifts/:id" element={<GiftPage />} />
        </Routes>
        <AuthDialogProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Two games, one with two keys: the recipient reveals one key at a time. */
const twoGames = testGift({
  games: [
    { gameId: 'g1', title: 'Hades', image: '/media/covers/g1.svg', platform: 'Steam', quantity: 2 },
    { gameId: 'g2', title: 'Celeste', image: '/media/covers/g2.svg', platform: 'PC', quantity: 1 },
  ],
  keys: [
    { purchaseId: 'k1', gameId: 'g1', title: 'Hades', revealed: false },
    { purchaseId: 'k2', gameId: 'g1', title: 'Hades', revealed: false },
    { purchaseId: 'k3', gameId: 'g2', title: 'Celeste', revealed: false },
  ],
});

afterEach(() => resetTestState());

describe("a gift's page", () => {
  it('shows who sent it, their message and its games, and reveals one key by the link’s token', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/gifts/gf1?token=tok-g': () => answer(giftSchema, twoGames),
      'GET /api/gifts/gf1/claims?token=tok-g': () => answer(claimListSchema, []),
      'GET /api/gifts/gf1/keys?token=tok-g&keyId=k2': () => answer(orderKeysSchema, { keys: [{ purchaseId: 'k2', gameId: 'g1', title: 'Hades', key: 'HADES-2222-3333' }] }),
    });
    renderGift();
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('A gift from keymaster');
    expect(screen.getByText('For Sam')).toBeTruthy();
    expect(screen.getByText('Happy birthday!').closest('blockquote')).toBeTruthy();
    const games = within(screen.getByRole('list', { name: 'Games in this gift' }));
    expect(games.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual(['Hades', 'Celeste']);
    expect(games.getByText('Steam · 2 keys')).toBeTruthy();
    expect(games.getByText('PC')).toBeTruthy();
    // A gift never says what it cost.
    expect(document.body.textContent).not.toMatch(/€/);

    await user.click(screen.getByRole('button', { name: 'Reveal Key of Hades (key 2 of 2)' }));
    expect(await screen.findByText('HADES-2222-3333')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy the key of Hades (key 2 of 2)' })).toBeTruthy();
    // The other keys stay unrevealed, so they can still go back to their seller; the revealed one may be reported.
    expect(screen.getByRole('button', { name: 'Reveal Key of Hades (key 1 of 2)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reveal Key of Celeste' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Report a problem with the key of Hades (key 2 of 2)' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /Report a problem/ })).toHaveLength(1);
    // No session: the link alone opens the gift, its claims and its key.
    expect(calls).toEqual([
      { route: 'GET /api/gifts/gf1?token=tok-g' },
      { route: 'GET /api/gifts/gf1/claims?token=tok-g' },
      { route: 'GET /api/gifts/gf1/keys?token=tok-g&keyId=k2' },
    ]);
    expect(screen.getByText(/you also find them in your library/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create an account' }));
    expect(screen.getByRole('status', { name: 'Open auth dialog' }).textContent).toBe('signup');
  });

  it("says 'A gift for you' when a guest sent it, without a message", async () => {
    stubApi({
      'GET /api/gifts/gf1?token=tok-g': () => answer(giftSchema, testGift({ from: null, message: '' })),
      'GET /api/gifts/gf1/claims?token=tok-g': () => answer(claimListSchema, []),
    });
    renderGift();
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('A gift for you');
    expect(document.querySelector('blockquote')).toBeNull();
    expect(screen.getByRole('button', { name: 'Reveal Key of Hades' })).toBeTruthy();
  });

  it("lists the claims on the gift's keys, and reports a revealed key with the gift's token", async () => {
    const user = userEvent.setup();
    const claims: Claim[] = [];
    const calls = stubApi({
      'GET /api/gifts/gf1?token=tok-g': () =>
        answer(giftSchema, { ...twoGames, keys: twoGames.keys.map((key) => ({ ...key, revealed: key.purchaseId !== 'k3' })) }),
      'GET /api/gifts/gf1/claims?token=tok-g': () => answer(claimListSchema, claims),
      'POST /api/purchases/k1/claim?token=tok-g': ({ body }) => {
        claims.unshift(testClaim({ purchaseId: 'k1', ...(body as Pick<Claim, 'reason' | 'message'>) }));
        return answer(claimAnswerSchema, { claim: claims[0]! }, 201);
      },
    });
    claims.push(testClaim({ _id: 'c2', purchaseId: 'k2', state: 'replaced' }));
    renderGift();
    const hades = within((await screen.findAllByRole('list', { name: 'Keys of Hades' }))[0]!).getAllByRole('listitem');
    await waitFor(() => expect(within(hades[1]!).getByText('Reported problem:').textContent).toBe(`Reported problem: ${CLAIM_STATE_LABELS.replaced}`));

    await user.click(within(hades[0]!).getByRole('button', { name: 'Report a problem with the key of Hades (key 1 of 2)' }));
    const dialog = screen.getByRole('dialog', { name: 'Report a problem with Hades (key 1 of 2)' });
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(hades[0]!).getByText('Reported problem:').textContent).toBe(`Reported problem: ${CLAIM_STATE_LABELS.open}`);
    expect(calls).toContainEqual({ route: 'POST /api/purchases/k1/claim?token=tok-g', body: { reason: 'already-redeemed', message: '' } });
  });

  it.each([404, 400])('says the link is not valid when the server answers %i, with the way back to the store', async (status) => {
    stubApi({ 'GET /api/gifts/gf1?token=forged': () => json(status, { error: giftMessages.giftNotFound }) });
    renderGift('/gifts/gf1?token=forged');
    expect((await screen.findByRole('alert')).textContent).toBe(giftMessages.giftNotFound);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Your gift');
    expect(screen.getByRole('link', { name: 'Back to Store' }).getAttribute('href')).toBe('/store');
  });

  it('asks nothing of the server for a link without its token', () => {
    const calls = stubApi({});
    renderGift('/gifts/gf1');
    expect(screen.getByRole('alert').textContent).toBe(giftMessages.giftNotFound);
    expect(calls).toEqual([]);
  });

  it('points a signed-in recipient to the library', async () => {
    stubApi({
      'GET /api/gifts/gf1?token=tok-g': () => answer(giftSchema, testGift()),
      'GET /api/gifts/gf1/claims?token=tok-g': () => answer(claimListSchema, []),
    });
    act(() => signIn('token-1', testUser({ username: 'sam' })));
    renderGift();
    expect((await screen.findByRole('link', { name: 'Go to my library' })).getAttribute('href')).toBe('/library');
    expect(screen.queryByRole('button', { name: 'Create an account' })).toBeNull();
  });
});
