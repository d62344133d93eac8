import { useQuery } from '@tanstack/react-query';
import type { CreateNewsRequest, GeneratedImage, GeneratedText, News } from '@keystore/contract';
import { apiGet, apiSend } from '../../lib/api.ts';

export const NEWS_KEY = ['news'] as const;

/** Every news item, newest first (GET /api/news). */
export function useNewsList() {
  return useQuery({ queryKey: NEWS_KEY, queryFn: () => apiGet<News[]>('/api/news') });
}

/** One news item (GET /api/news/{id}). */
export function useNewsItem(id: string) {
  return useQuery({ queryKey: [...NEWS_KEY, id], queryFn: () => apiGet<News>(`/api/news/${encodeURIComponent(id)}`), retry: false });
}

/** Publishes a news item: a form with its cover file, or JSON (an approved AI draft). */
export function createNews(body: FormData | CreateNewsRequest): Promise<News> {
  return apiSend<News>('POST', '/api/news', body);
}

export function generateNewsText(topic: string): Promise<GeneratedText> {
  return apiSend<GeneratedText>('POST', '/api/news/generate-text', { topic });
}

export function generateNewsImage(title: string): Promise<GeneratedImage> {
  return apiSend<GeneratedImage>('POST', '/api/news/generate-image', { title });
}
