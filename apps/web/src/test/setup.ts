// Vitest setup of the web project: the MSW server listens for the whole file, its handlers are
// dropped after each test, and a request no handler answered fails the test it was made in.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server, unhandledRequests } from './server.ts';

// Uploads as a browser sends them. Node's fetch cannot read jsdom's FormData, and Vitest's bridge
// between the two loses each file (a nameless 'blob', without its bytes under jsdom 29); this encodes
// the multipart body itself. A file's bytes are read as that bridge reads them, from jsdom's internals
// (`_bytes` since jsdom 29, `_buffer` before).
const jsdomImpl = Object.getOwnPropertySymbols(Object.getOwnPropertyDescriptors(new Blob()))[0]!;
const bytesOf = (file: File): Uint8Array<ArrayBuffer> => {
  const impl = (file as unknown as Record<symbol, { _bytes?: Uint8Array; _buffer?: Uint8Array }>)[jsdomImpl]!;
  return new Uint8Array(impl._bytes ?? impl._buffer!);
};

function multipartBody(form: FormData, boundary: string): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  form.forEach((value, name) => {
    const head =
      value instanceof File
        ? `Content-Disposition: form-data; name="${name}"; filename="${value.name}"\r\nContent-Type: ${value.type || 'application/octet-stream'}`
        : `Content-Disposition: form-data; name="${name}"`;
    chunks.push(encoder.encode(`--${boundary}\r\n${head}\r\n\r\n`), value instanceof File ? bytesOf(value) : encoder.encode(value), encoder.encode('\r\n'));
  });
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  chunks.reduce((offset, chunk) => (body.set(chunk, offset), offset + chunk.length), 0);
  return body;
}

const BridgedRequest = globalThis.Request;
globalThis.Request = class UploadingRequest extends BridgedRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    if (init?.body instanceof FormData) {
      const boundary = `keystore-test-${crypto.randomUUID()}`;
      const headers = new Headers(init.headers);
      headers.set('Content-Type', `multipart/form-data; boundary=${boundary}`);
      init = { ...init, headers, body: multipartBody(init.body, boundary) };
    }
    super(input, init);
  }
};

// What jsdom lacks and the price chart's library (uPlot) asks for at load.
if (typeof window !== 'undefined') window.matchMedia ??= ((query: string) => ({ matches: false, media: query, onchange: null, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, dispatchEvent: () => false })) as typeof window.matchMedia;
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeAll(() =>
  server.listen({
    // MSW's 'error' strategy logs the request and fails the fetch; recording it also fails the test.
    onUnhandledRequest: (request, print) => {
      const url = new URL(request.url);
      unhandledRequests.push(`${request.method} ${url.pathname}${url.search}`);
      print.error();
    },
  }),
);

afterEach(() => {
  server.resetHandlers();
  const missed = unhandledRequests.splice(0);
  if (missed.length > 0) throw new Error(`Requests no test handler answered: ${missed.join(', ')}`);
});

afterAll(() => server.close());
