export { readLogOptions, type LogOptions, type LogFormat, type LogLevel } from './log-options';
export { createRootLogger, NestPinoLogger, REDACTED_PATHS } from './logger';
export { REQUEST_ID_HEADER, requestIdFrom } from './request-id';
export { attachRequestLog, requestLine, routeTemplate } from './request-log';
