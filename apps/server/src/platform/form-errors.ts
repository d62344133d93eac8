import type { FastifyRequest } from 'fastify';
import { requestMessages } from '@keystore/contract';
import { HttpError, Invalid } from './errors.ts';

/**
 * What a failure while reading a multipart body means to the caller: a file over the limit is a 413
 * with `tooLarge`; our own errors and the plugin's limits (too many parts) keep their status; anything
 * else the parser throws (no boundary, a body cut short, garbage between boundaries) is a malformed form,
 * a 400, since only the body can have caused it.
 */
export function formError(request: FastifyRequest, error: unknown, tooLarge: string): Error {
  if (error instanceof request.server.multipartErrors.RequestFileTooLargeError) return new HttpError(413, tooLarge);
  if (error instanceof HttpError) return error;
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  if (error instanceof Error && typeof status === 'number' && status >= 400 && status < 500) return error;
  return new Invalid(requestMessages.malformedForm);
}
