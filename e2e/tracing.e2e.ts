import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStack, type Stack } from './stack';

/** One span as OTLP/HTTP's JSON encoding sends it (ids in hex). */
interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

/**
 * A local OTLP/HTTP receiver: POST /v1/traces with the JSON encoding (the exporter of
 * @opentelemetry/exporter-trace-otlp-http), every span kept with its service's name.
 */
function otlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: Omit<ReceivedSpan, 'service'>[] }[];
          }[];
        };
        for (const rs of body.resourceSpans) {
          const service =
            rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const ss of rs.scopeSpans) for (const span of ss.spans) spans.push({ ...span, service });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        spans,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

describe('traces (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let stack: Stack;
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;

  beforeAll(async () => {
    receiver = await otlpReceiver();
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '200' };
    stack = await startStack({ apiEnv: otel, storefrontEnv: otel });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('a storefront page that calls the API makes one trace across both services, the API continuing the storefront’s', async () => {
    const page = await fetch(`${stack.storefront}/products`, { headers: { 'X-Request-Id': 'trace-test-1' } });
    expect(page.status).toBe(200);
    await page.text();

    // the storefront's server span for the page, then the API's server spans of the same trace
    let shared: { storefront: ReceivedSpan[]; api: ReceivedSpan[] } | undefined;
    for (let i = 0; i < 80 && !shared; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const pageSpan = receiver.spans.find(
        (s) => s.service === 'shop-storefront' && s.kind === 2 && /GET/.test(s.name),
      );
      if (!pageSpan) continue;
      const trace = receiver.spans.filter((s) => s.traceId === pageSpan.traceId);
      const api = trace.filter((s) => s.service === 'shop-api');
      if (api.some((s) => s.kind === 2))
        shared = { storefront: trace.filter((s) => s.service === 'shop-storefront'), api };
    }
    expect(shared).toBeDefined();
    const { storefront, api } = shared!;
    // the API's server span is the child of one of the storefront's client spans (W3C traceparent)
    const clientIds = new Set(storefront.filter((s) => s.kind === 3).map((s) => s.spanId));
    const apiServer = api.filter((s) => s.kind === 2);
    expect(apiServer.some((s) => s.parentSpanId !== undefined && clientIds.has(s.parentSpanId))).toBe(true);
    // inside the API: Nest/Express and the database answered within the same trace
    expect(api.some((s) => /mongodb|find|aggregate/i.test(s.name))).toBe(true);
  }, 60_000);
});
