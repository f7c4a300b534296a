/**
 * OpenTelemetry traces (docs/decisions/0075-traces.md, docs/operations.md 'Traces'): with
 * OTEL_EXPORTER_OTLP_ENDPOINT set, incoming and outgoing HTTP, Express, Nest and MongoDB spans are
 * exported through OTLP/HTTP (JSON), and a caller's W3C `traceparent` is continued. Without it nothing
 * of the SDK is even loaded. main.ts imports this file first, so that the instrumentations hook
 * `http`, `express`, `@nestjs/core` and `mongodb` before anything requires them.
 *
 * The SDK reads the standard variables itself: OTEL_SERVICE_NAME (default `shop-api`),
 * OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER(_ARG), OTEL_BSP_SCHEDULE_DELAY, ...
 */

interface Started {
  shutdown(): Promise<void>;
}

let started: Started | undefined;

/** Starts the tracing SDK when an OTLP endpoint is configured; answers whether it did. */
export function startTracing(env: NodeJS.ProcessEnv = process.env): boolean {
  if (started || !env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) return false;
  // traces only: the SDK would otherwise also set up OTLP metrics and logs from their defaults
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  env.OTEL_SERVICE_NAME ||= 'shop-api';
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation } =
    require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { NestInstrumentation } =
    require('@opentelemetry/instrumentation-nestjs-core') as typeof import('@opentelemetry/instrumentation-nestjs-core');
  const { MongoDBInstrumentation } =
    require('@opentelemetry/instrumentation-mongodb') as typeof import('@opentelemetry/instrumentation-mongodb');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const sdk = new NodeSDK({
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({
        // Prometheus's scrapes and the orchestrator's health checks would be most of the traces
        ignoreIncomingRequestHook: (req) => /^\/api\/(metrics|health)(\/|\?|$)/.test(req.url ?? ''),
      }),
      new ExpressInstrumentation(),
      new NestInstrumentation(),
      // the statement's shape only: values (emails, phones, tokens) never reach a span
      new MongoDBInstrumentation({ enhancedDatabaseReporting: false }),
    ],
  });
  sdk.start();
  started = sdk;
  return true;
}

/** Sends the spans still buffered and stops the SDK (the app's shutdown calls it); nothing when off. */
export async function stopTracing(): Promise<void> {
  const sdk = started;
  started = undefined;
  await sdk?.shutdown().catch(() => undefined);
}
