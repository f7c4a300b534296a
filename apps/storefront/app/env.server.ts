/** Server-side environment, parsed once; only the public part reaches the browser. */
export const env = {
  apiUrl: (process.env.API_URL || 'http://localhost:4000/api').replace(/\/+$/, ''),
  /** The back office, linked from the user menu of admins. */
  adminUrl: (process.env.ADMIN_URL || 'http://localhost:3001/admin').replace(/\/+$/, ''),
  /** Public origin of the storefront, for canonical and Open Graph URLs. */
  storefrontUrl: (process.env.STOREFRONT_URL || '').replace(/\/+$/, ''),
};
