import { LogController, type FastifyServerOptions } from 'fastify';
import type { Config } from '../../config.ts';
import { frameworkErrors } from '../errors.ts';
import { loggerOptions } from '../logging.ts';
import { requestIdOf } from '../request-context.ts';

// What any JSON body of this API needs (an order, a message, a form), with room to spare.
const JSON_BODY_LIMIT = 64 * 1024;

/** Fastify's own options: the logger, the proxies believed, timeouts and body limits. */
export function serverOptions(config: Config, logger: FastifyServerOptions['logger']): FastifyServerOptions {
  return {
    logger: loggerOptions(config.logLevel, logger),
    // Each request's id: a trusted proxy's `x-request-id`, else a new one (answered in `x-request-id`).
    genReqId: requestIdOf(config.trustProxy),
    // Believe only the X-Forwarded-For entries our own proxies appended (the last `trustProxy` hops).
    trustProxy: config.trustProxy > 0 ? (_address: string, hop: number) => hop < config.trustProxy : false,
    // One log line per request only when debugging: at store traffic the access log belongs to the proxy in front.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(config.logLevel) }),
    // Rebuilding the catalogue index must not be cut short by Fastify's plugin timeout on big catalogues.
    pluginTimeout: 120_000,
    // A client must send its whole request within this: a slow one cannot hold a socket (or a turn) for ever.
    requestTimeout: 30_000,
    // Every JSON body this API takes is small; the one route that carries more (a news cover as a
    // data URL) raises its own limit. Multipart uploads have their own limits (plugins/uploads.ts).
    bodyLimit: JSON_BODY_LIMIT,
    // A URL Fastify cannot even route (a malformed escape, an over-long parameter) answers `{error}` too.
    frameworkErrors,
  };
}
