import { describe, expect, it } from 'vitest';
import { createNewsRequestSchema, generateImageRequestSchema, generateTextRequestSchema } from './news.ts';
import { newsMessages, newsParagraphs } from './news-rules.ts';

const firstProblem = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message;

describe('news rules', () => {
  it('split a text into paragraphs on blank lines, whatever the line endings', () => {
    expect(newsParagraphs('One.\n\nTwo\nstill two.\r\n\r\n  \n\nThree.')).toEqual(['One.', 'Two\nstill two.', 'Three.']);
    expect(newsParagraphs('   ')).toEqual([]);
  });

  it('name the missing field of a news item, and take known authors only', () => {
    const item = { title: 'T', category: 'C', content: 'X' };
    expect(createNewsRequestSchema.safeParse(item).success).toBe(true);
    expect(firstProblem(createNewsRequestSchema.safeParse({ ...item, title: ' ' }))).toBe(newsMessages.titleRequired);
    expect(firstProblem(createNewsRequestSchema.safeParse({ ...item, category: undefined }))).toBe(newsMessages.categoryRequired);
    expect(firstProblem(createNewsRequestSchema.safeParse({ ...item, content: '' }))).toBe(newsMessages.contentRequired);
    expect(firstProblem(createNewsRequestSchema.safeParse({ ...item, author: 'Someone' }))).toBe(newsMessages.authorUnknown);
    expect(createNewsRequestSchema.safeParse({ ...item, author: 'ChatGPT', coverImage: null }).success).toBe(true);
  });

  it('ask for a topic, and for the text before the image (SPEC §5)', () => {
    expect(firstProblem(generateTextRequestSchema.safeParse({ topic: '' }))).toBe(newsMessages.topicRequired);
    expect(firstProblem(generateImageRequestSchema.safeParse({}))).toBe(newsMessages.textFirst);
    expect(firstProblem(generateImageRequestSchema.safeParse({ title: '  ' }))).toBe(newsMessages.textFirst);
  });
});
