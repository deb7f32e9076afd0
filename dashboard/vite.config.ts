import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The service that the dev server stands in front of, as `npm start` serves it.
const API_ORIGIN = 'http://127.0.0.1:3000';

export default defineConfig({
  // The service serves the built files at /app/, every asset under /app/assets/.
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    // Inlined assets would be data: URLs, which a strict Content-Security-Policy refuses.
    assetsInlineLimit: 0,
    // Every browser the dashboard supports knows modulepreload: the polyfill would only add bytes.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '/api': { target: API_ORIGIN },
      '/health': { target: API_ORIGIN },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./test/setup.ts'],
    include: ['test/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    unstubGlobals: true,
    // The machines that run these are small and shared: a form typed key by key takes seconds there.
    testTimeout: 20_000,
  },
});
