/**
 * The pages run under a Content-Security-Policy without 'unsafe-eval' (server
 * http/security-headers.ts). zod compiles object parsers with `new Function` when it may, and its
 * probe for that, though caught, is reported as a CSP violation. Imported first by main.tsx, so it
 * runs before zod loads and before any schema is built (zod decides when a schema is made).
 *
 * zod keeps its settings in `globalThis.__zod_globalConfig` and adopts an object found there
 * (zod/v4/core/core.js), so setting it here, rather than calling zod's `config()`, keeps zod itself
 * off the sign-in page, which parses nothing (decision 0069). zod-jitless.test.ts checks that zod
 * still reads it.
 */
const host = globalThis as { __zod_globalConfig?: Record<string, unknown> };
host.__zod_globalConfig = Object.assign(host.__zod_globalConfig ?? {}, { jitless: true });
