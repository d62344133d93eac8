import { describe, expect, it } from 'vitest';
import { pageCountOf, pageList } from './pagination-pages.ts';

describe('pageList', () => {
  it('lists every page when there are 5 or fewer', () => {
    expect(pageList(1, 1)).toEqual([1]);
    expect(pageList(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('collapses around the current page with ellipses when there are more than 5', () => {
    expect(pageList(5, 17)).toEqual([1, 'gap', 4, 5, 6, 'gap', 17]);
    expect(pageList(9, 17)).toEqual([1, 'gap', 8, 9, 10, 'gap', 17]);
  });

  it('shows the first pages in a row near the start', () => {
    expect(pageList(1, 17)).toEqual([1, 2, 3, 4, 'gap', 17]);
    expect(pageList(3, 17)).toEqual([1, 2, 3, 4, 'gap', 17]);
    expect(pageList(4, 17)).toEqual([1, 2, 3, 4, 5, 'gap', 17]);
  });

  it('shows the last pages in a row near the end', () => {
    expect(pageList(17, 17)).toEqual([1, 'gap', 14, 15, 16, 17]);
    expect(pageList(14, 17)).toEqual([1, 'gap', 13, 14, 15, 16, 17]);
  });

  it('never puts an ellipsis where a single page would do', () => {
    expect(pageList(1, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pageList(6, 6)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pageList(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('keeps an out-of-range page inside the list', () => {
    expect(pageList(40, 17)).toEqual([1, 'gap', 14, 15, 16, 17]);
    expect(pageList(0, 3)).toEqual([1, 2, 3]);
    expect(pageList(1, 0)).toEqual([]);
  });
});

describe('pageCountOf', () => {
  it('counts whole pages of 20 and at least one', () => {
    expect(pageCountOf(0, 20)).toBe(1);
    expect(pageCountOf(20, 20)).toBe(1);
    expect(pageCountOf(21, 20)).toBe(2);
    expect(pageCountOf(331, 20)).toBe(17);
  });
});
