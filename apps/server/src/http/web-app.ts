import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Hashed build output: a changed file gets a new name, so a browser may keep these for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Entry pages name the current hashed files: always ask the server again (it answers 304 if unchanged). */
const REVALIDATE = 'no-cache';

/** Cache headers by path under `root`: `assets/` holds only content-hashed files (Vite's output). */
function cacheHeaders(root: string) {
  return (res: { setHeader: (name: string, value: string) => unknown }, filePath: string): void => {
    const hashed = path.relative(root, filePath).split(path.sep)[0] === 'assets';
    res.setHeader('Cache-Control', hashed ? IMMUTABLE : REVALIDATE);
    // The same URL answers brotli, gzip or plain by Accept-Encoding: caches must key on it.
    res.setHeader('Vary', 'Accept-Encoding');
  };
}

/**
 * The built SPA at `/`; unknown non-API paths fall back to index.html for client-side routing.
 * The build leaves a `.br` and a `.gz` beside every text file (apps/web/precompress.ts); each
 * request gets the smallest one its Accept-Encoding allows, without compressing at request time.
 * Files are looked up per request (not listed once at start), so a rebuild in place is served at
 * once: its new index.html and chunks, and the previous build's chunks the build keeps for pages
 * still open on it (apps/web/scripts/keep-previous-assets.ts).
 */
export async function serveWebApp(app: FastifyInstance, webDist: string | undefined): Promise<void> {
  const root = webDist ?? path.resolve(import.meta.dirname, '../../../web/dist');
  const hasWeb = fs.existsSync(path.join(root, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root,
      preCompressed: true,
      cacheControl: false,
      setHeaders: cacheHeaders(root),
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    // A hashed file that is gone answers 404, never index.html: the page's import fails plainly and
    // the client reloads onto the current build (apps/web/src/lib/stale-chunk-reload.ts).
    const notPage = url.startsWith('/api/') || url.startsWith('/dicomweb/') || url.startsWith('/assets/');
    if (notPage || request.method !== 'GET' || !hasWeb) {
      return reply.code(404).send({ status: 'ERROR', error_type: 'NOT_FOUND', error_subtype: 'route' });
    }
    // The embedded viewer is its own page (a second Vite entry), never the inbox's index.html.
    if (url === '/viewer' || url.startsWith('/viewer/'))
      return reply.type('text/html').sendFile('viewer/index.html');
    return reply.type('text/html').sendFile('index.html');
  });
}
