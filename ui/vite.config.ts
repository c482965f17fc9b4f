/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

// The Rust server serves the built files from ui/dist; during UI work, `npm run dev` serves the
// UI with hot reload and forwards /api to a running `highchair serve` (default 127.0.0.1:8080).
const apiTarget = process.env.HIGHCHAIR_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [tailwindcss()],
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Inline nothing: the Content-Security-Policy allows only same-origin files.
    assetsInlineLimit: 0,
    sourcemap: false,
    rollupOptions: {
      onwarn(warning, warn) {
        // React libraries mark modules "use client"; meaningless in a plain SPA bundle.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test-setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
