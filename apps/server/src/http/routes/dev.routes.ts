import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';

/**
 * Without an SMTP server, mail stays in the outbox table; this page shows it to a first-time user
 * of the demo (`npm start` sets DEV_OUTBOX=1), so they can follow a password-reset link. Off unless
 * asked for: "from 127.0.0.1" alone is every client of a reverse proxy on the same host (unless
 * TRUST_PROXY names it), and the page holds every reset and request link.
 */
export function devRoutes(ctx: AppContext, app: FastifyInstance): void {
  if (ctx.config.smtpUrl || !ctx.config.devOutbox) return;
  app.get('/dev/outbox', async (request, reply) => {
    if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(request.ip)) return reply.code(404).send();
    const mails = await ctx.repos.outbox.latest(50);
    const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    const items = mails
      .map(
        (m) =>
          `<article><h3>${escape(m.subject)}</h3><p>To: ${escape(m.to_address)} · ${new Date(m.created).toISOString()} · ${m.state}</p><pre>${escape(m.body)}</pre></article>`,
      )
      .join('<hr>');
    return reply
      .type('text/html')
      .send(`<!doctype html><title>Outbox</title><h1>Outbox</h1>${items || '<p>No mail yet.</p>'}`);
  });
}
