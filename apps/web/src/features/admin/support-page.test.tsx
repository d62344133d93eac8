import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { adminMessages, adminSupportListSchema, notificationMessages, notificationSchema } from '@keystore/contract';
import { testSupportList, testSupportMessage } from '../../test/admin-fixtures.ts';
import { answer, testNotification } from '../../test/contract-fixtures.ts';
import { json, renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { Toasts } from '../../ui/toasts.tsx';
import { AdminSupportPage } from './support-page.tsx';

afterEach(resetTestState);

function renderInbox() {
  renderWithQueries(
    <MemoryRouter initialEntries={['/admin/support']}>
      <AdminSupportPage />
      <Toasts />
    </MemoryRouter>,
  );
}

describe('the support inbox', () => {
  it('refuses an empty reply with the contract’s text, sends a written one and shows the message answered', async () => {
    let answered = false;
    const calls = stubApi({
      'GET /api/admin/support': () =>
        answer(adminSupportListSchema, testSupportList([answered ? testSupportMessage({ status: 'answered', reply: 'Sent again.', answeredAt: '2026-11-25T09:00:00Z' }) : testSupportMessage()])),
      'POST /api/admin/support/s1/reply': () => {
        answered = true;
        return json(200, { message: adminMessages.replied });
      },
    });
    renderInbox();
    const message = await screen.findByRole('article', { name: 'Where is my key?' });
    const user = userEvent.setup();
    await user.click(within(message).getByRole('button', { name: 'Send reply' }));
    expect(within(message).getByRole('alert').textContent).toBe(adminMessages.replyRequired);
    await user.type(within(message).getByLabelText('Reply'), 'Sent again.');
    await user.click(within(message).getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText(adminMessages.replied)).toBeTruthy();
    expect(await screen.findByText('Answered', { selector: 'span' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send reply' })).toBeNull();
    expect(calls.filter((call) => call.route.startsWith('POST'))).toEqual([{ route: 'POST /api/admin/support/s1/reply', body: { reply: 'Sent again.' } }]);
  });

  it('sends every shopper a notification, refusing an empty one with the contract’s texts', async () => {
    const calls = stubApi({
      'GET /api/admin/support': () => answer(adminSupportListSchema, testSupportList([])),
      'POST /api/admin/notifications': () => answer(notificationSchema, testNotification({ title: 'Slow delivery', text: 'Keys arrive late today.' }), 201),
    });
    renderInbox();
    const form = screen.getByRole('form', { name: 'Notify every shopper' });
    const user = userEvent.setup();
    await user.click(within(form).getByRole('button', { name: 'Send notification' }));
    expect(within(form).getAllByRole('alert').map((alert) => alert.textContent)).toEqual([notificationMessages.titleRequired, notificationMessages.textRequired]);
    await user.type(within(form).getByLabelText('Title'), 'Slow delivery');
    await user.type(within(form).getByLabelText('Text'), 'Keys arrive late today.');
    await user.click(within(form).getByRole('button', { name: 'Send notification' }));
    expect(await screen.findByText('The notification was sent to every shopper.')).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('POST'))).toEqual([{ route: 'POST /api/admin/notifications', body: { title: 'Slow delivery', text: 'Keys arrive late today.' } }]);
  });
});
