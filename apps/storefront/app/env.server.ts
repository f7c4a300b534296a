/** Server-side environment, parsed once; only the public part reaches the browser. */
export const env = {
  apiUrl: (process.env.API_URL || 'http://localhost:4000/api').replace(/\/+$/, ''),
  /** Origin the browser loads API assets (product images) from. */
  publicApiOrigin: (process.env.PUBLIC_API_URL || process.env.API_URL || 'http://localhost:4000/api')
    .replace(/\/+$/, '')
    .replace(/\/api$/, ''),
};
