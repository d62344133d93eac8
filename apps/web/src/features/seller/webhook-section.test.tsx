import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { sellerDeliveryMessages, sellerSchema, webhookAnswerSchema, webhookPingSchema, webhookSecretSchema, type SellerWebhook } from '@keystore/contract';
import { signIn } from '../../lib/session.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { json, renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { testSeller } from '../../test/seller-fixtures.ts';
import { SellerArea } from './seller-area.tsx';

afterEach(resetTestState);

function renderWebhook() {
  act(() => signIn('token-1', testUser()));
  renderWithQueries(
    <MemoryRouter initialEntries={['/seller/webhook']}>
      <Routes>
        <Route path="/seller/*" element={<SellerArea />} />
      </Routes>
    </MemoryRouter>,
  );
}

const registered: SellerWebhook = { url: 'https://keys.example/hook', createdAt: '2026-02-01T10:00:00Z' };
const secretBox = () => screen.queryByRole('status', { name: /signing secret — shown once/ });

describe('the webhook section', () => {
  it('registers the webhook and shows its signing secret once, with a copy button; a changed URL keeps the secret unseen', async () => {
    let webhook: SellerWebhook | null = null;
    const calls = stubApi({
      'GET /api/seller': () => answer(sellerSchema, testSeller()),
      'GET /api/seller/webhook': () => json(200, webhook),
      'GET /api/seller/offers': () => json(200, []),
      'PUT /api/seller/webhook': ({ body }) => {
        const first = webhook === null;
        webhook = { ...registered, url: (body as { url: string }).url };
        return answer(webhookAnswerSchema, { url: webhook.url, ...(first ? { secret: 'whsec_first_and_only' } : {}) });
      },
    });
    renderWebhook();
    expect(await screen.findByText('No webhook registered yet.')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Webhook URL'), 'keys.example/hook');
    await user.click(screen.getByRole('button', { name: 'Register webhook' }));
    expect(await screen.findByText(sellerDeliveryMessages.webhookUrlInvalid)).toBeTruthy();
    expect(calls.filter((call) => call.route === 'PUT /api/seller/webhook')).toEqual([]);

    await user.clear(screen.getByLabelText('Webhook URL'));
    await user.type(screen.getByLabelText('Webhook URL'), '  https://keys.example/hook ');
    // Registered only with the password typed again (issue 30).
    await user.click(screen.getByRole('button', { name: 'Register webhook' }));
    expect(await screen.findByText('Please enter your password')).toBeTruthy();
    expect(calls.filter((call) => call.route === 'PUT /api/seller/webhook')).toEqual([]);
    await user.type(screen.getByLabelText('Your password'), 'Secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Register webhook' }));
    const box = await screen.findByRole('status', { name: 'Your signing secret — shown once' });
    expect(within(box).getByText('whsec_first_and_only')).toBeTruthy();
    expect(within(box).getByText(/Keystore keeps it sealed and cannot show it again/)).toBeTruthy();
    expect(within(box).getByRole('button', { name: 'Copy the signing secret' })).toBeTruthy();
    expect(calls.find((call) => call.route === 'PUT /api/seller/webhook')!.body).toEqual({ url: 'https://keys.example/hook', password: 'Secret-pass1' });
    // The webhook is read again: the URL is shown, the secret stays on screen until the seller leaves.
    expect(await screen.findByText('https://keys.example/hook')).toBeTruthy();
    expect(secretBox()).toBeTruthy();

    // Leaving the section and coming back: the secret is gone for good, and changing the URL does not bring it back.
    await user.click(screen.getByRole('tab', { name: 'Offers' }));
    await user.click(await screen.findByRole('tab', { name: 'Webhook' }));
    expect(await screen.findByRole('button', { name: 'Change URL' })).toBeTruthy();
    expect(secretBox()).toBeNull();
    expect(screen.queryByText('whsec_first_and_only')).toBeNull();
    await user.clear(screen.getByLabelText('Webhook URL'));
    await user.type(screen.getByLabelText('Webhook URL'), 'https://keys.example/v2');
    await user.type(screen.getByLabelText('Your password'), 'Secret-pass1');
    await user.click(screen.getByRole('button', { name: 'Change URL' }));
    expect(await screen.findByText('Webhook URL saved. Your signing secret stays the same.')).toBeTruthy();
    expect(secretBox()).toBeNull();
  });

  it('rotates the secret only once confirmed, showing the new one once, and sends a test ping showing what came back', async () => {
    let pings = 0;
    const calls = stubApi({
      'GET /api/seller': () => answer(sellerSchema, testSeller()),
      'GET /api/seller/webhook': () => answer(webhookAnswerSchema, registered),
      'POST /api/seller/webhook/rotate-secret': () => answer(webhookSecretSchema, { secret: 'whsec_rotated' }),
      'POST /api/seller/webhook/test': () =>
        (pings += 1) === 1
          ? answer(webhookPingSchema, { ok: true, status: 200, durationMs: 42, error: null })
          : answer(webhookPingSchema, { ok: false, status: null, durationMs: 10000, error: 'timed out' }),
    });
    renderWebhook();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Rotate the signing secret?' })).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((call) => call.route.startsWith('POST'))).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Rotate secret' }));
    await user.type(within(screen.getByRole('dialog', { name: 'Rotate the signing secret?' })).getByLabelText('Your password'), 'Secret-pass1');
    await user.click(within(screen.getByRole('dialog', { name: 'Rotate the signing secret?' })).getByRole('button', { name: 'Rotate secret' }));
    const box = await screen.findByRole('status', { name: 'Your new signing secret — shown once' });
    expect(within(box).getByText('whsec_rotated')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Send test ping' }));
    expect(await screen.findByText('Your endpoint answered the ping: HTTP 200 in 42 ms.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send test ping' }));
    expect(await screen.findByText(`${sellerDeliveryMessages.pingFailed('timed out')} (10000 ms)`)).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('POST')).map((call) => call.route)).toEqual([
      'POST /api/seller/webhook/rotate-secret',
      'POST /api/seller/webhook/test',
      'POST /api/seller/webhook/test',
    ]);
  });
});
