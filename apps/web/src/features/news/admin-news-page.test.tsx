import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generatedImageSchema, generatedTextSchema, newsMessages } from '@keystore/contract';
import { signIn } from '../../lib/session.ts';
import { answer, testNews, testUser } from '../../test/contract-fixtures.ts';
import { json, resetTestState, stubApi, type ApiCall } from '../../test/fixtures.tsx';
import { Toasts } from '../../ui/toasts.tsx';
import { AdminNewsPage } from './admin-news-page.tsx';

function renderAdmin() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/admin/news']}>
        <AdminNewsPage />
        <Toasts />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const asAdmin = () => act(() => signIn('admin-token', testUser({ role: 'admin', username: 'Admin' })));
const created = testNews({ _id: 'n9', title: 't', category: 'c', content: 'x', coverImage: null, author: 'Admin', createdAt: '2026-11-20T09:05:00Z' });

afterEach(resetTestState);

describe('the admin news screen', () => {
  it('creates news from the manual form with its cover and a preview', async () => {
    // jsdom has no object URLs; the preview only needs a string.
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview'), revokeObjectURL: vi.fn() });
    const calls = stubApi({ 'POST /api/news': () => json(201, created) });
    asAdmin();
    const user = userEvent.setup();
    renderAdmin();
    await user.click(screen.getByRole('button', { name: 'Create News' }));
    expect((await screen.findAllByRole('alert')).map((alert) => alert.textContent)).toEqual([
      newsMessages.titleRequired,
      newsMessages.categoryRequired,
      newsMessages.contentRequired,
    ]);
    expect(calls).toHaveLength(0);

    await user.type(screen.getByLabelText('Title'), 'Winter sale');
    await user.type(screen.getByLabelText('Category'), 'Sales');
    await user.type(screen.getByLabelText('Content'), 'It starts today.');
    const file = new File(['png'], 'cover.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Cover Image'), file);
    expect(screen.getByAltText('Cover preview').getAttribute('src')).toBe('blob:preview');
    await user.click(screen.getByRole('button', { name: 'Create News' }));

    expect(await screen.findByText(newsMessages.created)).toBeTruthy();
    const form = calls[0]!.body as FormData;
    expect(calls[0]!.authorization).toBe('Bearer admin-token');
    expect(Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === 'string'))).toEqual({
      title: 'Winter sale',
      category: 'Sales',
      content: 'It starts today.',
      author: 'Admin',
    });
    expect((form.get('coverImage') as File).name).toBe('cover.png');
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('');
  });

  it('says so when creating fails', async () => {
    stubApi({ 'POST /api/news': () => json(500, { error: 'boom' }) });
    asAdmin();
    const user = userEvent.setup();
    renderAdmin();
    await user.type(screen.getByLabelText('Title'), 'T');
    await user.type(screen.getByLabelText('Category'), 'C');
    await user.type(screen.getByLabelText('Content'), 'X');
    await user.click(screen.getByRole('button', { name: 'Create News' }));
    expect(await screen.findByText(newsMessages.createFailed)).toBeTruthy();
  });

  it('walks the AI flow: text, image, approve; and asks for the text first', async () => {
    const calls: ApiCall[] = stubApi({
      'POST /api/news/generate-text': () => answer(generatedTextSchema, { title: 'Price drops: Hades now 40% off', content: 'Prices fell.\n\nHades: €9.99', author: 'Keystore AI' }),
      'POST /api/news/generate-image': () => answer(generatedImageSchema, { coverImage: '/media/news/abc.webp' }),
      'POST /api/news': () => json(201, created),
    });
    asAdmin();
    const user = userEvent.setup();
    renderAdmin();
    await user.click(screen.getByRole('button', { name: 'Generate News Image' }));
    expect(await screen.findByText(newsMessages.textFirst)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(newsMessages.nothingToSave)).toBeTruthy();
    expect(calls).toHaveLength(0);

    await user.type(screen.getByLabelText('Topic'), 'discounts');
    await user.click(screen.getByRole('button', { name: 'Generate News Text' }));
    expect(await screen.findByRole('heading', { name: 'Price drops: Hades now 40% off' })).toBeTruthy();
    expect(screen.getByText('Hades: €9.99')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Generate News Image' }));
    expect((await screen.findByAltText('Generated cover')).getAttribute('src')).toBe('/media/news/abc.webp');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(newsMessages.approved)).toBeTruthy();
    expect(calls.map((call) => call.route)).toEqual(['POST /api/news/generate-text', 'POST /api/news/generate-image', 'POST /api/news']);
    expect(calls[0]!.body).toEqual({ topic: 'discounts' });
    expect(calls[2]!.body).toEqual({
      title: 'Price drops: Hades now 40% off',
      content: 'Prices fell.\n\nHades: €9.99',
      category: 'Store news',
      author: 'Keystore AI',
      coverImage: '/media/news/abc.webp',
    });
    expect(screen.queryByRole('article', { name: 'Generated news' })).toBeNull();
  });

  it('resets on Regenerate and reports each failure', async () => {
    stubApi({
      'POST /api/news/generate-text': () => answer(generatedTextSchema, { title: 'Draft', content: 'Text.', author: 'ChatGPT' }),
      'POST /api/news/generate-image': () => json(502, { error: newsMessages.imageFailed }),
      'POST /api/news': () => json(500, { error: 'boom' }),
    });
    asAdmin();
    const user = userEvent.setup();
    renderAdmin();
    await user.type(screen.getByLabelText('Topic'), 'anything');
    await user.click(screen.getByRole('button', { name: 'Generate News Text' }));
    expect(await screen.findByRole('heading', { name: 'Draft' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Generate News Image' }));
    expect(await screen.findByText(newsMessages.imageFailed)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(newsMessages.saveFailed)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Regenerate' }));
    expect(screen.queryByRole('heading', { name: 'Draft' })).toBeNull();
  });

  it('reports a failed text generation', async () => {
    stubApi({ 'POST /api/news/generate-text': () => json(502, { error: newsMessages.textFailed }) });
    asAdmin();
    const user = userEvent.setup();
    renderAdmin();
    await user.type(screen.getByLabelText('Topic'), 'anything');
    await user.click(screen.getByRole('button', { name: 'Generate News Text' }));
    expect(await screen.findByText(newsMessages.textFailed)).toBeTruthy();
  });
});
