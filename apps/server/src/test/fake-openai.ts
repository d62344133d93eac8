import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackFake } from './loopback-server.ts';
import { encodePng } from './png.ts';

/** One call the store made to the fake, with its decoded JSON body. */
export interface OpenAiRequest {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

/**
 * A fake of the OpenAI API calls the store makes (chat completions, image generation) on loopback.
 * `reply` decides each chat answer from the request; `faults` answers the next calls with an error.
 */
export class FakeOpenAi extends LoopbackFake {
  readonly apiKey = 'sk-fake-keystore';
  readonly requests: OpenAiRequest[] = [];
  readonly faults: Array<{ status: number; message?: string }> = [];
  reply: (request: OpenAiRequest) => string = () => 'An answer from the fake model.';

  /** The environment that points the store's AI provider at this fake. */
  env(): Record<string, string> {
    return { OPENAI_API_KEY: this.apiKey, OPENAI_BASE_URL: `${this.url}/v1` };
  }

  calls(path: string): OpenAiRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const entry: OpenAiRequest = { path: new URL(request.url ?? '/', this.url).pathname, authorization: request.headers.authorization, body: raw ? JSON.parse(raw) : {} };
    this.requests.push(entry);
    const send = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (entry.authorization !== `Bearer ${this.apiKey}`) return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    const fault = this.faults.shift();
    if (fault) return send(fault.status, { error: { message: fault.message ?? 'fault', type: fault.status >= 500 ? 'server_error' : 'invalid_request_error' } });
    if (entry.path === '/v1/chat/completions') {
      return send(200, {
        id: `chatcmpl-${this.requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: entry.body.model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: this.reply(entry) } }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    }
    if (entry.path === '/v1/images/generations') {
      return send(200, { created: Math.floor(Date.now() / 1000), data: [{ b64_json: generatedImage().toString('base64') }] });
    }
    send(404, { error: { message: `Unknown path ${entry.path}`, type: 'invalid_request_error' } });
  }
}

/** A 64 × 64 purple square: what the fake "draws" for any prompt. */
function generatedImage(): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(64 * 3, Buffer.from([0x6d, 0x4a, 0xff]))]);
  return encodePng({ width: 64, height: 64, bitDepth: 8, colour: 'rgb', rows: Buffer.concat(Array.from({ length: 64 }, () => row)) });
}
