import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetTestState, stubApi } from '../test/fixtures.tsx';
import { PageErrorBoundary } from './page-error-boundary.tsx';

function Broken(): never {
  throw new Error('the page broke');
}

describe('a page that fails to render', () => {
  afterEach(() => {
    resetTestState();
    vi.restoreAllMocks();
  });

  it('keeps the frame, says so with a way back, reports the failure and clears on the next page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const calls = stubApi({ 'POST /api/client-errors': () => new Response(null, { status: 204 }) });
    render(
      <MemoryRouter initialEntries={['/broken?token=secret']}>
        <nav>
          <Link to="/">Home link</Link>
        </nav>
        <PageErrorBoundary>
          <Routes>
            <Route path="/" element={<h1>Home</h1>} />
            <Route path="/broken" element={<Broken />} />
          </Routes>
        </PageErrorBoundary>
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
    const reported = calls.find((call) => call.route === 'POST /api/client-errors');
    expect(reported?.body).toMatchObject({ message: 'the page broke' });
    expect(JSON.stringify(reported?.body)).not.toContain('secret');

    await userEvent.click(screen.getByRole('link', { name: 'Home link' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
  });
});
