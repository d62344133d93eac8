import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { catalogMessages, requestMessages } from '@keystore/contract';

/** An error a service throws on purpose: its message is the user-facing text, its status the HTTP answer. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Fields the answer carries besides `error` (a price conflict's new prices). */
  readonly details: Record<string, unknown> | undefined;
  constructor(status: number, message: string, headers: Record<string, string> = {}, details?: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.headers = headers;
    this.details = details;
  }
}
export class Invalid extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}
export class Unauthorized extends HttpError {
  constructor(message: string) {
    super(401, message);
  }
}
export class Forbidden extends HttpError {
  constructor(message: string) {
    super(403, message);
  }
}
export class NotFound extends HttpError {
  constructor(message: string) {
    super(404, message);
  }
}
export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}
export class TooManyRequests extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** The one place where errors become `{error}` answers: 4xx with their text, anything unexpected a logged 500. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => answer(error, request, reply));
}

/**
 * Fastify's `frameworkErrors` option: the errors met before any route is found (a malformed escape or
 * an over-long parameter in the URL) answer `{error}` like every other, not Fastify's own error object.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void answer(error, request, reply);
}

function answer(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, message, headers } = answerFor(error);
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  else if (databaseState(error)) request.log.warn({ err: error }, 'request refused by the database');
  const details = error instanceof HttpError ? error.details : undefined;
  // A server error names its request, so a customer can quote it and the owner find its log lines.
  return reply.code(status).headers(headers).send({ ...details, error: message, ...(status >= 500 && { reference: request.id }) });
}

interface ErrorAnswer {
  status: number;
  message: string;
  headers: Record<string, string>;
}

function answerFor(error: FastifyError | HttpError): ErrorAnswer {
  if (error instanceof HttpError) return { status: error.status, message: error.message, headers: error.headers };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const message = error.validation[0]?.message ?? requestMessages.malformed;
    // A path that does not fit its route's schema names nothing that exists (idField in the contract).
    return { status: error.validationContext === 'params' ? 404 : 400, message, headers: {} };
  }
  const state = databaseState(error);
  // Input the database refused (data exceptions, limits) or that clashed with a row written meanwhile
  // (integrity): the caller's request, not our fault, so never a 500.
  if (state?.startsWith('22') || state?.startsWith('54')) return { status: 400, message: requestMessages.malformed, headers: {} };
  if (state?.startsWith('23')) return { status: 409, message: requestMessages.conflict, headers: {} };
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  // Framework and parser errors carry their own wording (sometimes the input itself): the contract's instead.
  if (status >= 400 && status < 500) return { status, message: frameworkMessage(error.code, status), headers: {} };
  return { status: 500, message: requestMessages.serverError, headers: {} };
}

function frameworkMessage(code: string | undefined, status: number): string {
  if (code === 'FST_ERR_BAD_URL') return requestMessages.badUrl;
  switch (status) {
    case 404:
      return catalogMessages.notFound;
    case 406:
    case 415:
      return requestMessages.unsupportedType;
    case 413:
      return requestMessages.tooLarge;
    case 414:
      return requestMessages.urlTooLong;
    default:
      return requestMessages.malformed;
  }
}

/** The SQLSTATE of a database error, wherever it sits in the cause chain (drizzle wraps the driver's). */
function databaseState(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 5; cause = (cause as { cause?: unknown }).cause, depth += 1) {
    const { code, severity } = cause as { code?: unknown; severity?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string') return code;
  }
  return undefined;
}

export const notFoundAnswer = { error: catalogMessages.notFound };
