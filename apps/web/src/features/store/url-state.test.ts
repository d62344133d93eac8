import { describe, expect, it } from 'vitest';
import { apiQuery, listKey, noFilters, parseStoreState, sameFilters, storeSearch, withFilter, withPage, withSort } from './url-state.ts';

const parse = (query: string) => parseStoreState(new URLSearchParams(query));

describe('parseStoreState', () => {
  it('answers the defaults for an empty query', () => {
    expect(parse('')).toEqual({ search: '', sort: 'popularity', page: 1, filters: noFilters() });
  });

  it('reads search, sort, page and every filter as a comma list', () => {
    const state = parse('search=%20witcher%20&sort=price-desc&page=3&category=Games,DLC&genre=RPG&region=Europe&language=English,German');
    expect(state.search).toBe('witcher');
    expect(state.sort).toBe('price-desc');
    expect(state.page).toBe(3);
    expect(state.filters).toEqual({ category: ['Games', 'DLC'], platform: [], genre: ['RPG'], region: ['Europe'], language: ['English', 'German'] });
  });

  it('maps platform slugs and any spelling to the platform names', () => {
    expect(parse('platform=pc,xbox-series-x,ps5,NINTENDO-SWITCH,steam').filters.platform).toEqual(['PC', 'Xbox Series X', 'PS5', 'Nintendo Switch', 'Steam']);
    expect(parse('platform=Xbox%20One,xbox%20one').filters.platform).toEqual(['Xbox One']);
  });

  it('falls back to the default for an unknown sort or an invalid page', () => {
    expect(parse('sort=cheapest').sort).toBe('popularity');
    expect(parse('page=0').page).toBe(1);
    expect(parse('page=-2').page).toBe(1);
    expect(parse('page=2.5').page).toBe(1);
    expect(parse('page=abc').page).toBe(1);
  });

  it('treats the category "All" as no restriction and ignores empty list entries', () => {
    expect(parse('category=All').filters.category).toEqual([]);
    expect(parse('genre=,RPG,,rpg,').filters.genre).toEqual(['RPG']);
  });

  it('keeps unknown values as written, so the URL round-trips', () => {
    expect(parse('genre=Puzzle').filters.genre).toEqual(['Puzzle']);
  });
});

describe('storeSearch', () => {
  it('writes nothing for the default state', () => {
    expect(storeSearch(parse(''))).toBe('');
  });

  it('writes filters as readable comma lists, platforms as slugs, and leaves defaults out', () => {
    const state = parse('search=the witcher&platform=PC,Xbox One&category=Gift Cards&sort=newest&page=2');
    expect(storeSearch(state)).toBe('?search=the%20witcher&category=Gift%20Cards&platform=pc,xbox-one&sort=newest&page=2');
    expect(storeSearch(withSort(state, 'popularity'))).toBe('?search=the%20witcher&category=Gift%20Cards&platform=pc,xbox-one');
  });

  it('round-trips through parseStoreState', () => {
    const state = parse('search=a,b&platform=gog,ps3&genre=Action,RPG&region=US&language=Japanese&sort=price-asc&page=4');
    expect(parse(storeSearch(state).slice(1))).toEqual(state);
  });
});

describe('apiQuery', () => {
  it('asks for the state with filters by name and 20 per page', () => {
    const query = new URLSearchParams(apiQuery(parse('platform=pc,steam&genre=RPG&page=2&search=war')));
    expect(Object.fromEntries(query)).toEqual({ search: 'war', platform: 'PC,Steam', genre: 'RPG', sort: 'popularity', page: '2', pageSize: '20' });
  });
});

describe('changes', () => {
  const onPage3 = parse('genre=RPG&page=3');

  it('returns to page 1 when a filter or the sort changes', () => {
    expect(withFilter(onPage3, 'platform', ['PC']).page).toBe(1);
    expect(withFilter(onPage3, 'platform', ['PC']).filters).toEqual({ ...noFilters(), genre: ['RPG'], platform: ['PC'] });
    expect(withSort(onPage3, 'newest').page).toBe(1);
  });

  it('keeps the filters when only the page changes', () => {
    expect(withPage(onPage3, 5)).toEqual({ ...onPage3, page: 5 });
  });

  it('gives one list key for every page of the same list', () => {
    expect(listKey(onPage3)).toBe(listKey(withPage(onPage3, 1)));
    expect(listKey(onPage3)).not.toBe(listKey(withSort(onPage3, 'newest')));
  });

  it('compares filter selections regardless of order', () => {
    expect(sameFilters(parse('genre=RPG,Action').filters, parse('genre=Action,RPG').filters)).toBe(true);
    expect(sameFilters(parse('genre=RPG').filters, parse('genre=RPG,Action').filters)).toBe(false);
  });
});
