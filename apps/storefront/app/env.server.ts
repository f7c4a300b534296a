/** Server-side environment, parsed once; only the public part reaches the browser. */
export const env = {
  apiUrl: (process.env.API_URL || 'http://localhost:4000/api').replace(/\/+$/, ''),
  /** Origin the browser loads API assets (product images) from. */
  publicApiOrigin: (process.env.PUBLIC_API_URL || process.env.API_URL || 'http://localhost:4000/api')
    .replace(/\/+$/, '')
    .replace(/\/api$/, ''),
  /** The back office, linked from the user menu of admins. */
  adminUrl: (process.env.ADMIN_URL || 'http://localhost:3001/admin').replace(/\/+$/, ''),
  /** Public origin of the storefront, for canonical and Open Graph URLs. */
  storefrontUrl: (process.env.STOREFRONT_URL || '').replace(/\/+$/, ''),
};
