import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const lib = (name: string) => fileURLToPath(new URL(`../../libs/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  plugins: [react()],
  resolve: {
    // exact names only: `@shop/i18n/src/<file>` (one language's dictionary, docs/quality.md) resolves as a path
    alias: [
      { find: /^@shop\/shared$/, replacement: lib('shared') },
      { find: /^@shop\/i18n$/, replacement: lib('i18n') },
      { find: /^@shop\/api-client$/, replacement: lib('api-client') },
      // every browser the back office supports has Object.entries (docs/decisions/0083-lighter-back-office.md)
      {
        find: /^object\.entries$/,
        replacement: fileURLToPath(new URL('./src/i18n/objectEntries.cjs', import.meta.url)),
      },
    ],
  },
  server: { port: 3001 },
  // es2022: class fields and the like stay as written, smaller than their es2020 rewrites (docs/decisions/0083)
  build: { chunkSizeWarningLimit: 2000, target: 'es2022' },
  // importing react-admin takes seconds on a busy machine
  test: { testTimeout: 30000 },
});
