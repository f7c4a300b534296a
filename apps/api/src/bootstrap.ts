import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import cors from 'cors';
import type { Express, NextFunction, Request, Response } from 'express';
import type { DestinationStream } from 'pino';
import helmet from 'helmet';
import * as path from 'node:path';
import { AppModule } from './app.module';
import { AbsoluteUrlsInterceptor } from './common/absolute-urls.interceptor';
import { refuseDeepBodies } from './common/body-depth';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter';
import { EarlyDoor, type ETagFunction } from './cache/early-door';
import { HttpCapture } from './cache/http-capture';
import { personalNoStore } from './common/no-store';
import { PublicCacheInterceptor } from './common/public-cache.interceptor';
import { createValidationPipe } from './common/validation';
import { ShopMetrics } from './observability/metrics';
import { METRICS_PATH, metricsHandler } from './observability/metrics-endpoint';
import {
  attachRequestLog,
  createRootLogger,
  NestPinoLogger,
  readLogOptions,
  type LogOptions,
} from './common/logging';
import type { AppConfig } from './config';

export const API_PREFIX = 'api';
export const ASSETS_DIR = path.resolve(__dirname, '..', 'assets');

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Natural beauty shop API')
    .setDescription(
      'REST API of the online shop for natural beauty and skincare products in Ethiopia. Prices are in ETB. ' +
        'Errors always have the shape { success: false, statusCode, message, errors? }.',
    )
    .setVersion('1.0.0')
    .addBearerAuth()
    .addCookieAuth('token')
    .addServer('/', 'This server')
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) =>
      `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });
}

/** Everything between "the module graph" and "listening": shared by main.ts, the tests and the OpenAPI writer. */
export async function createApp(
  config: AppConfig,
  options: {
    /** false: no log at all (tests, the OpenAPI writer), unless `logDestination` asks for the request lines. */
    logger?: false;
    /** LOG_FORMAT and LOG_LEVEL (read from the environment when not given). */
    logging?: LogOptions;
    /** Where log lines go instead of stdout (tests read them). */
    logDestination?: DestinationStream;
  } = {},
): Promise<NestExpressApplication> {
  // docs/decisions/0072-logs-and-request-ids.md: pino for Nest's own lines and one line per request
  const silent = options.logger === false && !options.logDestination;
  const logging: LogOptions = silent
    ? { format: 'json', level: 'silent' }
    : (options.logging ?? readLogOptions(process.env, config.nodeEnv));
  const rootLogger = createRootLogger(logging, options.logDestination);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), {
    bodyParser: false,
    rawBody: true, // payment webhooks check an HMAC of the exact bytes received
    logger: options.logger === false ? false : new NestPinoLogger(rootLogger),
  });
  app.set('trust proxy', /^\d+$/.test(config.trustProxy) ? Number(config.trustProxy) : config.trustProxy);
  app.disable('x-powered-by');

  // Older clients may send the doubled prefix (/api/api/...): docs/product.md §7 keeps it as an alias.
  app.use((req: Request, _res: Response, next: NextFunction) => {
    if (req.url.startsWith('/api/api/') || req.url === '/api/api') req.url = req.url.slice(4);
    next();
  });
  // Prometheus metrics (docs/operations.md 'Metrics'): a route of its own, ahead of the rest; every
  // request is timed from the server's first 'request' listener, also those answered before Express
  const metrics = app.get(ShopMetrics);
  (app.getHttpAdapter().getInstance() as Express).get(METRICS_PATH, metricsHandler(config, metrics));
  metrics.observe(app.getHttpServer());
  app.use(personalNoStore);
  app.use(
    helmet({
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", "'unsafe-inline'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
        },
      },
    }),
  );
  app.useBodyParser('json', { limit: config.bodyLimit });
  app.useBodyParser('urlencoded', { limit: config.bodyLimit, extended: false });
  // a body the parsers refuse gets the one error shape, never the parser's own text
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!error) return next();
    const body = new AllExceptionsFilter().toBody(error);
    res.status(body.statusCode).json(body);
  });
  app.use(refuseDeepBodies);
  app.use(cookieParser());
  // what app.enableCors does (the `cors` package), kept as one function so that hot hits answered
  // before Express (below) carry exactly the CORS headers Express would have set
  const corsHeaders = cors({
    origin: config.corsOrigins.includes('*') ? true : config.corsOrigins,
    credentials: true,
    exposedHeaders: ['Content-Range', 'X-Total-Count'],
  });
  app.use(corsHeaders);
  // Anonymous hot reads: misses are stored here, after helmet, the body parsers and CORS, and before
  // Nest's guards, pipes and serialisation; hits are answered by the HTTP server's own 'request'
  // listener, before Express runs at all (helmet's static headers are replayed from the stored answer).
  app.use(app.get(HttpCapture).middleware());
  // misses of routes with an early reader (the catalogue list) are answered there too, with Express's ETags
  app
    .get(EarlyDoor)
    .attach(
      app.getHttpServer(),
      corsHeaders,
      (app.getHttpAdapter().getInstance() as Express).get('etag fn') as ETagFunction,
    );
  // outermost of all: every answer, also those the doors give before Express, gets its request id and log line
  attachRequestLog(app.getHttpServer(), rootLogger);
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalInterceptors(
    // outermost: answers get absolute image URLs after caching, requests have them made relative first
    new AbsoluteUrlsInterceptor(config.publicUrl),
    new PublicCacheInterceptor(), // Cache-Control of public reads (the cache module keeps the bytes)
  );
  app.useStaticAssets(ASSETS_DIR, { prefix: `/${API_PREFIX}/assets/`, maxAge: '7d', immutable: false });
  app.enableShutdownHooks([], { useProcessExit: true }); // exit 0 once in-flight requests are done (main.ts adds a deadline)

  SwaggerModule.setup(`${API_PREFIX}/docs`, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: `${API_PREFIX}/docs-json`,
    yamlDocumentUrl: `${API_PREFIX}/docs-yaml`,
  });
  return app;
}

export async function listen(app: NestExpressApplication, config: AppConfig): Promise<void> {
  await app.listen(config.port, config.host);
  new Logger('Bootstrap').log(
    `API listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}/${API_PREFIX} ` +
      `(docs at /${API_PREFIX}/docs)`,
  );
}
