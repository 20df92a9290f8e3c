import { config } from 'zod';

/**
 * The pages run under a Content-Security-Policy without 'unsafe-eval' (server
 * http/security-headers.ts). zod compiles object parsers with `new Function` when it may, and its
 * probe for that, though caught, is reported as a CSP violation. Imported first by main.tsx, so it
 * runs before any schema is built (zod decides when a schema is made).
 */
config({ jitless: true });
