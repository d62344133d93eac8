// The catalogue's texts, apart from messages.ts: the game page shows them on a first view, and a
// chunk that imports a file carries all of it (`@keystore/contract/catalog-messages`, decision 027).

/** User-facing error texts of the catalogue API. */
export const catalogMessages = {
  gameNotFound: 'Game not found',
  gameLoadFailed: 'Failed to load game details',
  unknownSort: 'Unknown sort: use popularity, price-asc, price-desc or newest',
  searchTooLong: 'Search query must be at most 200 characters',
  invalidPage: 'Page must be a whole number of at least 1',
  invalidPageSize: 'Page size must be a whole number of at least 1',
  queryRequired: 'Query is required',
  notFound: 'Not found',
} as const;
