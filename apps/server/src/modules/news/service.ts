import type { FastifyBaseLogger } from 'fastify';
import { MANUAL_NEWS_AUTHOR, newsMessages, type GeneratedText, type News, type NewsAuthor } from '@keystore/contract';
import type { Database } from '../../db/client.ts';
import { HttpError, Invalid, NotFound } from '../../platform/errors.ts';
import type { StoreEventBus } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { UnreadableImage } from '../../platform/images.ts';
import type { AiProvider } from '../ai/ports.ts';
import type { CatalogService } from '../catalog/ports.ts';
import { coverUrlOf, NewsCovers } from './covers.ts';
import { draftFromCatalogue } from './offline-writer.ts';
import { findNews, insertNews, listNews, type NewsRow } from './store.ts';

/** The author of drafts written without an AI provider. */
const OFFLINE_AUTHOR: NewsAuthor = 'Keystore AI';
const AI_AUTHOR: NewsAuthor = 'ChatGPT';

/** Where a new item's cover comes from: uploaded bytes (form or data URL), or a cover this store generated. */
export type CoverSource = { bytes: Buffer } | { generated: string } | undefined;

export interface NewNews {
  title: string;
  category: string;
  content: string;
  author?: NewsAuthor | undefined;
  cover?: CoverSource;
}

export interface NewsDeps {
  database: Database;
  dataDir: string;
  catalog: Pick<CatalogService, 'list' | 'priceDrops'>;
  /** The AI provider, or undefined to write offline. */
  ai: AiProvider | undefined;
  log: FastifyBaseLogger;
  /** Told of each published item ('news-published': the notifications module makes a public notification of it). */
  events: Pick<StoreEventBus, 'publish'>;
}

/** News: the published items, their covers, and the AI (or offline) drafts an admin approves. */
export class NewsService {
  readonly covers: NewsCovers;
  private readonly deps: NewsDeps;

  constructor(deps: NewsDeps) {
    this.deps = deps;
    this.covers = new NewsCovers(deps.database.db, deps.dataDir);
  }

  async list(): Promise<News[]> {
    return (await listNews(this.deps.database.db)).map(toNews);
  }

  async find(id: string): Promise<News | undefined> {
    const row = await findNews(this.deps.database.db, id);
    return row && toNews(row);
  }

  async get(id: string): Promise<News> {
    const row = await findNews(this.deps.database.db, id);
    if (!row) throw new NotFound(newsMessages.notFound);
    return toNews(row);
  }

  /** Publishes a news item: its cover re-encoded and stored, then 'news-published' told and awaited. */
  async create(input: NewNews, createdBy: string | null): Promise<News> {
    const coverImage = await this.storeCover(input.cover);
    const row = await insertNews(this.deps.database.db, {
      id: newId(),
      title: input.title,
      category: input.category,
      content: input.content,
      author: input.author ?? MANUAL_NEWS_AUTHOR,
      coverImage,
      createdBy,
    });
    const published = toNews(row);
    try {
      await this.deps.events.publish('news-published', { id: published._id, title: published.title });
    } catch (error) {
      // The news is out either way; a failed announcement must not make the admin publish it twice.
      this.deps.log.error({ err: error, newsId: published._id }, 'news published, but a news-published subscriber failed');
    }
    return published;
  }

  /** A draft about the topic: by the AI provider when there is one, else from the catalogue. */
  async generateText(topic: string): Promise<GeneratedText> {
    const { ai } = this.deps;
    if (!ai) return { ...(await draftFromCatalogue(topic, this.deps.catalog)), author: OFFLINE_AUTHOR };
    let answer: string;
    try {
      answer = await ai.complete(newsPrompt(topic), { json: true, maxTokens: 1200 });
    } catch (error) {
      this.deps.log.error({ err: error }, 'the AI provider failed to write news');
      throw new HttpError(502, newsMessages.textFailed);
    }
    const draft = parseDraft(answer);
    if (!draft) {
      this.deps.log.error({ answer: answer.slice(0, 500) }, 'the AI provider answered news text that is not {title, content}');
      throw new HttpError(502, newsMessages.textFailed);
    }
    return { ...draft, author: AI_AUTHOR };
  }

  /** A cover for the title: drawn by the AI provider when there is one, else rendered from the title. Answers its URL. */
  async generateImage(title: string): Promise<string> {
    const { ai } = this.deps;
    if (!ai) return coverUrlOf(await this.covers.saveRendered(title))!;
    try {
      const image = await ai.image(
        `A wide, eye-catching cover illustration for a video game store news article titled "${title}". No text, no logos, no watermarks.`,
      );
      return coverUrlOf(await this.covers.save(image))!;
    } catch (error) {
      this.deps.log.error({ err: error }, 'the AI provider failed to draw a news cover');
      throw new HttpError(502, newsMessages.imageFailed);
    }
  }

  private async storeCover(cover: CoverSource): Promise<string | null> {
    if (!cover) return null;
    if ('generated' in cover) {
      const file = await this.covers.fileOf(cover.generated);
      if (!file) throw new Invalid(newsMessages.coverInvalid);
      return file;
    }
    try {
      return await this.covers.save(cover.bytes);
    } catch (error) {
      if (error instanceof UnreadableImage) throw new HttpError(415, newsMessages.coverUnreadable);
      throw error;
    }
  }
}

/** The chat the AI provider gets: the store's voice, the topic, and the JSON shape to answer in. */
function newsPrompt(topic: string): Array<{ role: 'system' | 'user'; content: string }> {
  return [
    {
      role: 'system',
      content:
        'You write news for Keystore, an online store selling digital activation keys for PC and console games, DLC and gift cards, priced in euro. ' +
        'Write in English, in a friendly, factual tone, without markdown. ' +
        'Answer only with a JSON object {"title": string, "content": string}: a headline of at most 120 characters, ' +
        'and 3 to 5 short paragraphs separated by blank lines.',
    },
    { role: 'user', content: `Write a news item for the store about this topic: ${topic}` },
  ];
}

/** The {title, content} of the model's answer, also when it wrapped the JSON in a code fence. */
export function parseDraft(answer: string): { title: string; content: string } | undefined {
  const json = /\{[\s\S]*\}/.exec(answer)?.[0];
  if (!json) return undefined;
  try {
    const value = JSON.parse(json) as { title?: unknown; content?: unknown };
    if (typeof value.title !== 'string' || typeof value.content !== 'string') return undefined;
    const title = value.title.trim();
    // Some models put single newlines between paragraphs: the store's paragraphs are blank-line separated.
    const content = value.content.trim().replace(/\r\n/g, '\n').replace(/([^\n])\n(?!\n)/g, '$1\n\n');
    return title && content ? { title, content } : undefined;
  } catch {
    return undefined;
  }
}

function toNews(row: NewsRow): News {
  return {
    _id: row.id,
    title: row.title,
    category: row.category,
    content: row.content,
    coverImage: coverUrlOf(row.coverImage),
    author: row.author,
    createdAt: row.createdAt.toISOString(),
  };
}
