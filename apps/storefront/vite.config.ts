import { vitePlugin as remix } from '@remix-run/dev';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const lib = (name: string) => fileURLToPath(new URL(`../../libs/${name}/src/index.ts`, import.meta.url));

/**
 * The browser runs the storefront on preact/compat (about 70 KiB less gzipped JavaScript on every page
 * than react-dom); the server keeps real React for `renderToPipeableStream`. See docs/decisions.md
 * ('Storefront client on preact/compat'). `STOREFRONT_REACT=1` builds the browser bundle on React again.
 */
const PREACT_FOR_REACT: Record<string, string> = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-dev-runtime',
};

function preactOnTheClient(): Plugin {
  return {
    name: 'shop:preact-on-the-client',
    enforce: 'pre',
    async resolveId(id, importer, options) {
      const target = PREACT_FOR_REACT[id];
      if (!target || options?.ssr) return null;
      return this.resolve(target, importer, { ...options, skipSelf: true });
    },
  };
}

const useReact = process.env.STOREFRONT_REACT === '1';

export default defineConfig({
  plugins: [
    !process.env.VITEST && !useReact && preactOnTheClient(),
    !process.env.VITEST &&
      remix({
        future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true },
      }),
  ],
  resolve: {
    alias: {
      '@shop/shared': lib('shared'),
      '@shop/i18n': lib('i18n'),
      '@shop/api-client': lib('api-client'),
    },
  },
  // entry.client.tsx hydrates with React's hydrateRoot or with Preact's hydrate
  define: { 'import.meta.env.SHOP_CLIENT_REACT': JSON.stringify(useReact) },
  ssr: { noExternal: [/^@shop\//] },
  server: { port: 3000 },
});
