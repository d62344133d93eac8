import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CollectionCarousel } from './collection-carousel.tsx';

const slide = (n: number) => screen.getByRole('group', { name: `${n} of 10` });
const currentSlide = () => screen.getAllByRole('group').findIndex((group) => group.getAttribute('aria-roledescription') === 'slide' && !group.hasAttribute('inert')) + 1;
const viewport = () => slide(1).parentElement!.parentElement!;
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));

function renderCarousel() {
  render(
    <MemoryRouter>
      <CollectionCarousel />
    </MemoryRouter>,
  );
}

describe('the collections carousel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows ten labelled slides, the first one current, each linking to the store', () => {
    renderCarousel();
    expect(screen.getByRole('region', { name: 'Collections' }).getAttribute('aria-roledescription')).toBe('carousel');
    for (let n = 1; n <= 10; n += 1) expect(slide(n)).toBeTruthy();
    expect(currentSlide()).toBe(1);
    expect(slide(1).textContent).toContain('Beer & boss fights');
    expect(slide(2).textContent).toContain('Pay to die');
    expect(slide(1).querySelector('a')!.getAttribute('href')).toMatch(/^\/store\?/);
  });

  it('advances every 5 s and wraps around after the last slide', () => {
    renderCarousel();
    wait(4999);
    expect(currentSlide()).toBe(1);
    wait(1);
    expect(currentSlide()).toBe(2);
    // One step at a time: each slide change re-arms the timer after React renders.
    for (let step = 0; step < 9; step += 1) wait(5000);
    expect(currentSlide()).toBe(1);
  });

  it('pauses while a mouse is over it or focus is inside it', () => {
    renderCarousel();
    const region = screen.getByRole('region', { name: 'Collections' });
    fireEvent.pointerEnter(region, { pointerType: 'mouse' });
    wait(15_000);
    expect(currentSlide()).toBe(1);
    fireEvent.pointerLeave(region, { pointerType: 'mouse' });
    wait(5000);
    expect(currentSlide()).toBe(2);

    act(() => screen.getByRole('button', { name: 'Next slide' }).focus());
    wait(15_000);
    expect(currentSlide()).toBe(2);
    act(() => screen.getByRole('button', { name: 'Next slide' }).blur());
    wait(5000);
    expect(currentSlide()).toBe(3);
  });

  it('moves with the previous, next and slide buttons', () => {
    renderCarousel();
    fireEvent.click(screen.getByRole('button', { name: 'Previous slide' }));
    expect(currentSlide()).toBe(10);
    fireEvent.click(screen.getByRole('button', { name: 'Next slide' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next slide' }));
    expect(currentSlide()).toBe(2);
    fireEvent.click(screen.getByRole('button', { name: /^Slide 7:/ }));
    expect(currentSlide()).toBe(7);
    expect(screen.getByRole('button', { name: /^Slide 7:/ }).getAttribute('aria-current')).toBe('true');
  });

  it('changes slide on a swipe of more than 50 px, and not on a shorter one', () => {
    renderCarousel();
    fireEvent.pointerDown(viewport(), { clientX: 300 });
    fireEvent.pointerUp(viewport(), { clientX: 250 });
    expect(currentSlide()).toBe(1);
    fireEvent.pointerDown(viewport(), { clientX: 300 });
    fireEvent.pointerUp(viewport(), { clientX: 240 });
    expect(currentSlide()).toBe(2);
    fireEvent.pointerDown(viewport(), { clientX: 100 });
    fireEvent.pointerUp(viewport(), { clientX: 200 });
    expect(currentSlide()).toBe(1);
  });

  it('does not advance by itself for visitors who prefer reduced motion, until they start it', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('reduce'), addEventListener: () => {}, removeEventListener: () => {} }));
    renderCarousel();
    wait(20_000);
    expect(currentSlide()).toBe(1);
    const start = screen.getByRole('button', { name: 'Start automatic slide show' });
    fireEvent.click(start);
    act(() => start.blur());
    wait(5000);
    expect(currentSlide()).toBe(2);
  });

  it('stops rotating from the rotation button', () => {
    renderCarousel();
    const stop = screen.getByRole('button', { name: 'Stop automatic slide show' });
    fireEvent.click(stop);
    wait(20_000);
    expect(currentSlide()).toBe(1);
    expect(screen.getByRole('button', { name: 'Start automatic slide show' })).toBeTruthy();
  });
});
