import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { requestMessages } from '@keystore/contract';
import { HttpError, Invalid } from './errors.ts';

// Reading multipart uploads (avatars, news covers): one way to take a file's bytes, and one meaning
// for every failure of the parser.

/**
 * What a failure while reading a multipart body means to the caller: a file over the limit is a 413
 * with `tooLarge`; our own errors and the plugin's limits (too many parts) keep their status; anything
 * else the parser throws (no boundary, a body cut short, garbage between boundaries) is a malformed form,
 * a 400, since only the body can have caused it.
 */
function formError(request: FastifyRequest, error: unknown, tooLarge: string): Error {
  if (error instanceof request.server.multipartErrors.RequestFileTooLargeError) return new HttpError(413, tooLarge);
  if (error instanceof HttpError) return error;
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  if (error instanceof Error && typeof status === 'number' && status >= 400 && status < 500) return error;
  return new Invalid(requestMessages.malformedForm);
}

/** Reads a multipart body with `read`; whatever fails while reading answers as `formError` says. */
export async function readingForm<T>(request: FastifyRequest, tooLarge: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw formError(request, error, tooLarge);
  }
}

/**
 * The whole bytes of an uploaded file (empty when the form was sent without choosing one), or a 413
 * with `tooLarge` when it was cut off at its size limit. toBuffer() misses the limit when busboy
 * marks the file truncated only after its last chunk was read, as happens over a real socket
 * (fastify/fastify-multipart#542); once the file has ended, busboy's own flag is certain.
 */
export async function fileBytes(part: MultipartFile, tooLarge: string): Promise<Buffer> {
  const bytes = await part.toBuffer();
  if (part.file.truncated) throw new HttpError(413, tooLarge);
  return bytes;
}
