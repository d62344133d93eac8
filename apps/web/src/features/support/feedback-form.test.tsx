import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { messageSchema } from '@keystore/contract';
import { signIn } from '../../lib/session.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { json, networkError, renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { SupportPage } from './support-page.tsx';

const describedText = (field: HTMLElement) => document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;

async function fillForm(user: ReturnType<typeof userEvent.setup>, values: { email?: string; name?: string; title?: string; message?: string } = {}) {
  await user.type(screen.getByLabelText('Email'), values.email ?? 'Ada.Writer@Gmail.com');
  await user.type(screen.getByLabelText('Name'), values.name ?? 'Ada');
  await user.type(screen.getByLabelText('Title of message'), values.title ?? 'Key not delivered');
  await user.type(screen.getByLabelText('Message'), values.message ?? 'My key has not arrived.');
}

describe('the support e-mail form', () => {
  afterEach(resetTestState);

  it('shows the rules of SPEC §5 under the fields and sends nothing while they fail', async () => {
    const calls = stubApi({});
    const user = userEvent.setup();
    renderWithQueries(<SupportPage />);
    await user.click(screen.getByRole('button', { name: 'Send a message' }));
    expect(describedText(screen.getByLabelText('Email'))).toBe('Email is required');
    expect(describedText(screen.getByLabelText('Name'))).toBe('Name is required');
    expect(describedText(screen.getByLabelText('Title of message'))).toBe('Title of message is required');
    expect(describedText(screen.getByLabelText('Message'))).toBe('Message is required');

    await user.type(screen.getByLabelText('Email'), 'player');
    expect(describedText(screen.getByLabelText('Email'))).toBe('Email address must contain "@"');
    await user.type(screen.getByLabelText('Email'), '@example.zzz');
    expect(describedText(screen.getByLabelText('Email'))).toBe('Please enter an email from a recognized provider');
    expect(calls).toEqual([]);
  });

  it('counts the message up to 450 characters and takes no more', async () => {
    stubApi({});
    const user = userEvent.setup();
    renderWithQueries(<SupportPage />);
    const message = screen.getByLabelText('Message');
    expect(screen.getByText('0/450')).toBeTruthy();
    await user.type(message, 'Hello');
    expect(screen.getByText('5/450')).toBeTruthy();
    await user.clear(message);
    await user.click(message);
    await user.paste('x'.repeat(500));
    expect((message as HTMLTextAreaElement).value).toHaveLength(450);
    expect(screen.getByText('450/450')).toBeTruthy();
  });

  it('sends the message with the e-mail lowercased, shows the answer and empties the form', async () => {
    const calls = stubApi({ 'POST /api/support/feedback': () => answer(messageSchema, { message: 'Thank you! Your message has been sent. We answer within 24 hours.' }) });
    const user = userEvent.setup();
    renderWithQueries(<SupportPage />);
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Send a message' }));
    expect(calls).toEqual([
      { route: 'POST /api/support/feedback', body: { email: 'ada.writer@gmail.com', name: 'Ada', title: 'Key not delivered', message: 'My key has not arrived.' } },
    ]);
    expect((await screen.findByRole('status')).textContent).toBe('Thank you! Your message has been sent. We answer within 24 hours.');
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('');
  });

  it("shows the server's error, else 'Failed to send your message. Please try again.'", async () => {
    stubApi({ 'POST /api/support/feedback': () => json(429, { error: 'Too many attempts. Please try again in 60 seconds.' }) });
    const user = userEvent.setup();
    renderWithQueries(<SupportPage />);
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Send a message' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts. Please try again in 60 seconds.');

    stubApi({ 'POST /api/support/feedback': networkError });
    await user.click(screen.getByRole('button', { name: 'Send a message' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to send your message. Please try again.');
  });

  it("fills in a logged-in customer's e-mail and sends their bearer token", async () => {
    const calls = stubApi({ 'POST /api/support/feedback': () => answer(messageSchema, { message: 'Sent.' }) });
    act(() => signIn('jwt-token', testUser({ email: 'keymaster@gmail.com' })));
    const user = userEvent.setup();
    renderWithQueries(<SupportPage />);
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('keymaster@gmail.com');
    await user.type(screen.getByLabelText('Name'), 'Key Master');
    await user.type(screen.getByLabelText('Title of message'), 'Hello');
    await user.type(screen.getByLabelText('Message'), 'A question.');
    await user.click(screen.getByRole('button', { name: 'Send a message' }));
    expect(await screen.findByText('Sent.')).toBeTruthy();
    expect(calls[0]).toMatchObject({ authorization: 'Bearer jwt-token', body: { email: 'keymaster@gmail.com' } });
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('keymaster@gmail.com');
  });
});
