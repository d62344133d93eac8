import { describe, expect, it } from 'vitest';
import { catalogMessages } from './messages.ts';
import { filtersFromQuery, parseFilterList } from './catalog-rules.ts';
import { gameListQuerySchema, searchQuerySchema } from './catalog.ts';

describe('catalogue filters in the URL', () => {
  it('canonicalises known values, platform slugs and case, and keeps unknown values so they match nothing', () => {
    expect(parseFilterList('platform', 'ps5, xbox-series-x,steam,PC')).toEqual(['PS5', 'Xbox Series X', 'Steam', 'PC']);
    expect(parseFilterList('genre', 'rpg,Action,rpg')).toEqual(['RPG', 'Action']);
    expect(parseFilterList('region', 'Mars')).toEqual(['Mars']);
    expect(parseFilterList('language', ' , ')).toBeUndefined();
  });

  it('treats the category "All" as no restriction', () => {
    expect(parseFilterList('category', 'All')).toBeUndefined();
    expect(filtersFromQuery({ category: 'dlc,gift cards', platform: undefined })).toEqual({ category: ['DLC', 'Gift Cards'] });
  });
});

describe('list query', () => {
  it('defaults to popularity, page 1 and 20 per page, and caps the page size at 100', () => {
    expect(gameListQuerySchema.parse({})).toMatchObject({ sort: 'popularity', page: 1, pageSize: 20 });
    expect(gameListQuerySchema.parse({ pageSize: '1000' }).pageSize).toBe(100);
  });

  it('refuses an unknown sort and an overlong search with their messages', () => {
    expect(gameListQuerySchema.safeParse({ sort: 'random' }).error?.issues[0]?.message).toBe(catalogMessages.unknownSort);
    expect(gameListQuerySchema.safeParse({ search: 'x'.repeat(201) }).error?.issues[0]?.message).toBe(catalogMessages.searchTooLong);
    expect(searchQuerySchema.safeParse({}).error?.issues[0]?.message).toBe(catalogMessages.queryRequired);
  });
});
