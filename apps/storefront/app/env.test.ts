import { describe, expect, it } from 'vitest';
import { DEV_ADMIN_URL, DEV_API_URL, EnvError, parseEnv } from './env.server';

const problems = (source: Record<string, string>) => {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  return [];
};

describe("the storefront's environment", () => {
  it('has safe development defaults', () => {
    expect(parseEnv({})).toEqual({
      nodeEnv: 'development',
      apiUrl: DEV_API_URL,
      adminUrl: DEV_ADMIN_URL,
      storefrontUrl: '',
      cookieSecure: false,
    });
    expect(parseEnv({ NODE_ENV: 'test', COOKIE_SECURE: 'true' }).cookieSecure).toBe(false);
  });

  it('takes the URLs it is given, without trailing slashes', () => {
    const env = parseEnv({
      NODE_ENV: 'production',
      API_URL: 'http://api:4000/api/',
      ADMIN_URL: 'https://admin.beauty.et/admin',
      STOREFRONT_URL: 'https://beauty.et/',
    });
    expect(env).toMatchObject({
      apiUrl: 'http://api:4000/api',
      adminUrl: 'https://admin.beauty.et/admin',
      storefrontUrl: 'https://beauty.et',
      cookieSecure: true,
    });
    expect(
      parseEnv({ NODE_ENV: 'production', API_URL: 'http://api:4000/api', COOKIE_SECURE: 'false' })
        .cookieSecure,
    ).toBe(false);
  });

  it('refuses production without an API URL (the local default would be wrong there)', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([
      'API_URL must be set in production (e.g. http://api:4000/api)',
    ]);
    expect(problems({ NODE_ENV: 'production', API_URL: '  ' })).toContain(
      'API_URL must be set in production (e.g. http://api:4000/api)',
    );
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/Invalid storefront configuration/);
  });

  it('lists every bad value at once, in any environment', () => {
    expect(
      problems({
        NODE_ENV: 'staging',
        API_URL: 'ftp://api/api',
        ADMIN_URL: 'not a url',
        STOREFRONT_URL: 'javascript:alert(1)',
        COOKIE_SECURE: 'maybe',
      }),
    ).toEqual([
      'NODE_ENV must be development, production or test (got "staging")',
      'API_URL must be an http(s) URL (got "ftp://api/api")',
      'ADMIN_URL must be an http(s) URL (got "not a url")',
      'STOREFRONT_URL must be an http(s) URL (got "javascript:alert(1)")',
      'COOKIE_SECURE must be true or false (got "maybe")',
    ]);
  });
});
