// Traces through OpenTelemetry (issue 32), opt-in: the start commands load this file with
// `node --import` before the app only when OTEL_EXPORTER_OTLP_ENDPOINT is set (scripts/server-process.ts),
// so a store without it loads nothing of OpenTelemetry. It must run first: the instrumentations patch
// pg, ioredis and Node's HTTP client as the app imports them (ES modules, through import-in-the-middle's
// loader hook, told only of the modules they patch). Each request is a trace: Fastify's span, its SQL,
// its Redis calls and its calls to a seller's webhook (node:http) or the supplier (fetch, undici).
// The SDK reads the standard variables: OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER...
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';

// Only the main thread: the embedded database's thread (Node passes `--import` on to workers) makes no spans.
if (isMainThread) await startTracing();

async function startTracing(): Promise<void> {
  // Traces only: metrics are Prometheus's (/metrics), logs are the process's own.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'keystore',
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      // Fastify's own spans (the request, its hooks and handler), named by route template.
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
      // Outgoing calls only (a seller's webhook): Fastify's instrumentation makes the incoming request's span.
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
      new UndiciInstrumentation(),
      // Statements only (never their values: keys and e-mail addresses are parameters).
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      new IORedisInstrumentation(),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  // The spans still buffered go out as the server shuts down (it exits once it has).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void sdk.shutdown().catch(() => undefined));
}
