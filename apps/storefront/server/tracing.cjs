'use strict';
/**
 * OpenTelemetry traces of the storefront (docs/decisions/0075-traces.md): with
 * OTEL_EXPORTER_OTLP_ENDPOINT set, incoming requests, Express and the calls to the API (fetch through
 * undici, or Remix's fetch over `http`) are exported through OTLP/HTTP (JSON), and every call to the
 * API carries W3C `traceparent`, so the API continues the page's trace. Without the variable nothing
 * of the SDK is loaded. Required first by server/index.cjs, before express and http are used.
 */

let started;

/** Starts the SDK when an OTLP endpoint is configured; answers whether it did. */
function startTracing(env = process.env) {
  if (started || !env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) return false;
  // traces only: the SDK would otherwise also set up OTLP metrics and logs from their defaults
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  env.OTEL_SERVICE_NAME ||= 'shop-storefront';
  const { NodeSDK } = require('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici');
  const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express');
  const sdk = new NodeSDK({
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({
        // scrapes and the build's static files would be most of the traces
        ignoreIncomingRequestHook: (req) => /^\/(metrics|assets\/|favicon)/.test(req.url ?? ''),
      }),
      new UndiciInstrumentation(),
      new ExpressInstrumentation(),
    ],
  });
  sdk.start();
  started = sdk;
  return true;
}

/** Sends the spans still buffered and stops the SDK; nothing when tracing is off. */
async function stopTracing() {
  const sdk = started;
  started = undefined;
  if (sdk) await sdk.shutdown().catch(() => undefined);
}

module.exports = { startTracing, stopTracing };
