import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createNewsRequestSchema,
  errorSchema,
  generatedImageSchema,
  generatedTextSchema,
  generateImageRequestSchema,
  generateTextRequestSchema,
  NEWS_CONTENT_MAX,
  NEWS_COVER_MAX_BYTES,
  newsFieldsSchema,
  newsIdParamsSchema,
  newsMessages,
  newsSchema,
} from '@keystore/contract';
import { HttpError, Invalid } from '../../platform/errors.ts';
import { fileBytes, readingForm } from '../../platform/form-errors.ts';
import { perAddress, perUser } from '../../platform/limits.ts';
import { registerImageRoute } from '../../platform/image-store.ts';
import { NEWS_COVER_URL_PREFIX } from './covers.ts';
import { NEWS_LIMITS as L } from './limits.ts';
import type { CoverSource, NewNews, NewsService } from './service.ts';
import { NO_AUTH } from '../../platform/openapi.ts';

const bearer = [{ bearerAuth: [] }];
const JSON_BODY_LIMIT = Math.ceil((NEWS_COVER_MAX_BYTES * 4) / 3) + NEWS_CONTENT_MAX * 4 + 64 * 1024;
const adminErrors = { 400: errorSchema, 401: errorSchema, 403: errorSchema };

/** GET /api/news, /api/news/{id}; the admin's POST /api/news and the AI drafts; the cover files. */
export const newsRoutes: FastifyPluginAsyncZod<{ news: NewsService }> = async (app, { news }) => {
  app.get(
    '/api/news',
    { schema: { operationId: 'listNews', security: NO_AUTH, tags: ['news'], summary: 'Every news item, newest first', response: { 200: z.array(newsSchema) } } },
    async () => news.list(),
  );

  app.get(
    '/api/news/:id',
    { schema: { operationId: 'getNews', security: NO_AUTH, tags: ['news'], summary: 'One news item', params: newsIdParamsSchema, response: { 200: newsSchema, 404: errorSchema } } },
    async (request) => news.get(request.params.id),
  );

  app.post(
    '/api/news',
    {
      onRequest: app.requireAdmin,
      // A JSON body may carry the cover as a data URL: base64 makes its bytes a third larger.
      bodyLimit: JSON_BODY_LIMIT,
      schema: {
        operationId: 'createNews',
        tags: ['news'],
        summary: 'Publishes a news item (admin): multipart with an optional `coverImage` file, or JSON with `coverImage` as a data URL or a generated cover URL',
        consumes: ['application/json', 'multipart/form-data'],
        security: bearer,
        response: { 201: newsSchema, ...adminErrors, 413: errorSchema, 415: errorSchema },
      },
    },
    async (request, reply) => {
      const input = request.isMultipart() ? await fromForm(request) : fromJson(request.body);
      const published = await news.create(input, request.account.userId);
      await app.audit(request, { action: 'news.publish', target: { type: 'news', id: published._id }, after: { title: published.title } });
      return reply.code(201).send(published);
    },
  );

  app.post(
    '/api/news/generate-text',
    {
      onRequest: app.requireAdmin,
      config: { limits: [perUser(L.generateTextPerUser), perAddress(L.generateTextPerIp)] },
      schema: {
        operationId: 'generateNewsText',
        tags: ['news'],
        summary: 'Drafts a news item about a topic (admin): by the AI provider, or offline from the catalogue',
        security: bearer,
        body: generateTextRequestSchema,
        response: { 200: generatedTextSchema, ...adminErrors, 429: errorSchema, 502: errorSchema },
      },
    },
    async (request) => {
      return news.generateText(request.body.topic);
    },
  );

  app.post(
    '/api/news/generate-image',
    {
      onRequest: app.requireAdmin,
      config: { limits: [perUser(L.generateImagePerUser), perAddress(L.generateImagePerIp)] },
      schema: {
        operationId: 'generateNewsImage',
        tags: ['news'],
        summary: 'Makes a cover for a draft’s title (admin): drawn by the AI provider, or rendered from the title',
        security: bearer,
        body: generateImageRequestSchema,
        response: { 200: generatedImageSchema, ...adminErrors, 429: errorSchema, 502: errorSchema },
      },
    },
    async (request) => {
      return { coverImage: await news.generateImage(request.body.title) };
    },
  );

  registerImageRoute(app, {
    prefix: NEWS_COVER_URL_PREFIX,
    operationId: 'getNewsCover',
    tag: 'news',
    summary: 'A news cover (WebP)',
    notFound: newsMessages.notFound,
    read: (file) => news.covers.files.read(file),
  });
};

/** Validates with a contract schema; the first problem is the 400's message. */
function parse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw new Invalid(result.error.issues[0]?.message ?? newsMessages.titleRequired);
  return result.data;
}

function fromJson(body: unknown): NewNews {
  const { coverImage, ...fields } = parse(createNewsRequestSchema, body);
  return { ...fields, cover: coverFromText(coverImage) };
}

/** A data URL's bytes, or a cover URL this store generated; anything else (a remote URL) is refused. */
function coverFromText(text: string | null | undefined): CoverSource {
  if (!text) return undefined;
  const data = /^data:image\/[a-z0-9.+-]+;base64,([A-Za-z0-9+/=\s]+)$/i.exec(text);
  if (data) {
    const bytes = Buffer.from(data[1]!, 'base64');
    if (bytes.length > NEWS_COVER_MAX_BYTES) throw new HttpError(413, newsMessages.coverTooLarge);
    return { bytes };
  }
  if (text.startsWith(NEWS_COVER_URL_PREFIX)) return { generated: text };
  throw new Invalid(newsMessages.coverInvalid);
}

/**
 * The fields and `coverImage` file of a multipart form. Covers may be larger than the app-wide
 * upload limit (an avatar's), so this route sets its own; a bigger file is cut off while it streams: 413.
 */
async function fromForm(request: FastifyRequest): Promise<NewNews> {
  const fields: Record<string, string> = {};
  let cover: CoverSource;
  await readingForm(request, newsMessages.coverTooLarge, async () => {
    // Content of up to NEWS_CONTENT_MAX characters, of up to 4 bytes each in UTF-8.
    const parts = request.parts({ limits: { fileSize: NEWS_COVER_MAX_BYTES, files: 1, fieldSize: NEWS_CONTENT_MAX * 4 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        // Browsers send a form's line breaks as CRLF (the HTML form encoding); the store keeps LF.
        if (typeof part.value === 'string') fields[part.fieldname] = part.value.replace(/\r\n?/g, '\n');
        continue;
      }
      const bytes = await fileBytes(part, newsMessages.coverTooLarge);
      // A form sent without choosing a file carries an empty part.
      if (part.fieldname === 'coverImage' && bytes.length > 0) cover = { bytes };
    }
  });
  return { ...parse(newsFieldsSchema, fields), cover };
}
