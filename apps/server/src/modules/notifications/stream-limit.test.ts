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
    const streams = new NotificationStreams({} as Database, {} as FastifyBaseLogger, { perInstance: 2 });
    const [first, second] = [fakeResponse(), fakeResponse()];
    streams.subscribe(null, '10.0.0.1', first);
    expect(streams.full).toBe(false);
    streams.subscribe('u1', '10.0.0.2', second);
    expect(streams.full).toBe(true);
    first.emit('close');
    expect(streams.full).toBe(false);
    await streams.stop();
    expect(second.writableEnded).toBe(true);
    expect(streams.size).toBe(0);
  });

  it('counts each user and each address apart, and forgets a stream once it closes', () => {
    const streams = new NotificationStreams({} as Database, {} as FastifyBaseLogger, { perUser: 1, perAddress: 2 });
    const mine = fakeResponse();
    streams.subscribe('u1', '10.0.0.1', mine);
    expect(streams.tooManyFrom('u1', '10.0.0.9')).toBe(true);
    expect(streams.tooManyFrom('u2', '10.0.0.1')).toBe(false);
    streams.subscribe(null, '10.0.0.1', fakeResponse());
    expect(streams.tooManyFrom(null, '10.0.0.1')).toBe(true);
    expect(streams.tooManyFrom(null, '10.0.0.2')).toBe(false);
    mine.emit('close');
    expect(streams.tooManyFrom('u1', '10.0.0.1')).toBe(false);
  });
});
