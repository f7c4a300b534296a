declare global {
  interface Window {
    __SHOP_CONFIG__?: { apiUrl?: string; storefrontUrl?: string };
  }
}

/** The API base, from /config.js written by the server at run time. */
export const apiUrl = (window.__SHOP_CONFIG__?.apiUrl ?? 'http://localhost:4000/api').replace(/\/+$/, '');

/** The storefront, for links such as 'Create Order' (its /checkout). */
export const storefrontUrl = (window.__SHOP_CONFIG__?.storefrontUrl ?? 'http://localhost:3000').replace(
  /\/+$/,
  '',
);

/** Image URLs as the API answers them (absolute); a relative path typed into a form resolves against the API. */
export function imageSrc(url: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? `${new URL(apiUrl).origin}${url}` : url;
}
