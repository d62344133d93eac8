import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** An operation's `security`: which of these ways of calling it are accepted (any one of them). */
type Security = ReadonlyArray<Record<string, readonly string[]>>;

/** An operation anyone may call: stated, so a client generator knows it sends no token. */
export const NO_AUTH: Security = [];
/** An operation that works for visitors (the empty requirement) and says more to a signed-in caller. */
export const OPTIONAL_BEARER: Security = [{}, { bearerAuth: [] }];

/** Every tag an operation may carry, with what it groups (the order of Swagger UI's sections). */
const TAGS = [
  { name: 'catalogue', description: 'Games: the filtered catalogue, search and one game with its stock' },
  { name: 'auth', description: 'Sign-up, e-mail verification, login (with the new-device code), password recovery, logout' },
  { name: 'users', description: "The signed-in user's profile, avatar, password and account deletion" },
  { name: 'orders', description: 'Placing, paying, cancelling and reading orders' },
  { name: 'payments', description: 'The test gateway card form and the Stripe webhook' },
  { name: 'library', description: 'Delivered keys: one purchase per key, the key for its owner only' },
  { name: 'news', description: 'News items, their covers, and the admin drafts by AI or offline' },
  { name: 'notifications', description: 'Public and personal notifications, read state, and the live stream' },
  { name: 'support', description: 'The support e-mail form and the support assistant chat' },
  { name: 'admin', description: 'Calls only an admin may make' },
  { name: 'operations', description: 'Health checks and the configuration the web app reads' },
  { name: 'development', description: 'The dev outbox (outside production, without SMTP_URL)' },
];

/**
 * The OpenAPI description at /api/docs (JSON at /api/docs/json), built from the routes' zod schemas.
 * OpenAPI 3.1, so that a nullable value is a JSON Schema type list (`["string", "null"]`) rather
 * than 3.0's `nullable`, which zod can only place beside a `$ref` with no `type` (decision 018).
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Keystore API', description: 'The storefront API for digital game keys', version: '1.0.0' },
      // Relative: the API is at the origin that serves this description, whatever PUBLIC_URL says.
      servers: [{ url: '/', description: 'This store' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          sellerApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: "A seller's API key (POST /api/seller/api-keys), for /api/seller/*" },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (document) => withoutUnusedSchemas(jsonSchemaTransformObject(document)),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}

type Document = ReturnType<typeof jsonSchemaTransformObject>;
/** The parts of a 3.x description this file reads. */
type Described = { paths?: unknown; components?: { schemas?: Record<string, unknown> } };

/**
 * The description without component schemas no operation reaches. Every contract schema with an
 * id becomes a component twice, as it is read (`…Input`) and as it is written; most are only one.
 */
function withoutUnusedSchemas(document: Document): Document {
  const { paths, components } = document as Described;
  const schemas = components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      const name = key === '$ref' && typeof child === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(child)?.[1] : undefined;
      if (name !== undefined && !used.has(name)) {
        used.add(name);
        visit(schemas[name]);
      }
      visit(child);
    }
  };
  visit(paths);
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...document, components: { ...components, schemas: kept } } as Document;
}
