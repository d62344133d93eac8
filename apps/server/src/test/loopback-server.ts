import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  stop(): Promise<void>;
}

/** An HTTP server on a free loopback port: where the tests' fakes of external APIs listen. */
async function listenOnLoopback(handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>): Promise<LoopbackServer> {
  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A fake of an external API (Kinguin, Stripe, OpenAI): started on a free loopback port, answering through `handle`. */
export abstract class LoopbackFake {
  /** `http://127.0.0.1:<port>` once started. */
  url = '';
  private server: LoopbackServer | undefined;

  async start(): Promise<this> {
    this.server = await listenOnLoopback((request, response) => this.handle(request, response));
    this.url = this.server.url;
    return this;
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }

  protected abstract handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}
