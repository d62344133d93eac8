// The AI provider (DESIGN §1): any OpenAI-compatible endpoint through the `openai` SDK when
// OPENAI_API_KEY is set. Without one there is no provider, and the callers use their offline
// generators instead (news drafted from the catalogue, support answered from the terms and FAQ).
import OpenAI from 'openai';
import type { Config } from '../../config.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What the store asks of an AI provider. */
export interface AiProvider {
  /** The model's answer to a conversation. */
  complete(messages: ChatMessage[], options?: { maxTokens?: number; json?: boolean }): Promise<string>;
  /** An image for the prompt, as the bytes of a PNG, JPEG or WebP file. */
  image(prompt: string): Promise<Buffer>;
}

/** Time limit of one call to the provider; the SDK retries twice on connection errors, 429 and 5xx. */
const TIMEOUT_MS = 60_000;

/** The configured provider, or undefined when no OPENAI_API_KEY is set (offline mode). */
export function aiFromConfig(config: Pick<Config, 'ai'>): AiProvider | undefined {
  const { apiKey, baseUrl, chatModel, imageModel } = config.ai;
  if (!apiKey) return undefined;
  const client = new OpenAI({ apiKey, baseURL: baseUrl, timeout: TIMEOUT_MS, maxRetries: 2 });
  return {
    async complete(messages, options = {}) {
      const answer = await client.chat.completions.create({
        model: chatModel,
        messages,
        ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
        ...(options.json ? { response_format: { type: 'json_object' as const } } : {}),
      });
      const text = answer.choices[0]?.message?.content?.trim();
      if (!text) throw new Error('The AI provider answered with no text');
      return text;
    },
    async image(prompt) {
      // gpt-image-* models always answer base64 and refuse response_format; DALL·E models need it to.
      const answer = await client.images.generate({
        model: imageModel,
        prompt,
        n: 1,
        size: '1024x1024',
        ...(imageModel.startsWith('dall-e') ? { response_format: 'b64_json' as const } : {}),
      });
      const image = answer.data?.[0];
      if (image?.b64_json) return Buffer.from(image.b64_json, 'base64');
      if (image?.url) {
        const download = await fetch(image.url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
        if (!download.ok) throw new Error(`The AI provider's image could not be fetched (${download.status})`);
        return Buffer.from(await download.arrayBuffer());
      }
      throw new Error('The AI provider answered with no image');
    },
  };
}
