import { defineConfig } from 'vitest/config';
import { defaultClientConditions } from 'vite';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import pkg from './package.json' with { type: 'json' };
import { keepPreviousAssets } from './scripts/keep-previous-assets';
import { precompress } from './scripts/precompress';

// `source` resolves workspace packages (the contract) to their TypeScript source, so the web build
// never depends on the contract having been compiled first.
export default defineConfig({
  // keepPreviousAssets: the previous build's hashed files stay one more build, for pages still open
  // on it. precompress: .br and .gz beside every text file, served by Accept-Encoding.
  plugins: [react(), keepPreviousAssets(), precompress()],
  // Sent with every api call so the server can tell which web release is talking to it.
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  resolve: { conditions: ['source', ...defaultClientConditions] },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/dicomweb': 'http://127.0.0.1:8080' } },
  preview: { proxy: { '/api': 'http://127.0.0.1:8080', '/dicomweb': 'http://127.0.0.1:8080' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every supported browser preloads modules natively; the polyfill would be a chunk the inbox
    // and the viewer share, one more request before the inbox's first paint.
    modulePreload: { polyfill: false },
    // The viewer entry carries dwv (about 600 kB, 170 kB gzipped); it loads only inside the iframe.
    chunkSizeWarningLimit: 700,
    // Two entries with separate chunk graphs: the inbox never loads the viewer's code (dwv).
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        viewer: fileURLToPath(new URL('viewer/index.html', import.meta.url)),
      },
      // zod-jitless in a chunk of its own, imported first by main: a module's own code runs after
      // every chunk it imports, and the contract's chunks build schemas as they load, so inlined in
      // main the setting came too late and zod probed `new Function` (a CSP violation).
      output: {
        codeSplitting: { groups: [{ name: 'zod-jitless', test: /src[\\/]lib[\\/]zod-jitless\.ts$/ }] },
      },
    },
  },
  test: {
    // jsdom renders compute more than they wait: one worker per core (the default leaves one idle).
    maxWorkers: 2,
    // Pure logic runs in Node; components get jsdom.
    projects: [
      {
        extends: true,
        test: { name: 'unit', environment: 'node', include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['src/test/setup.ts'],
          css: false,
          testTimeout: 20_000,
        },
      },
    ],
  },
});
