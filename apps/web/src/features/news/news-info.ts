import type { News } from '@keystore/contract';
import { newsParagraphs } from '@keystore/contract/news-rules';

/** The subtitle under a news title: the first sentence of its text (SPEC §2 "a derived subtitle"). */
export function subtitleOf(content: string): string {
  const first = newsParagraphs(content)[0] ?? '';
  const sentence = /^.+?[.!?](?=\s|$)/s.exec(first)?.[0] ?? first;
  return sentence.length > 200 ? `${sentence.slice(0, 197).trimEnd()}…` : sentence;
}

/** `count` other items in random order (SPEC §2 'Other news'); `random` is injectable for tests. */
export function otherNews(list: readonly News[], id: string, count: number, random: () => number = Math.random): News[] {
  const others = list.filter((item) => item._id !== id);
  for (let i = others.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [others[i], others[j]] = [others[j]!, others[i]!];
  }
  return others.slice(0, count);
}

/** "14:05 23.11.2026": the time, then the date, as the store shows times (like notifications). */
export function publishedAt(iso: string): string {
  const date = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())} ${two(date.getDate())}.${two(date.getMonth() + 1)}.${date.getFullYear()}`;
}
