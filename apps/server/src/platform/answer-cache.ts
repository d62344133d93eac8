import { constants, brotliCompressSync, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';

type Encoding = 'br' | 'gzip';

/** An answer as sent, and its compressed forms, each made the first time a client accepts it. */
interface Answer {
  json: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** Bodies below this go out as they are: compressing them saves less than the headers weigh. */
const COMPRESS_ABOVE = 1024;
/**
 * Compression levels, chosen by measurement on the first catalogue page (8.6 KB, decision 025):
 * brotli 5 gives 1511 bytes in 147 µs, gzip 6 1658 bytes in 182 µs, brotli 11 1383 bytes in 12.9 ms.
 * Either is paid once per answer and catalogue version, and a sale moves the version: no level 11.
 */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };
const GZIP = { level: 6 };

/**
 * The store's repeated JSON answers (catalogue pages, searches, game pages), kept ready to send
 * together with their compressed forms. Browsers always ask for compression, and compressing a
 * page costs several times what building it does: here it is paid once per answer, not per request.
 *
 * A key carries the version of the data the answer was built from (the caller's), so a change is
 * never answered from before it; answers of older versions are never asked for again and fall out
 * as the least recently used. The budget is in bytes, keys included.
 */
export class AnswerCache {
  private readonly answers: LRUCache<string, Answer>;
  private readonly negotiator = new Negotiator<Encoding | 'identity'>({ supportedValues: ['br', 'gzip', 'identity'] });

  constructor(maxBytes: number) {
    this.answers = new LRUCache<string, Answer>({
      maxSize: maxBytes,
      sizeCalculation: (answer, key) => key.length + answer.json.length + (answer.br?.length ?? 0) + (answer.gzip?.length ?? 0),
    });
  }

  /**
   * Sends the answer kept under `key`, or builds it (JSON text) and keeps it. A build that throws
   * (not found) keeps nothing, and its error goes to the error handler as usual.
   */
  async send(request: FastifyRequest, reply: FastifyReply, key: string, build: () => string | Promise<string>): Promise<FastifyReply> {
    let answer = this.answers.get(key);
    if (!answer) {
      answer = { json: Buffer.from(await build()) };
      this.answers.set(key, answer);
    }
    reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
    const encoding = answer.json.length > COMPRESS_ABOVE ? this.encodingFor(request) : undefined;
    if (!encoding) return reply.send(answer.json);
    let body = answer[encoding];
    if (!body) {
      body = answer[encoding] = encoding === 'br' ? brotliCompressSync(answer.json, BROTLI) : gzipSync(answer.json, GZIP);
      // Stored again: the entry grew, and its size counts against the budget.
      this.answers.set(key, answer);
    }
    // With Content-Encoding set, the compression plugin leaves the body as it is.
    return reply.header('content-encoding', encoding).send(body);
  }

  private encodingFor(request: FastifyRequest): Encoding | undefined {
    const header = request.headers['accept-encoding'];
    if (!header) return undefined;
    const chosen = this.negotiator.negotiate(header);
    return chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
  }
}
