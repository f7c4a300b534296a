import { vitePlugin as remix } from '@remix-run/dev';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const lib = (name: string) => fileURLToPath(new URL(`../../libs/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  plugins: [
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
  ssr: { noExternal: [/^@shop\//] },
  server: { port: 3000 },
});
