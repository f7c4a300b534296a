import { vitePlugin as remix } from '@remix-run/dev';
import { flatRoutes } from '@remix-run/dev/dist/config/flat-routes.js';
import { fileURLToPath } from 'node:url';
import { defineConfig, type DepOptimizationOptions, type Plugin } from 'vite';

/** esbuild's plugin type as Vite's own esbuild has it */
type EsbuildPlugin = NonNullable<NonNullable<DepOptimizationOptions['esbuildOptions']>['plugins']>[number];

const lib = (name: string) => fileURLToPath(new URL(`../../libs/${name}/src/index.ts`, import.meta.url));

/**
 * The browser runs the storefront on preact/compat (about 70 KiB less gzipped JavaScript on every page
 * than react-dom); the server keeps real React for `renderToPipeableStream`. See
 * docs/decisions/0039-preact-in-the-browser.md. `STOREFRONT_REACT=1` builds the browser bundle on React
 * again.
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
    // `vite dev`: Remix's hot updates go through React Refresh, which cannot re-render Preact's tree (the
    // edit would show only after a reload); reload the page when a client script changes (CSS still hot).
    hotUpdate({ file, modules }) {
      if (this.environment.name !== 'client' || !modules.length || !/\.[cm]?[jt]sx?$/.test(file)) return;
      this.environment.hot.send({ type: 'full-reload' });
      return [];
    },
  };
}

/**
 * The same for the dependencies `vite dev` pre-bundles for the browser (@remix-run/react, react-router),
 * which esbuild resolves without Vite's plugins. Top-level `optimizeDeps` is the client's only.
 */
const preactInPrebundledDeps: EsbuildPlugin = {
  name: 'shop:preact-in-prebundled-deps',
  setup(build) {
    build.onResolve({ filter: /^react(-dom)?(\/.*)?$/ }, (args) => {
      const target = PREACT_FOR_REACT[args.path];
      return target ? build.resolve(target, { kind: args.kind, resolveDir: args.resolveDir }) : undefined;
    });
  },
};

const useReact = process.env.STOREFRONT_REACT === '1';

type RouteManifest = ReturnType<typeof flatRoutes>;

/**
 * The Amharic addresses (docs/decisions/0092-language-in-the-address.md): every route of app/routes mounted
 * a second time under `am/`, the same module under its own id (`am/<id>`), so that `/am/products` is the
 * catalogue in Amharic and `/products` in English. A file already named for an Amharic address
 * (`am.offline.tsx`) and the language-less files (`sitemap[.]xml.tsx`) are not doubled.
 */
export function amharicTwins(fileRoutes: RouteManifest): RouteManifest {
  const paths = new Set(Object.values(fileRoutes).map((r) => `${r.parentId ?? 'root'} ${r.path ?? ''}`));
  const twins: RouteManifest = {};
  for (const route of Object.values(fileRoutes)) {
    // a file already named for an Amharic address, and the files of no language (sitemap.xml, robots.txt)
    if (route.id.startsWith('routes/am.') || route.id.includes('[.]')) continue;
    const topLevel = !route.parentId || route.parentId === 'root';
    const path = topLevel ? (route.path ? `am/${route.path}` : 'am') : route.path;
    if (topLevel && paths.has(`root ${path}`)) continue;
    twins[`am/${route.id}`] = {
      ...route,
      id: `am/${route.id}`,
      path,
      parentId: topLevel ? 'root' : `am/${route.parentId}`,
    };
  }
  return twins;
}

export default defineConfig({
  plugins: [
    !process.env.VITEST && !useReact && preactOnTheClient(),
    !process.env.VITEST &&
      remix({
        future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true },
        routes: async () => amharicTwins(flatRoutes(fileURLToPath(new URL('./app', import.meta.url)))),
      }),
  ],
  optimizeDeps: useReact
    ? {}
    : {
        // known up front, so that the first page of `vite dev` does not load a second copy of Preact
        include: [
          'preact',
          'preact/hooks',
          'preact/compat',
          'preact/compat/client',
          'preact/jsx-dev-runtime',
        ],
        esbuildOptions: { plugins: [preactInPrebundledDeps] },
      },
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
