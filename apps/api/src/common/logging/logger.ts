import type { LoggerService } from '@nestjs/common';
import { hostname } from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import type { LogLevel, LogOptions } from './log-options';

/**
 * Paths pino censors wherever a log entry carries them: credentials in headers and the fields a body
 * would name (request bodies are never logged at all; this guards a careless `logger.info(obj)`).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'password',
  'token',
  'email',
  'phone',
  '*.password',
  '*.token',
  '*.email',
  '*.phone',
];

/** The fields of the request line the readable format already shows in its message. */
const PRETTY_HIDDEN = 'pid,hostname,service,context,method,route,status,durationMs';

/**
 * The API's one pino logger: JSON lines (ISO time, pid, hostname) or, in development, one readable
 * line per entry through pino-pretty in this thread (no worker). `destination` stands in for stdout (tests).
 */
export function createRootLogger(options: LogOptions, destination?: DestinationStream): Logger {
  const settings = {
    level: options.level,
    base: { service: 'api', pid: process.pid, hostname: hostname() },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  if (options.format === 'pretty') {
    const pretty = pinoPretty({
      sync: true,
      singleLine: true,
      colorize: !destination && process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: PRETTY_HIDDEN,
      messageFormat: '{if context}[{context}] {end}{msg}',
      destination: destination ?? 1,
    });
    return pino(settings, pretty);
  }
  return pino(settings, destination ?? pino.destination({ dest: 1, sync: false }));
}

/**
 * Nest's start-up chatter (one line per module and ~170 route mappings) goes to debug: the start
 * prints what an operator needs (the engine, where the API listens), `LOG_LEVEL=debug` shows the rest.
 */
const QUIET_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

type Level = Exclude<LogLevel, 'silent'>;

/** Nest's LoggerService over pino: `new Logger('Context').log(...)` anywhere in the API writes through it. */
export class NestPinoLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest calls (message, context) and, for errors, (message, stack, context). */
  private write(level: Level, message: unknown, params: unknown[]): void {
    const rest = [...params];
    const context =
      rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    if (level === 'info' && context !== undefined && QUIET_CONTEXTS.has(context)) level = 'debug';
    if (!this.pino.isLevelEnabled(level)) return;
    const entry: Record<string, unknown> = context === undefined ? {} : { context };
    let text: string | undefined;
    if (message instanceof Error) {
      entry.err = message;
      text = message.message;
    } else if (message !== null && typeof message === 'object') Object.assign(entry, message);
    else text = String(message);
    if (typeof rest[0] === 'string' && (level === 'error' || level === 'fatal')) entry.stack = rest.shift();
    this.pino[level](entry, text);
  }
}
