// News (SPEC §2 News and Admin news, §7 calls): the zod schemas of /api/news's requests and answers.
// The limits, texts and paragraph rule they use are zod-free, in news-rules.ts.
import { z } from 'zod';
import { idField, safeText, trimmedRuled } from './fields.ts';
import {
  NEWS_AUTHORS,
  NEWS_COVER_MAX_BYTES,
  NEWS_TITLE_MAX,
  newsCategoryProblem,
  newsContentProblem,
  newsMessages,
  newsTitleProblem,
  newsTopicProblem,
} from './news-rules.ts';

const m = newsMessages;

/** The fields of a news item an admin sends, by form or JSON (the cover comes apart). */
export const newsFieldsSchema = z.object({
  title: trimmedRuled(newsTitleProblem, m.titleRequired),
  category: trimmedRuled(newsCategoryProblem, m.categoryRequired),
  content: trimmedRuled(newsContentProblem, m.contentRequired),
  /** Manual news are the admin's; an approved AI draft keeps the author generate-text gave it. */
  author: z.enum(NEWS_AUTHORS, { error: m.authorUnknown }).optional(),
});
export type NewsFields = z.input<typeof newsFieldsSchema>;

/** POST /api/news as JSON: the cover is a data URL of an image, or the URL generate-image answered. */
export const createNewsRequestSchema = newsFieldsSchema.extend({
  coverImage: safeText(m.coverInvalid).max(NEWS_COVER_MAX_BYTES * 2, m.coverTooLarge).nullable().optional(),
});
export type CreateNewsRequest = z.input<typeof createNewsRequestSchema>;

export const newsSchema = z
  .object({
    _id: z.string(),
    title: z.string(),
    category: z.string(),
    content: z.string(),
    /** `/media/news/<file>.webp`, or null for the placeholder. */
    coverImage: z.string().nullable(),
    author: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'News' });
export type News = z.infer<typeof newsSchema>;

export const newsIdParamsSchema = z.object({ id: idField(m.notFound) });

export const generateTextRequestSchema = z.object({ topic: trimmedRuled(newsTopicProblem, m.topicRequired) });
export type GenerateTextRequest = z.input<typeof generateTextRequestSchema>;

/** A draft: `title` and `content` as SPEC §7 shows, with the author to publish it under. */
export const generatedTextSchema = z.object({ title: z.string(), content: z.string(), author: z.enum(NEWS_AUTHORS) }).meta({ id: 'NewsDraft' });
export type GeneratedText = z.infer<typeof generatedTextSchema>;

/** Image generation needs the draft's title first (SPEC §5). */
export const generateImageRequestSchema = z.object({
  title: safeText(m.textFirst).trim().min(1, m.textFirst).max(NEWS_TITLE_MAX, m.titleTooLong),
});
export type GenerateImageRequest = z.input<typeof generateImageRequestSchema>;

export const generatedImageSchema = z.object({ coverImage: z.string() }).meta({ id: 'NewsCover' });
export type GeneratedImage = z.infer<typeof generatedImageSchema>;
