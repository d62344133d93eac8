import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyServerOptions } from 'fastify';
import { pino } from 'pino';
import { currentRequestId } from './request-context.ts';

/**
 * Query parameters that carry a credential: the notification stream's `ticket` and `sessionId`, the
 * e-mailed `code` and reset `token` of the page links, and anything else named like a secret.
 */
const SECRET_PARAMETER = /token|ticket|code|secret|password|session|signature|key/i;
const REDACTED = '[redacted]';

/** The URL with the value of each secret-looking query parameter replaced, everything else as sent. */
export function urlWithoutSecrets(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      return SECRET_PARAMETER.test(safeDecode(pair.slice(0, equals))) ? `${pair.slice(0, equals + 1)}${REDACTED}` : pair;
    });
  return `${url.slice(0, start)}?${query.join('&')}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** What a logged request shows: Fastify's own fields, with the URL's secrets redacted. */
interface LoggedRequest {
  method?: string | undefined;
  url?: string | undefined;
  headers?: IncomingHttpHeaders;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number | undefined } | undefined;
}

function requestWithoutSecrets(request: LoggedRequest) {
  const version = request.headers?.['accept-version'];
  return {
    method: request.method,
    url: request.url === undefined ? undefined : urlWithoutSecrets(request.url),
    version: typeof version === 'string' ? version : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** pino's serialised bindings of a logger: a request's own logger has Fastify's `reqId` among them. */
const BINDINGS = pino.symbols.chindingsSym;

/**
 * The logger options of the app: the configured level unless the caller (a test) sets one, and
 * every logged request URL without its secrets, whoever passes the options. A request is logged
 * (at debug, and with its errors) through this one serializer, so no other place needs to redact.
 * A line a module logs with the app's logger while it works for a request carries the request's id
 * too (`reqId`, as Fastify names it on the request's own logger).
 */
export function loggerOptions(level: string, given: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (given === false) return false;
  const options = typeof given === 'object' ? given : {};
  return {
    level,
    ...options,
    serializers: { ...options.serializers, req: requestWithoutSecrets },
    // Read only when a line is written: a request's own logger has its id bound already.
    mixin: (_merged: object, _level: number, logger: object) => {
      if ((logger as { [BINDINGS]?: string })[BINDINGS]?.includes('"reqId":')) return {};
      const reqId = currentRequestId();
      return reqId ? { reqId } : {};
    },
  };
}

