// The API description as a client generator reads it (decision 018): each operation has its own
// method name, and says truthfully whether it needs the caller's token. `npm run lint:openapi`
// checks the rest against Redocly's recommended rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/helper.ts';

interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
}
type Paths = Record<string, Record<string, Operation>>;

let t: TestApp;
let operations: Array<{ method: string; path: string; operation: Operation }>;

beforeAll(async () => {
  t = await buildTestApp();
  const paths = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Paths }>().paths;
  operations = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
});
afterAll(() => t.close());

describe('the OpenAPI description', () => {
  it('names every operation once, in camelCase', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    for (const { method, path, operation } of operations) expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z][a-zA-Z0-9]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares the bearer token on exactly the operations that refuse a caller without one', async () => {
    const undeclared: string[] = [];
    for (const { method, path, operation } of operations) {
      expect(operation.security, `${method} ${path} states its security`).toBeDefined();
      const security = operation.security ?? [];
      const acceptsBearer = security.some((requirement) => 'bearerAuth' in requirement);
      const needsBearer = acceptsBearer && !security.some((requirement) => Object.keys(requirement).length === 0);
      // Authentication runs before validation, so any id in the path and no body are enough to be refused.
      const url = path.replace(/\{[^}]+\}/g, 'a1b2c3');
      const { statusCode } = await t.app.inject({ method: method as 'GET', url });
      const refused = statusCode === 401;
      if (refused && !acceptsBearer) undeclared.push(`${method} ${path} answers 401 without a token but declares no bearerAuth`);
      if (needsBearer && !refused) undeclared.push(`${method} ${path} declares bearerAuth required but answers ${statusCode} without a token`);
    }
    expect(undeclared).toEqual([]);
  });
});
