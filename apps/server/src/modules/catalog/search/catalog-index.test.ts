import fc from 'fast-check';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILTER_NAMES, FILTERS, SORTS, type FilterName, type GameListAnswer } from '@keystore/contract';
import { queryRows } from '../../../db/client.ts';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { upsertProducts } from '../store.ts';
import { syntheticProducts } from '../synthetic.ts';

// The index must answer exactly what a plain SQL query over the games table answers.

const COLUMN: Record<FilterName, { column: string; array: boolean }> = {
  category: { column: 'type', array: false },
  platform: { column: 'platform', array: false },
  genre: { column: 'genres', array: true },
  region: { column: 'region', array: false },
  language: { column: 'languages', array: true },
};
const ORDER: Record<(typeof SORTS)[number], string> = {
  popularity: 'popularity desc',
  'price-asc': 'price_cents asc',
  'price-desc': 'price_cents desc',
  newest: 'released_at desc',
};

interface Query {
  search?: string;
  sort: (typeof SORTS)[number];
  page: number;
  pageSize: number;
  filters: Partial<Record<FilterName, string[]>>;
}

function searchCondition(search: string | undefined): SQL[] {
  const words = (search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return words.map((word) => sql`lower(title) like ${`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
}

function filterCondition(name: FilterName, values: string[]): SQL {
  const { column, array } = COLUMN[name];
  const list = sql`${`{${values.map((v) => `"${v}"`).join(',')}}`}::text[]`;
  return array ? sql`${sql.identifier(column)} && ${list}` : sql`${sql.identifier(column)} = any(${list})`;
}

function where(conditions: SQL[]): SQL {
  return conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
}

describe('catalogue index against SQL', () => {
  let t: TestApp;
  const titles: string[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    const products = syntheticProducts(400, 7);
    // Ties on price and popularity on purpose, so the id tie-break is exercised.
    products.forEach((product, n) => {
      if (n % 5 === 0) product.priceCents = 1999;
      if (n % 7 === 0) product.popularity = 500;
    });
    await upsertProducts(t.database.db, 'synthetic', products, 0, new Date('2026-01-01T00:00:00Z'));
    await t.app.catalog.rebuild();
    titles.push(...products.map((product) => product.title));
  });
  afterAll(() => t.close());

  async function oracle(query: Query): Promise<Omit<GameListAnswer, 'items'> & { ids: string[] }> {
    const db = t.database.db;
    const search = searchCondition(query.search);
    const filterConditions = (except?: FilterName): SQL[] =>
      FILTER_NAMES.filter((name) => name !== except && query.filters[name]).map((name) => filterCondition(name, query.filters[name]!));
    const all = [...search, ...filterConditions()];
    const rows = await queryRows<{ id: string }>(db, 
      sql`select id from games ${where(all)} order by ${sql.raw(ORDER[query.sort])}, id collate "C" limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`,
    );
    const total = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from games ${where(all)}`);
    const facets = {} as GameListAnswer['facets'];
    for (const name of FILTER_NAMES) {
      facets[name] = [];
      for (const value of FILTERS[name]) {
        const counted = await queryRows<{ n: number }>(db, 
          sql`select count(*)::int as n from games ${where([...search, ...filterConditions(name), filterCondition(name, [value])])}`,
        );
        facets[name].push({ value, count: Number(counted[0]!.n) });
      }
    }
    return { ids: rows.map((row) => row.id), total: Number(total[0]!.n), page: query.page, pageSize: query.pageSize, facets };
  }

  const wordArb = fc.constantFrom(...'shadow iron legends kingdom edition gift card 2 3 ne ro dlc pack the of : -'.split(' '));
  const titleSlice = fc
    .tuple(fc.nat(399), fc.nat(20), fc.integer({ min: 2, max: 8 }))
    .map(([n, start, length]) => titles[n]!.slice(start, start + length).trim())
    .filter((text) => text.length > 0);
  const searchArb = fc.oneof(
    fc.constant(undefined),
    fc.array(wordArb, { minLength: 1, maxLength: 2 }).map((words) => words.join(' ')),
    titleSlice,
  );

  it('answers every filter, sort, page and search as SQL does', async () => {
    const queryArb = fc.record({
      search: searchArb,
      sort: fc.constantFrom(...SORTS),
      page: fc.integer({ min: 1, max: 6 }),
      pageSize: fc.integer({ min: 1, max: 40 }),
      filters: fc.record(
        Object.fromEntries(
          FILTER_NAMES.map((name) => [name, fc.subarray([...FILTERS[name], 'Unknown value'], { minLength: 1 })]),
        ) as Record<FilterName, fc.Arbitrary<string[]>>,
        { requiredKeys: [] },
      ),
    });

    await fc.assert(
      fc.asyncProperty(queryArb, async (query) => {
        // A text no title contains switches the store to typo-tolerant matching, which SQL's LIKE can't express.
        const anyTitle = searchCondition(query.search);
        if (anyTitle.length) {
          const hits = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from games ${where(anyTitle)}`);
          fc.pre(Number(hits[0]!.n) > 0);
        }
        const params = new URLSearchParams({ sort: query.sort, page: String(query.page), pageSize: String(query.pageSize) });
        if (query.search !== undefined) params.set('search', query.search);
        for (const name of FILTER_NAMES) if (query.filters[name]) params.set(name, query.filters[name]!.join(','));
        const response = await t.app.inject({ url: `/api/games?${params}` });
        expect(response.statusCode).toBe(200);
        const answer = response.json<GameListAnswer>();
        const expected = await oracle(query as Query);
        expect({ ...answer, items: undefined, ids: answer.items.map((item) => item._id) }).toEqual({ ...expected, items: undefined });
      }),
      { numRuns: 150 },
    );
  });
});
