// The API of the web app's component tests: an MSW server at the network boundary (Node's fetch),
// started for every test file by setup.ts. Each test says what the API answers (fixtures.tsx,
// stubApi); a request nobody answers fails the test.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * What every page may ask without the test being about it: where the visitor is (the region warning)
 * once signed in, the wishlist behind the hearts, and "You may also like" (issue 31). Unknown place, empty lists.
 */
export const backgroundHandlers = [
  http.get('/api/visitor', () => HttpResponse.json({ country: null, region: null })),
  http.get('/api/wishlist', () => HttpResponse.json([])),
  http.get('/api/games/:id/related', () => HttpResponse.json([])),
];

export const server = setupServer(...backgroundHandlers);

/** Requests no handler answered since the last check, as 'METHOD /path?query'. */
export const unhandledRequests: string[] = [];
