import type { FastifyInstance } from 'fastify';

/**
 * One policy for every page the server sends (the inbox, the viewer, the public link and send
 * pages) and, so that a JSON or DICOM answer opened on its own cannot become a page that runs
 * anything, for every other answer too.
 *
 * - Scripts only from our own origin: the built pages load their bundles by `src`, never inline.
 * - Styles may be inline: MUI (emotion) inserts `<style>` elements at run time and React sets
 *   `style` attributes; a style cannot run script.
 * - Images from blob: (the viewer's thumbnails are object URLs) and data: (MUI icons, dwv).
 * - Frames: only our own viewer, and our pages only inside our own pages (clickjacking).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Powerful browser features none of our pages use. */
export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'bluetooth=()',
  'hid=()',
  'midi=()',
  'display-capture=()',
].join(', ');

/** Two years: browsers remember to use HTTPS only once the site was reached over HTTPS. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=63072000';

const HEADERS: [string, string][] = [
  ['content-security-policy', CONTENT_SECURITY_POLICY],
  ['x-frame-options', 'SAMEORIGIN'],
  ['referrer-policy', 'no-referrer'],
  ['x-content-type-options', 'nosniff'],
  ['permissions-policy', PERMISSIONS_POLICY],
];

/**
 * Adds the headers to every answer, errors and 404s included. A route that set a stricter header
 * of its own (attachments shown inline) keeps it. HSTS only over HTTPS: TLS, or a trusted proxy's
 * `X-Forwarded-Proto: https` (`TRUST_PROXY`); sent over plain HTTP it would be ignored at best.
 */
export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    for (const [name, value] of HEADERS) if (!reply.hasHeader(name)) reply.header(name, value);
    if (request.protocol === 'https') reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    return payload;
  });
}
