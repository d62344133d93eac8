import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { NotificationStreams } from './stream.ts';

/** A response that only records whether it was ended. */
function fakeResponse(): ServerResponse {
  const response = Object.assign(new EventEmitter(), {
    writableEnded: false,
    write: () => true,
    end() {
      response.writableEnded = true;
    },
  });
  return response as unknown as ServerResponse;
}

describe('the streams of one instance', () => {
  it('is full at its limit, takes streams again once one closes, and ends every stream on stop', async () => {
    const streams = new NotificationStreams({} as Database, {} as FastifyBaseLogger, 2);
    const [first, second] = [fakeResponse(), fakeResponse()];
    streams.subscribe(null, first);
    expect(streams.full).toBe(false);
    streams.subscribe('u1', second);
    expect(streams.full).toBe(true);
    first.emit('close');
    expect(streams.full).toBe(false);
    await streams.stop();
    expect(second.writableEnded).toBe(true);
    expect(streams.size).toBe(0);
  });
});
