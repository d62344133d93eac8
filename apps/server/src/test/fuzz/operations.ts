// The API's operations as its OpenAPI description (/api/docs/json) states them, and a valid-looking
// example request for each: the fuzz starts from the example and breaks one part at a time, so the
// other parts pass validation and the broken value reaches as far into the code as it can.

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  minimum?: number;
};

interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Operation {
  method: string;
  /** The path template, e.g. `/api/games/{id}`. */
  path: string;
  pathParams: string[];
  query: Array<{ name: string; schema: JsonSchema }>;
  /** The JSON body's schema, when the operation takes one. */
  body: JsonSchema | undefined;
  secured: boolean;
}

/** Every operation of the description. */
export function operationsOf(docs: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(docs.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        query: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => ({ name: parameter.name, schema: parameter.schema ?? {} })),
        body: operation.requestBody?.content?.['application/json']?.schema,
        secured: (operation.security ?? []).length > 0,
      });
    }
  }
  return operations;
}

/** Values that pass the contract's rules for fields of these names; other strings get a plain word. */
export type KnownValues = Record<string, unknown>;

/** A value the schema accepts: known values by field name, else the default, the first enum value, or a plain one of the type. */
export function exampleOf(schema: JsonSchema, docs: OpenApiDocument, known: KnownValues, name?: string): unknown {
  if (schema.$ref) return exampleOf(resolve(schema.$ref, docs), docs, known, name);
  if (name !== undefined && name in known) return known[name];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const variant = (schema.anyOf ?? schema.oneOf ?? schema.allOf)?.find((option) => option.type !== 'null');
  if (variant) return exampleOf(variant, docs, known, name);
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type.find((option) => option !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, property]) => [key, exampleOf(property, docs, known, key)]));
    case 'array':
      return schema.items ? [exampleOf(schema.items, docs, known)] : [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return 'fuzz';
  }
}

function resolve(ref: string, docs: OpenApiDocument): JsonSchema {
  const name = ref.split('/').pop()!;
  const schema = docs.components?.schemas?.[name];
  if (!schema) throw new Error(`unresolved ${ref}`);
  return schema;
}

type Json = unknown;

/** Every place in a JSON value (object keys and array indexes, depth first), the root excluded. */
export function placesIn(value: Json, at: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return value.flatMap((item, index) => [[...at, index], ...placesIn(item, [...at, index])]);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [[...at, key], ...placesIn(item, [...at, key])]);
  return [];
}

/** A copy of `value` with the place replaced by `replacement`, or removed when `replacement` is `REMOVE`. */
export function withPlace(value: Json, place: Array<string | number>, replacement: unknown): Json {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const step of place.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = place[place.length - 1]!;
  if (replacement === REMOVE) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else {
    parent[last] = replacement;
  }
  return copy;
}

export const REMOVE = Symbol('remove');
