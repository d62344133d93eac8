import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { FakeOpenAi } from '../../test/fake-openai.ts';
import { aiFromConfig } from './provider.ts';

describe('the AI provider', () => {
  const fake = new FakeOpenAi();
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  const provider = () => aiFromConfig(loadConfig({ DATA_DIR: '/tmp/keystore-ai-test', ...fake.env(), AI_CHAT_MODEL: 'gpt-test' }))!;

  it('is absent without OPENAI_API_KEY, so callers fall back to their offline generators', () => {
    expect(aiFromConfig(loadConfig({ DATA_DIR: '/tmp/keystore-ai-test' }))).toBeUndefined();
  });

  it('asks the configured model with the key and answers its text', async () => {
    fake.reply = (request) => `echo: ${(request.body.messages as Array<{ content: string }>).at(-1)!.content}`;
    expect(await provider().complete([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }])).toBe('echo: Hello');
    const [call] = fake.calls('/v1/chat/completions').slice(-1);
    expect(call!.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(call!.body).toMatchObject({ model: 'gpt-test', messages: [{ role: 'system' }, { role: 'user', content: 'Hello' }] });
  });

  it('answers a generated image as decodable bytes', async () => {
    const image = await provider().image('A cover for a news item');
    expect((await sharp(image).metadata()).format).toBe('png');
  });

  it('fails with the provider’s error when it refuses', async () => {
    fake.faults.push({ status: 400, message: 'Your request was rejected' });
    await expect(provider().complete([{ role: 'user', content: 'x' }])).rejects.toThrow(/rejected/);
  });
});
