declare global {
  interface Window {
    __SHOP_CONFIG__?: { apiUrl?: string };
  }
}

/** The API base, from /config.js written by the server at run time. */
export const apiUrl = (window.__SHOP_CONFIG__?.apiUrl ?? 'http://localhost:4000/api').replace(/\/+$/, '');
