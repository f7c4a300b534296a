import { describe, expect, it } from 'vitest';
import { configScript } from './serve.mjs';

describe('admin server', () => {
  it('hands the API address to the browser at run time', () => {
    expect(configScript({ API_URL: 'https://api.example.et/api' })).toBe(
      'window.__SHOP_CONFIG__ = {"apiUrl":"https://api.example.et/api"};\n',
    );
    expect(configScript({})).toContain('http://localhost:4000/api');
  });
});
