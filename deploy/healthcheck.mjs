// The image's HEALTHCHECK: healthy while this process's /readyz answers 200, that is while its
// database and blob store answer and it is not draining after a SIGTERM.
const bound = process.env.HOST ?? '0.0.0.0';
const host = bound === '0.0.0.0' || bound === '::' ? '127.0.0.1' : bound;
const url = `http://${host.includes(':') ? `[${host}]` : host}:${process.env.PORT ?? '8080'}/readyz`;

try {
  const answer = await fetch(url, { signal: AbortSignal.timeout(4000) });
  process.exit(answer.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
