import type { Env } from '@shop/shared';
import { ConfigError } from '../../config';

export type LogFormat = 'json' | 'pretty';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How the API writes its logs (docs/decisions/0072-logs-and-request-ids.md). */
export interface LogOptions {
  /** JSON lines (production's default, what a log collector reads) or one readable line per entry. */
  format: LogFormat;
  level: LogLevel;
}

/**
 * LOG_FORMAT (json | pretty; json by default in production, pretty elsewhere) and LOG_LEVEL (pino's
 * levels; info by default). A bad value is refused at start like any other setting.
 */
export function readLogOptions(env: Env, nodeEnv: string): LogOptions {
  const problems: string[] = [];
  const format = (env.LOG_FORMAT?.trim().toLowerCase() ||
    (nodeEnv === 'production' ? 'json' : 'pretty')) as LogFormat;
  if (format !== 'json' && format !== 'pretty')
    problems.push(`LOG_FORMAT must be json or pretty (got "${env.LOG_FORMAT}")`);
  const level = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(level))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  if (problems.length) throw new ConfigError(problems);
  return { format, level };
}
