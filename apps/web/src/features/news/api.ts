import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateNewsRequest, GeneratedImage, GeneratedText, GenerateImageRequest, GenerateTextRequest, News } from '@keystore/contract';
import { apiGet, apiSend } from '../../lib/api.ts';

// The news calls (SPEC §7, news): the public list and items, and the admin's publishing.

export const NEWS_KEY = ['news'] as const;

/** Every news item, newest first (GET /api/news). */
export function newsListQuery() {
  return queryOptions({ queryKey: NEWS_KEY, queryFn: () => apiGet<News[]>('/api/news') });
}

/** One news item (GET /api/news/{id}). */
export function newsItemQuery(id: string) {
  return queryOptions({ queryKey: [...NEWS_KEY, id], queryFn: () => apiGet<News>(`/api/news/${encodeURIComponent(id)}`), retry: false });
}

export const useNewsList = () => useQuery(newsListQuery());

export const useNewsItem = (id: string) => useQuery(newsItemQuery(id));

/** Publishes a news item: a form with its cover file, or JSON (an approved AI draft). The list is fetched again. */
export function useCreateNews() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FormData | CreateNewsRequest) => apiSend<News, FormData | CreateNewsRequest>('POST', '/api/news', body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: NEWS_KEY }),
  });
}

/** Drafts a news text on a topic (POST /api/news/generate-text); nothing is stored. */
export function useGenerateNewsText() {
  return useMutation({ mutationFn: (topic: string) => apiSend<GeneratedText, GenerateTextRequest>('POST', '/api/news/generate-text', { topic }) });
}

/** Draws a cover for a drafted title (POST /api/news/generate-image). */
export function useGenerateNewsImage() {
  return useMutation({ mutationFn: (title: string) => apiSend<GeneratedImage, GenerateImageRequest>('POST', '/api/news/generate-image', { title }) });
}
