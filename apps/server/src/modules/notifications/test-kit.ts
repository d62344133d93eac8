// What the notification tests share: reading a server-sent-event stream over real HTTP.
import type { Notification } from '@keystore/contract';

export interface EventStream {
  status: number;
  headers: Headers;
  /** Whether the server ended the stream. */
  readonly ended: boolean;
  /** The next `notification` event, or an error after `timeoutMs`. */
  next(timeoutMs?: number): Promise<Notification>;
  close(): void;
}

/** Opens `url` as an event stream and collects its `notification` events. */
export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', 'accept-encoding': 'gzip', ...headers }, signal: abort.signal });
  const received: Notification[] = [];
  const waiting: Array<() => void> = [];
  let ended = false;
  if (response.body && response.status === 200) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const lines = frame.split('\n');
            if (!lines.includes('event: notification')) continue;
            const data = lines.find((line) => line.startsWith('data: '));
            if (data) received.push(JSON.parse(data.slice(6)) as Notification);
            waiting.splice(0).forEach((wake) => wake());
          }
        }
        ended = true;
      } catch {
        // aborted by close()
      }
    })();
  }
  return {
    status: response.status,
    headers: response.headers,
    get ended() {
      return ended;
    },
    async next(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length === 0) {
        if (Date.now() > deadline) throw new Error('no notification arrived on the stream');
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received.shift()!;
    },
    close: () => abort.abort(),
  };
}
