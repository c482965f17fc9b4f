/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';

import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import type { ManualChunkMeta } from 'rollup';
import { VitePWA } from 'vite-plugin-pwa';

// The Rust server serves the built files from ui/dist; during UI work, `npm run dev` serves the
// UI with hot reload and forwards /api to a running `highchair serve` (default 127.0.0.1:8080).
const apiTarget = process.env.HIGHCHAIR_API ?? 'http://127.0.0.1:8080';

/**
 * API reads a parent needs in a shop with no signal: the session, the site's settings and the
 * grocery screen's lists and recipes. Always from the network; the last copy only when the
 * network fails (a slow answer is waited for: the screen keeps what it shows meanwhile, and an
 * old copy would undo ticks just made). Deleted whenever the signed-in user changes
 * (AuthProvider).
 */
const OFFLINE_API = /\/api\/(auth\/session|site|grocery-lists|recipes)$/;

/**
 * The app's own screens (routes.json, the list the server also reads): only these are answered
 * from the cached shell. Any other path goes to the server, which logs it (spec: the attempted
 * path is logged) and answers the not-found page; once the worker was active, unknown paths
 * never reached it.
 */
const SCREENS = Object.values(
  JSON.parse(readFileSync(new URL('./src/routes.json', import.meta.url), 'utf8')) as Record<
    string,
    string
  >,
).map((route) => new RegExp(`^${route.replace(/:[^/]+/g, '[^/]+')}/?$`));

/**
 * Code that two or more pages share (components, hooks, icons) but the first screen does not
 * need goes into one chunk: a page then downloads in two requests instead of up to a dozen
 * small ones, each a round trip on a phone's connection (Lighthouse's largest paint), and the
 * browser starts one preload instead of a dozen (its blocking time). The first screen's code
 * stays in the main file, and code only one page uses stays with that page.
 */
function sharedByPages(id: string, meta: ManualChunkMeta): string | undefined {
  const graph = chunkGraph(meta);
  // Named, so the shared chunk does not pull the first screen's code (React) into itself.
  if (graph.main.has(id)) return 'index';
  return (graph.pages.get(id) ?? 0) >= 2 ? 'shared' : undefined;
}

type ChunkGraph = { main: Set<string>; pages: Map<string, number> };
const graphs = new WeakMap<ManualChunkMeta['getModuleInfo'], ChunkGraph>();

/** What the entry imports statically, and how many lazily loaded pages reach each other module. */
function chunkGraph(meta: ManualChunkMeta): ChunkGraph {
  const known = graphs.get(meta.getModuleInfo);
  if (known) return known;
  const ids = [...meta.getModuleIds()];
  const reach = (from: string[], skip: Set<string>) => {
    const seen = new Set<string>();
    for (let todo = [...from], m = todo.pop(); m !== undefined; m = todo.pop()) {
      if (seen.has(m) || skip.has(m)) continue;
      seen.add(m);
      todo.push(...(meta.getModuleInfo(m)?.importedIds ?? []));
    }
    return seen;
  };
  const main = reach(
    ids.filter((m) => meta.getModuleInfo(m)?.isEntry),
    new Set(),
  );
  const pages = new Map<string, number>();
  for (const page of ids.filter((m) => meta.getModuleInfo(m)?.dynamicImporters.length)) {
    for (const m of reach([page], main)) pages.set(m, (pages.get(m) ?? 0) + 1);
  }
  const graph = { main, pages };
  graphs.set(meta.getModuleInfo, graph);
  return graph;
}

/** The web app manifest: in English as the base, and per language (`manifest.<lang>.webmanifest`,
 * which the page links to when it shows that language), worded from the UI's catalogues. */
const LOCALES = { en: 'en-GB', fr: 'fr-FR', de: 'de-DE', es: 'es-ES' } as const;

function appTexts(language: keyof typeof LOCALES): { description: string } {
  const catalogue = JSON.parse(
    readFileSync(new URL(`./src/locales/${language}.json`, import.meta.url), 'utf8'),
  ) as { app: { description: string } };
  return catalogue.app;
}

const MANIFEST = {
  name: 'Highchair',
  short_name: 'Highchair',
  description: appTexts('en').description,
  lang: LOCALES.en,
  start_url: '/',
  scope: '/',
  display: 'standalone' as const,
  background_color: '#ffffff',
  theme_color: '#bb3f00',
  icons: [
    { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
    { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
    {
      src: '/icon-maskable-512.png',
      sizes: '512x512',
      type: 'image/png',
      purpose: 'maskable',
    },
  ],
};

/** Writes the manifests of the other languages beside the base one. */
function translatedManifests(): Plugin {
  return {
    name: 'highchair-translated-manifests',
    apply: 'build',
    generateBundle() {
      for (const language of ['fr', 'de', 'es'] as const) {
        this.emitFile({
          type: 'asset',
          fileName: `manifest.${language}.webmanifest`,
          source: JSON.stringify({
            ...MANIFEST,
            description: appTexts(language).description,
            lang: LOCALES[language],
          }),
        });
      }
    },
  };
}

export default defineConfig({
  plugins: [
    translatedManifests(),
    tailwindcss(),
    // The service worker: the app shell precached (the UI works offline and installs as an
    // app), navigations answered with index.html, and OFFLINE_API reads network-first.
    VitePWA({
      injectRegister: null,
      registerType: 'autoUpdate',
      includeAssets: ['favicon.svg', 'apple-touch-icon.png', 'meal-placeholder.svg'],
      manifest: MANIFEST,
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        navigateFallback: '/index.html',
        navigateFallbackAllowlist: SCREENS,
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
        runtimeCaching: [
          {
            // Matched against the whole same-origin URL (GET only); a query string never matches.
            urlPattern: OFFLINE_API,
            handler: 'NetworkFirst',
            options: {
              cacheName: 'highchair-api',
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
      },
    }),
  ],
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Inline nothing: the Content-Security-Policy allows only same-origin files.
    assetsInlineLimit: 0,
    sourcemap: false,
    rollupOptions: {
      output: {
        // Tiny shared chunks (an icon, a hook) joined to others: a page waits for half as many
        // downloads, each a round trip on a phone's connection (Lighthouse), for ~5 kB more in
        // the main file.
        experimentalMinChunkSize: 2_000,
        manualChunks: sharedByPages,
      },
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
