import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { AVATAR_MAX_BYTES } from '@keystore/contract';

/**
 * Uploads stream through busboy with these ceilings (the largest file the store takes: an avatar);
 * a bigger file is cut off while it arrives, never buffered whole.
 */
export async function registerUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 20 } });
}
