// The API of the web app's component tests: an MSW server at the network boundary (Node's fetch),
// started for every test file by setup.ts. Each test says what the API answers (fixtures.tsx,
// stubApi); a request nobody answers fails the test.
import { setupServer } from 'msw/node';

export const server = setupServer();

/** Requests no handler answered since the last check, as 'METHOD /path?query'. */
export const unhandledRequests: string[] = [];
