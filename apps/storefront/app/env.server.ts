import { readBool, readNodeEnv, readUrl, type Env, type NodeEnv } from '@shop/shared';

/** The storefront's configuration, read and validated once at start; only the public part reaches the browser. */
export interface StorefrontEnv {
  nodeEnv: NodeEnv;
  /** The shop API, including `/api` (e.g. http://api:4000/api). */
  apiUrl: string;
  /** The back office, linked from the user menu of admins. */
  adminUrl: string;
  /** Public origin of the storefront, for canonical and Open Graph URLs ('' = the request's own). */
  storefrontUrl: string;
  /**
   * Cookies set without a request to judge by are Secure: in production unless COOKIE_SECURE=false
   * (a production storefront behind plain HTTP), never in development.
   */
  cookieSecure: boolean;
}

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid storefront configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'EnvError';
  }
}

/** Safe development defaults: the API and the back office on this machine. */
export const DEV_API_URL = 'http://localhost:4000/api';
export const DEV_ADMIN_URL = 'http://localhost:3001/admin';

/**
 * Parses the environment like the API's `loadConfig`: every problem listed at once. In production the
 * API URL must be given (the local default would send every request to the storefront's own machine);
 * anywhere, the URLs must be http(s) and the booleans true/false.
 */
export function parseEnv(source: Env): StorefrontEnv {
  const problems: string[] = [];
  const nodeEnv = readNodeEnv(source, problems);
  const production = nodeEnv === 'production';
  if (production && !source.API_URL?.trim())
    problems.push('API_URL must be set in production (e.g. http://api:4000/api)');
  const apiUrl = readUrl(source, 'API_URL', DEV_API_URL, problems);
  const adminUrl = readUrl(source, 'ADMIN_URL', DEV_ADMIN_URL, problems);
  const storefrontUrl = source.STOREFRONT_URL?.trim() ? readUrl(source, 'STOREFRONT_URL', '', problems) : '';
  const cookieSecure = readBool(source, 'COOKIE_SECURE', true, problems) && production;
  if (problems.length) throw new EnvError(problems);
  return { nodeEnv, apiUrl, adminUrl, storefrontUrl, cookieSecure };
}

/** Read at start: the server refuses to start on a bad environment (remix-serve exits with the list). */
export const env = parseEnv(process.env);
