import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { chatAnswerSchema } from '@keystore/contract';
import { signIn } from '../../lib/session.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { json, renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { LiveChat } from './live-chat.tsx';

const GREETING = "Hi! I'm AI support. How can I help you?";
const messages = () => within(screen.getByRole('list', { name: 'Chat messages' })).getAllByRole('listitem').map((item) => item.textContent);

describe('the live chat', () => {
  afterEach(resetTestState);

  it('starts with the greeting, shows a typing indicator while waiting and sends the chat so far', async () => {
    let reply!: (response: Response) => void;
    const calls = stubApi({ 'POST /api/support/chat': () => new Promise<Response>((resolve) => (reply = resolve)) });
    const user = userEvent.setup();
    renderWithQueries(<LiveChat />);
    await user.click(screen.getByRole('button', { name: 'Start a live chat' }));
    expect(messages()).toEqual([`AI support: ${GREETING}`]);

    await user.type(screen.getByLabelText('Your message'), 'How long does a refund take?{Enter}');
    expect(screen.getByRole('status', { name: 'AI support is typing' })).toBeTruthy();
    expect(messages()).toEqual([`AI support: ${GREETING}`, 'You: How long does a refund take?']);
    expect(calls[0]).toEqual({ route: 'POST /api/support/chat', body: { message: 'How long does a refund take?', context: [{ sender: 'bot', text: GREETING }] } });

    await act(async () => reply(answer(chatAnswerSchema, { answer: 'Within 7 business days.' })));
    expect(screen.queryByRole('status', { name: 'AI support is typing' })).toBeNull();
    expect(messages()).toEqual([`AI support: ${GREETING}`, 'You: How long does a refund take?', 'AI support: Within 7 business days.']);
    expect((screen.getByLabelText('Your message') as HTMLTextAreaElement).value).toBe('');
  });

  it("says 'Sorry, an error occurred. Please try again later.' when the chat fails, and leaves it out of the context", async () => {
    const calls = stubApi({ 'POST /api/support/chat': () => json(503, { error: 'down' }) });
    const user = userEvent.setup();
    renderWithQueries(<LiveChat />);
    await user.click(screen.getByRole('button', { name: 'Start a live chat' }));
    await user.type(screen.getByLabelText('Your message'), 'Hello{Enter}');
    expect(await screen.findByText('Sorry, an error occurred. Please try again later.')).toBeTruthy();

    stubApi({ 'POST /api/support/chat': (call) => (calls.push(call), answer(chatAnswerSchema, { answer: 'Hi!' })) });
    await user.type(screen.getByLabelText('Your message'), 'Again{Enter}');
    expect(await screen.findByText('Hi!')).toBeTruthy();
    expect(calls[1]?.body).toEqual({ message: 'Again', context: [{ sender: 'bot', text: GREETING }, { sender: 'user', text: 'Hello' }] });
  });

  it('takes at most 450 characters and sends the bearer token when logged in', async () => {
    const calls = stubApi({ 'POST /api/support/chat': () => answer(chatAnswerSchema, { answer: 'Your order is paid.' }) });
    act(() => signIn('jwt-token', testUser()));
    const user = userEvent.setup();
    renderWithQueries(<LiveChat />);
    await user.click(screen.getByRole('button', { name: 'Start a live chat' }));
    const input = screen.getByLabelText('Your message');
    await user.click(input);
    await user.paste('z'.repeat(500));
    expect((input as HTMLTextAreaElement).value).toHaveLength(450);
    expect(screen.getByText('450/450')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Your order is paid.')).toBeTruthy();
    expect(calls[0]?.authorization).toBe('Bearer jwt-token');
  });
});
