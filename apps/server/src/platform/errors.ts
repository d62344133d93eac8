import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { catalogMessages } from '@keystore/contract';

/** An error a service throws on purpose: its message is the user-facing text, its status the HTTP answer. */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
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
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.status).headers(error.headers).send({ error: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      return reply.code(400).send({ error: first?.message ?? 'Invalid request' });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ error: 'Something went wrong on our side. Please try again.' });
  });
}

export const notFoundAnswer = { error: catalogMessages.notFound };
