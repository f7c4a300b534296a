import { describe, expect, it } from 'vitest';
import { configScript } from './serve.mjs';

describe('admin server', () => {
  it('hands the API address to the browser at run time', () => {
    expect(
      configScript({ API_URL: 'https://api.example.et/api', STOREFRONT_URL: 'https://shop.example.et' }),
    ).toBe(
      'window.__SHOP_CONFIG__ = {"apiUrl":"https://api.example.et/api","storefrontUrl":"https://shop.example.et"};\n',
    );
    expect(configScript({})).toContain('http://localhost:4000/api');
    expect(configScript({})).toContain('http://localhost:3000');
  });
});
