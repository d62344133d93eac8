import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** gzip for browsers that ask for it (pages, scripts, API answers above 1 KB). */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { encodings: ['gzip', 'deflate'], threshold: 1024 });
}
