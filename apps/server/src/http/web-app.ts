import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Hashed build output: a changed file gets a new name, so a browser may keep these for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Entry pages name the current hashed files: always ask the server again (it answers 304 if unchanged). */
const REVALIDATE = 'no-cache';

/** Cache headers by path: `assets/` holds only content-hashed files (Vite's output). */
function setCacheHeaders(
  res: { setHeader: (name: string, value: string) => unknown },
  filePath: string,
): void {
  const hashed = filePath.split(path.sep).includes('assets');
  res.setHeader('Cache-Control', hashed ? IMMUTABLE : REVALIDATE);
  // The same URL answers brotli, gzip or plain by Accept-Encoding: caches must key on it.
  res.setHeader('Vary', 'Accept-Encoding');
}

/**
 * The built SPA at `/`; unknown non-API paths fall back to index.html for client-side routing.
 * The build leaves a `.br` and a `.gz` beside every text file (apps/web/precompress.ts); each
 * request gets the smallest one its Accept-Encoding allows, without compressing at request time.
 */
export async function serveWebApp(app: FastifyInstance, webDist: string | undefined): Promise<void> {
  const root = webDist ?? path.resolve(import.meta.dirname, '../../../web/dist');
  const hasWeb = fs.existsSync(path.join(root, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: setCacheHeaders,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url.startsWith('/api/') || url.startsWith('/dicomweb/') || request.method !== 'GET' || !hasWeb) {
      return reply.code(404).send({ status: 'ERROR', error_type: 'NOT_FOUND', error_subtype: 'route' });
    }
    // The embedded viewer is its own page (a second Vite entry), never the inbox's index.html.
    if (url === '/viewer' || url.startsWith('/viewer/'))
      return reply.type('text/html').sendFile('viewer/index.html');
    return reply.type('text/html').sendFile('index.html');
  });
}
