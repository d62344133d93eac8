import { describe, expect, it } from 'vitest';
import { platformsIn } from './offline-writer.ts';
import { parseDraft } from './service.ts';

describe('the offline writer’s reading of a topic', () => {
  it('finds one platform by name, or a whole platform group by the names people use', () => {
    expect(platformsIn('Top PS5 games this month')).toEqual({ label: 'PS5', platforms: ['PS5'] });
    expect(platformsIn('xbox series x exclusives')).toEqual({ label: 'Xbox Series X', platforms: ['Xbox Series X'] });
    expect(platformsIn('Nintendo Switch hits')?.platforms).toEqual(['Nintendo Switch']);
    expect(platformsIn('PlayStation favourites')).toEqual({ label: 'PlayStation', platforms: ['PS4', 'PS5', 'PS3'] });
    expect(platformsIn('best PC games')).toEqual({ label: 'PC', platforms: ['PC', 'Origin', 'Steam', 'GOG'] });
    expect(platformsIn('Xbox')?.label).toBe('Xbox');
    expect(platformsIn('summer sale')).toBeUndefined();
    expect(platformsIn('specials')).toBeUndefined();
  });
});

describe('reading the model’s draft', () => {
  it('takes JSON, also inside a code fence, and refuses anything else', () => {
    expect(parseDraft('```json\n{"title": " Hi ", "content": "A.\\nB."}\n```')).toEqual({ title: 'Hi', content: 'A.\n\nB.' });
    expect(parseDraft('{"title": "Hi"}')).toBeUndefined();
    expect(parseDraft('{"title": "", "content": "x"}')).toBeUndefined();
    expect(parseDraft('no json here')).toBeUndefined();
  });
});
