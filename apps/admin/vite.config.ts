import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const lib = (name: string) => fileURLToPath(new URL(`../../libs/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@shop/shared': lib('shared'),
      '@shop/i18n': lib('i18n'),
      '@shop/api-client': lib('api-client'),
    },
  },
  server: { port: 3001 },
  build: { chunkSizeWarningLimit: 2000 },
  // importing react-admin takes seconds on a busy machine
  test: { testTimeout: 30000 },
});
