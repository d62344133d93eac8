// Uploaded images (avatars, news covers) in the database's `images` table, so that every instance
// serves what any instance stored (docs/decisions/012). They are small once re-encoded (WebP of a
// few hundred kilobytes at most), and a name is never reused, so a URL never changes content and
// may be cached for good.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema } from '@keystore/contract';
import type { Db } from '../db/client.ts';
import { images } from './schema.ts';
import { NotFound } from './errors.ts';
import { NO_AUTH } from './openapi.ts';

/** A name is never given twice, so browsers and proxies may keep an image for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface StoredImage {
  bytes: Buffer;
  contentType: string;
  /** A strong ETag: the quoted SHA-256 of the bytes. */
  etag: string;
}

/**
 * One folder of images, by the names this store gives (`names`). Only such names are ever read,
 * written or removed, so no request can name another folder's image.
 */
export class ImageStore {
  private readonly db: Db;
  private readonly folder: string;
  private readonly names: RegExp;

  constructor(db: Db, folder: string, names: RegExp) {
    this.db = db;
    this.folder = folder;
    this.names = names;
  }

  /** Stores the bytes under a new name; fails if the name exists. `tx`: within the caller's transaction. */
  async write(file: string, bytes: Buffer, contentType = 'image/webp', tx: Db = this.db): Promise<void> {
    await tx.insert(images).values(this.row(file, bytes, contentType));
  }

  /** The image, or undefined for a name this store never gives or an image that is gone. */
  async read(file: string): Promise<StoredImage | undefined> {
    if (!this.names.test(file)) return undefined;
    const [row] = await this.db
      .select({ bytes: images.bytes, contentType: images.contentType, sha256: images.sha256 })
      .from(images)
      .where(eq(images.name, this.key(file)));
    return row && { bytes: row.bytes, contentType: row.contentType, etag: `"${row.sha256}"` };
  }

  /** Whether the image exists, without reading its bytes. */
  async exists(file: string): Promise<boolean> {
    if (!this.names.test(file)) return false;
    const [row] = await this.db.select({ name: images.name }).from(images).where(eq(images.name, this.key(file)));
    return row !== undefined;
  }

  async remove(file: string | null | undefined, tx: Db = this.db): Promise<void> {
    if (file && this.names.test(file)) await tx.delete(images).where(eq(images.name, this.key(file)));
  }

  /**
   * Removes every image whose name starts with `prefix` (all the uploads of one owner, when the
   * names begin with the owner's id); answers how many. `tx`: within the caller's transaction.
   */
  async removeStartingWith(prefix: string, tx: Db = this.db): Promise<number> {
    const pattern = `${this.key(prefix).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const removed = await tx.delete(images).where(like(images.name, pattern)).returning({ name: images.name });
    return removed.length;
  }

  /**
   * Moves the images of an older store, kept as files in `directory` (DATA_DIR/avatars,
   * DATA_DIR/news), into the database; answers how many. Each file is deleted once its row is
   * committed, so the next start finds nothing to do, and a picture deleted later (with its
   * account) does not linger on disk. Files with names this store never gives are left alone.
   */
  async importFolder(directory: string): Promise<number> {
    let files: string[];
    try {
      files = await readdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let moved = 0;
    for (const file of files.filter((name) => this.names.test(name))) {
      const bytes = await readFile(path.join(directory, file));
      await this.db.insert(images).values(this.row(file, bytes, 'image/webp')).onConflictDoNothing();
      await rm(path.join(directory, file), { force: true });
      moved += 1;
    }
    // Left when something else is in it; an empty folder would only mislead whoever looks.
    await rmdir(directory).catch(() => undefined);
    return moved;
  }

  private key(file: string): string {
    return `${this.folder}/${file}`;
  }

  private row(file: string, bytes: Buffer, contentType: string): typeof images.$inferInsert {
    if (!this.names.test(file)) throw new Error(`Not a name this store gives: ${file}`);
    const sha256 = createHash('sha256').update(bytes).digest('base64url');
    return { name: this.key(file), contentType, bytes, byteSize: bytes.length, sha256 };
  }
}

/** What `sendImage` answers, for a route's schema: the image, not modified, or 404 for a name that holds none. */
const imageAnswers = {
  200: { description: 'The image (WebP)', content: { 'image/webp': { schema: z.string().meta({ format: 'binary' }) } } },
  304: z.null().describe('Not modified: the If-None-Match tag is the image’s ETag'),
  404: errorSchema,
};

/** What an image route is: its URL prefix, its OpenAPI names, the 404's text, and where the images are read from. */
interface ImageRoute {
  prefix: string;
  operationId: string;
  tag: string;
  summary: string;
  notFound: string;
  read(file: string): Promise<StoredImage | undefined>;
}

/**
 * GET `<prefix>:file`: an uploaded image by the name this store gave it (avatars, news covers). Only
 * such names are read (ImageStore), so no path can lead to anything else.
 */
export function registerImageRoute(app: FastifyInstance, route: ImageRoute): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    `${route.prefix}:file`,
    {
      schema: {
        operationId: route.operationId,
        security: NO_AUTH,
        tags: [route.tag],
        summary: route.summary,
        params: z.object({ file: z.string().max(200, route.notFound) }),
        response: imageAnswers,
      },
    },
    async (request, reply) => {
      const image = await route.read(request.params.file);
      if (!image) throw new NotFound(route.notFound);
      return sendImage(request, reply, image);
    },
  );
}

/** Answers an image with its ETag and a year of caching; 304 without the bytes when the client has them. */
function sendImage(request: FastifyRequest, reply: FastifyReply, image: StoredImage): FastifyReply {
  reply.header('ETag', image.etag).header('Cache-Control', IMMUTABLE);
  if (clientHas(request.headers['if-none-match'], image.etag)) return reply.code(304).send();
  return reply.type(image.contentType).send(image.bytes);
}

/** If-None-Match compares weakly (RFC 9110 §13.1.2): `W/"x"` matches `"x"`, and `*` matches any. */
function clientHas(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = tag.trim();
    return candidate === '*' || candidate.replace(/^W\//, '') === etag;
  });
}
