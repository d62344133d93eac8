import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Notification, streamTicketSchema } from '@keystore/contract';
import { signIn } from '../../lib/session.ts';
import { answer, testNotification, testUser } from '../../test/contract-fixtures.ts';
import { json, networkError, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { DEMO_NOTIFICATIONS } from './demo-notifications.ts';
import { NotificationBell } from './notification-bell.tsx';

const at = (day: number, hour: number, minute: number) => new Date(2026, 10, day, hour, minute).getTime();
const notification = (id: string, overrides: Partial<Notification> = {}): Notification => {
  const rawTimestamp = overrides.rawTimestamp ?? at(20, 9, 5);
  return testNotification({ _id: id, title: `Title ${id}`, text: `Text ${id}`, generatedAt: new Date(rawTimestamp).toISOString(), rawTimestamp, ...overrides });
};

function renderBell() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <NotificationBell />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const bell = () => screen.getByRole('button', { name: /^Notifications/ });
const openPanel = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(bell());
  return screen.findByRole('dialog', { name: 'Notifications' });
};
const itemTitles = (panel: HTMLElement) => within(panel).queryAllByRole('listitem').map((item) => item.querySelector('strong')!.textContent);

afterEach(() => {
  resetTestState();
  localStorage.clear();
});

describe('the notifications bell', () => {
  it('shows a visitor the public ones, two at a time, with quotes stripped and the time as HH:MM DD.MM.YY', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/notifications/public': () =>
        json(200, [
          notification('n1', { title: '"Summer sale"', text: '"Up to 80% off"', rawTimestamp: at(23, 9, 5) }),
          notification('n2'),
          notification('n3'),
        ]),
    });
    renderBell();
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 3 unread'));
    const panel = await openPanel(user);
    expect(within(panel).getByRole('heading', { name: 'Notifications' })).toBeTruthy();
    await waitFor(() => expect(calls.filter((call) => call.route === 'GET /api/notifications/public')).toHaveLength(2));
    expect(itemTitles(panel)).toEqual(['Summer sale', 'Title n2']);
    const first = within(panel).getAllByRole('listitem')[0]!;
    expect(within(first).getByText('Up to 80% off')).toBeTruthy();
    expect(within(first).getByText('09:05 23.11.26')).toBeTruthy();
    expect(first.textContent).toContain('Unread:');

    await user.click(within(panel).getByRole('button', { name: 'View All Notifications' }));
    expect(itemTitles(panel)).toEqual(['Summer sale', 'Title n2', 'Title n3']);
    await user.click(within(panel).getByRole('button', { name: 'View Less' }));
    expect(itemTitles(panel)).toHaveLength(2);
  });

  it("keeps a visitor's reads in this browser, closes on Escape with focus back on the bell, and opens collapsed again", async () => {
    const user = userEvent.setup();
    stubApi({ 'GET /api/notifications/public': () => json(200, [notification('n1'), notification('n2'), notification('n3')]) });
    renderBell();
    const panel = await openPanel(user);
    await user.click(within(panel).getByRole('button', { name: 'View All Notifications' }));
    await user.click(within(panel).getByRole('button', { name: /Title n1/ }));
    expect(bell().getAttribute('aria-label')).toBe('Notifications, 2 unread');
    expect(within(panel).getAllByRole('listitem')[0]!.textContent).not.toContain('Unread:');
    expect(Object.entries(localStorage).find(([key]) => key.startsWith('keystore.readNotifications'))?.[1]).toBe('["n1"]');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(bell());
    const reopened = await openPanel(user);
    expect(within(reopened).getByRole('button', { name: 'View All Notifications' })).toBeTruthy();
    await user.click(within(reopened).getByRole('button', { name: 'Read all' }));
    expect(bell().getAttribute('aria-label')).toBe('Notifications');
    await user.click(within(reopened).getByRole('button', { name: 'Close notifications' }));
    expect(screen.queryByRole('dialog')).toBeNull();

    // Another render of the app (a reload) remembers what was read.
    resetTestState();
    stubApi({ 'GET /api/notifications/public': () => json(200, [notification('n1'), notification('n4')]) });
    renderBell();
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 1 unread'));
  });

  it('shows the two demo notifications when the public list cannot be fetched', async () => {
    const user = userEvent.setup();
    stubApi({ 'GET /api/notifications/public': networkError });
    renderBell();
    const panel = await openPanel(user);
    await waitFor(() => expect(itemTitles(panel)).toEqual(DEMO_NOTIFICATIONS.map((n) => n.title)));
    expect(bell().getAttribute('aria-label')).toBe('Notifications, 2 unread');
  });

  it("lists a signed-in user's notifications and marks each unread one read on the server with 'Read all'", async () => {
    const user = userEvent.setup();
    act(() => signIn('token-1', testUser()));
    const calls = stubApi({
      'GET /api/notifications': () => json(200, [notification('p1', { isPublic: false, title: 'Order paid' }), notification('p2'), notification('p3', { isRead: true })]),
      'POST /api/notifications/mark-read/p1': () => json(204),
      'POST /api/notifications/mark-read/p2': () => json(204),
    });
    renderBell();
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 2 unread'));
    const panel = await openPanel(user);
    expect(itemTitles(panel)[0]).toBe('Order paid');
    await user.click(within(panel).getByRole('button', { name: 'Read all' }));
    expect(bell().getAttribute('aria-label')).toBe('Notifications');
    const marks = calls.filter((call) => call.route.startsWith('POST'));
    expect(marks.map((call) => call.route)).toEqual(['POST /api/notifications/mark-read/p1', 'POST /api/notifications/mark-read/p2']);
    expect(marks.every((call) => call.authorization === 'Bearer token-1')).toBe(true);
    expect(calls.some((call) => call.route === 'GET /api/notifications/public')).toBe(false);
  });

  it("says 'No notifications yet' when there are none, and a failed fetch of a user's list is silent", async () => {
    const user = userEvent.setup();
    act(() => signIn('token-1', testUser()));
    stubApi({ 'GET /api/notifications': () => json(500, { error: 'down' }) });
    renderBell();
    const panel = await openPanel(user);
    expect(await within(panel).findByText('No notifications yet')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'View All Notifications' })).toBeNull();
  });

  it('adds a notification arriving on the live stream and counts it', async () => {
    const sources = fakeEventSources();
    stubApi({ 'GET /api/notifications/public': () => json(200, [notification('n1', { isRead: false })]) });
    renderBell();
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 1 unread'));
    expect(sources.at(-1)!.url).toMatch(/^\/api\/notifications\/stream\?sessionId=/);
    act(() => {
      sources.at(-1)!.dispatchEvent(new MessageEvent('notification', { data: JSON.stringify(notification('live')) }));
    });
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 2 unread'));
  });

  it('opens a signed-in user’s stream with a one-use ticket, never the session token, and a new ticket after a loss', async () => {
    const sources = fakeEventSources();
    act(() => signIn('session-token-1', testUser()));
    let issued = 0;
    const calls = stubApi({
      'GET /api/notifications': () => json(200, [notification('n1')]),
      'POST /api/notifications/stream-ticket': () => answer(streamTicketSchema, { ticket: `ticket-${(issued += 1)}`, expiresInSeconds: 60 }),
    });
    renderBell();
    await waitFor(() => expect(sources).toHaveLength(1));
    expect(sources[0]!.url).toBe('/api/notifications/stream?ticket=ticket-1');
    expect(sources.map((source) => source.url).join()).not.toContain('session-token-1');
    act(() => sources[0]!.dispatchEvent(new Event('open')));
    // The connection drops: the browser would reuse the spent ticket, so the app closes it and asks for another.
    act(() => sources[0]!.dispatchEvent(new Event('error')));
    expect(sources[0]!.closed).toBe(true);
    await waitFor(() => expect(sources).toHaveLength(2), { timeout: 4000 });
    expect(sources[1]!.url).toBe('/api/notifications/stream?ticket=ticket-2');
    // Back again: what arrived meanwhile is fetched.
    const listCalls = () => calls.filter((call) => call.route === 'GET /api/notifications').length;
    const before = listCalls();
    act(() => sources[1]!.dispatchEvent(new Event('open')));
    await waitFor(() => expect(listCalls()).toBe(before + 1));
  });
});

interface FakeEventSource extends EventTarget {
  readonly url: string;
  closed: boolean;
}

/** Stands in for the browser's EventSource (jsdom has none) and keeps every one opened. */
function fakeEventSources(): FakeEventSource[] {
  const sources: FakeEventSource[] = [];
  class Fake extends EventTarget implements FakeEventSource {
    readonly url: string;
    closed = false;
    constructor(url: string) {
      super();
      this.url = url;
      sources.push(this);
    }
    close() {
      this.closed = true;
    }
  }
  vi.stubGlobal('EventSource', Fake);
  return sources;
}
