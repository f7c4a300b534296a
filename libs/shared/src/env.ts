/**
 * Readers for configuration from environment variables, shared by the API and the storefront: each
 * answers the value or its fallback and records a problem for a value it cannot accept, so a bad
 * environment is refused at start with every problem listed at once.
 */
export type Env = Record<string, string | undefined>;

export function readBool(env: Env, key: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  problems.push(`${key} must be true or false (got "${raw}")`);
  return fallback;
}

export function readInt(
  env: Env,
  key: string,
  fallback: number,
  problems: string[],
  min = 0,
  max = 65535,
): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    problems.push(`${key} must be an integer between ${min} and ${max} (got "${raw}")`);
    return fallback;
  }
  return value;
}

/** An http(s) URL without its trailing slashes. */
export function readUrl(env: Env, key: string, fallback: string, problems: string[]): string {
  const raw = env[key] || fallback;
  try {
    const url = new URL(raw);
    if (!['http:', 'https:'].includes(url.protocol)) throw new Error('protocol');
    return raw.replace(/\/+$/, '');
  } catch {
    problems.push(`${key} must be an http(s) URL (got "${raw}")`);
    return fallback;
  }
}

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

/** NODE_ENV, development when unset. */
export function readNodeEnv(env: Env, problems: string[]): NodeEnv {
  const raw = env.NODE_ENV || 'development';
  if ((NODE_ENVS as readonly string[]).includes(raw)) return raw as NodeEnv;
  problems.push(`NODE_ENV must be development, production or test (got "${raw}")`);
  return 'development';
}
