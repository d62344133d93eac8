import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { newsMessages, type News } from '@keystore/contract';
import { testNews } from '../../test/contract-fixtures.ts';
import { json, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { NewsDetailPage } from './news-detail-page.tsx';
import { otherNews, publishedAt, subtitleOf } from './news-info.ts';
import { NewsListPage } from './news-list-page.tsx';

/** A news item as the server answers it. */
function newsItem(n: number, overrides: Partial<News> = {}): News {
  return testNews({
    _id: `n${n}`,
    title: `Headline ${n}`,
    category: 'Store news',
    content: `First sentence of ${n}. More of it.\n\nSecond paragraph of ${n}.`,
    coverImage: n % 2 === 0 ? `/media/news/c${n}.webp` : null,
    author: 'Admin',
    createdAt: '2026-11-20T09:05:00Z',
    ...overrides,
  });
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/news" element={<NewsListPage />} />
          <Route path="/news/:id" element={<NewsDetailPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(resetTestState);

describe('the news list', () => {
  it('shows the two newest as hero cards and the rest in the grid, with a placeholder for a missing cover', async () => {
    stubApi({ 'GET /api/news': () => json(200, [1, 2, 3, 4, 5].map((n) => newsItem(n))) });
    renderAt('/news');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('News');
    expect(screen.getByText('Loading news')).toBeTruthy();
    const links = await screen.findAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/news/n1', '/news/n2', '/news/n3', '/news/n4', '/news/n5']);
    const items = screen.getAllByRole('listitem');
    expect(items.slice(0, 2).every((item) => item.className.includes('hero'))).toBe(true);
    expect(items.slice(2).every((item) => item.className.includes('gridItem'))).toBe(true);
    expect(within(items[0]!).getByTestId('cover-placeholder')).toBeTruthy();
    expect(items[1]!.querySelector('img')?.getAttribute('src')).toBe('/media/news/c2.webp');
    expect(within(items[0]!).getByText('First sentence of 1.')).toBeTruthy();
  });

  it('says when there is no news, and when it cannot be loaded', async () => {
    stubApi({ 'GET /api/news': () => json(200, []) });
    renderAt('/news');
    expect(await screen.findByText(newsMessages.empty)).toBeTruthy();
    resetTestState();
    stubApi({ 'GET /api/news': () => json(500, { error: 'boom' }) });
    renderAt('/news');
    expect((await screen.findByRole('alert')).textContent).toBe(newsMessages.loadFailed);
  });
});

describe('a news item', () => {
  it('shows breadcrumbs, cover, title, subtitle, paragraphs, author and time, and 3 other items', async () => {
    const item = newsItem(2, { author: 'Keystore AI' });
    stubApi({
      'GET /api/news/n2': () => json(200, item),
      'GET /api/news': () => json(200, [1, 2, 3, 4, 5].map((n) => newsItem(n))),
    });
    renderAt('/news/n2');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Headline 2');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getAllByRole('link').map((link) => link.textContent)).toEqual(['Main', 'News']);
    expect(screen.getByText('First sentence of 2.', { selector: 'p' })).toBeTruthy();
    expect(screen.getByText('First sentence of 2. More of it.')).toBeTruthy();
    expect(screen.getByText('Second paragraph of 2.')).toBeTruthy();
    expect(screen.getByText(/^Published by/).textContent).toBe(`Published by Keystore AI at ${publishedAt(item.createdAt)}`);
    const others = within(await screen.findByRole('region', { name: 'Other news' })).getAllByRole('link');
    expect(others).toHaveLength(3);
    expect(others.map((link) => link.getAttribute('href'))).not.toContain('/news/n2');
  });

  it('says Admin when the item has no author, and Error loading news for an unknown item', async () => {
    stubApi({ 'GET /api/news/n1': () => json(200, newsItem(1, { author: '' })), 'GET /api/news': () => json(200, [newsItem(1)]) });
    renderAt('/news/n1');
    expect((await screen.findByText(/^Published by/)).textContent).toMatch(/^Published by Admin at /);
    expect(screen.queryByRole('region', { name: 'Other news' })).toBeNull();
    resetTestState();
    stubApi({ 'GET /api/news/gone': () => json(404, { error: newsMessages.notFound }), 'GET /api/news': () => json(200, []) });
    renderAt('/news/gone');
    expect((await screen.findByRole('alert')).textContent).toBe(newsMessages.loadFailed);
  });
});

describe('news helpers', () => {
  it('derive the subtitle from the first sentence, pick others at random, and format the time', () => {
    expect(subtitleOf('Big sale! It ends soon.\n\nMore.')).toBe('Big sale!');
    expect(subtitleOf('No full stop here')).toBe('No full stop here');
    const list = [1, 2, 3, 4, 5].map((n) => newsItem(n));
    expect(otherNews(list, 'n3', 3, () => 0).map((item) => item._id)).toHaveLength(3);
    expect(otherNews(list, 'n3', 10).map((item) => item._id).sort()).toEqual(['n1', 'n2', 'n4', 'n5']);
    expect(publishedAt(new Date(2026, 10, 3, 7, 4).toISOString())).toBe('07:04 03.11.2026');
  });
});
