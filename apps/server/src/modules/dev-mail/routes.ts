import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EMAIL_MAX_LENGTH, errorSchema, safeText } from '@keystore/contract';
import { escapeHtml } from '../../platform/mail/layout.ts';
import type { Mailer, OutboxEntry } from '../../platform/mailer.ts';
import { NO_AUTH } from '../../platform/openapi.ts';

/** Mails to one address; the whole outbox without `to`. */
const outboxQuerySchema = z.object({ to: safeText().max(EMAIL_MAX_LENGTH).optional() });
const outboxEntrySchema = z.object({ id: z.number(), to: z.string(), subject: z.string(), text: z.string(), html: z.string(), headers: z.record(z.string(), z.string()).optional(), createdAt: z.string() });

/**
 * The dev outbox: every mail the store would have sent, for people (/dev/mail) and for the browser
 * journeys (/dev/mail/messages?to=). Registered only outside production and without SMTP_URL.
 */
export const devMailRoutes: FastifyPluginAsyncZod<{ mailer: Mailer }> = async (app, { mailer }) => {
  app.get(
    '/dev/mail/messages',
    {
      schema: {
        tags: ['development'],
        operationId: 'listDevMail',
        summary: 'Mails in the dev outbox, newest first (development only)',
        security: NO_AUTH,
        querystring: outboxQuerySchema,
        response: { 200: z.array(outboxEntrySchema), 400: errorSchema },
      },
    },
    async (request) => mailer.outbox({ to: request.query.to }),
  );

  app.get(
    '/dev/mail',
    {
      schema: {
        tags: ['development'],
        operationId: 'showDevOutbox',
        summary: 'The dev outbox as a page (development only)',
        security: NO_AUTH,
        querystring: outboxQuerySchema,
        response: { 200: { description: 'The outbox as an HTML page', content: { 'text/html': { schema: z.string() } } }, 400: errorSchema },
      },
    },
    async (request, reply) => reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(outboxPage(await mailer.outbox({ to: request.query.to }))),
  );
};

function outboxPage(mails: OutboxEntry[]): string {
  const items = mails.map(
    (mail) => `<article>
<h2>${escapeHtml(mail.subject)}</h2>
<p class="meta">To <strong>${escapeHtml(mail.to)}</strong> · ${escapeHtml(mail.createdAt)}</p>
${Object.entries(mail.headers ?? {}).map(([name, value]) => `<p class="meta">${escapeHtml(name)}: ${escapeHtml(value)}</p>`).join('\n')}
<pre>${linkify(escapeHtml(mail.text))}</pre>
</article>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Dev outbox · Keystore</title>
<style>
body{font-family:system-ui,sans-serif;max-width:760px;margin:24px auto;padding:0 16px;color:#1f1f29;background:#f4f4f7}
article{background:#fff;border-radius:8px;padding:16px 20px;margin:0 0 16px;box-shadow:0 1px 2px #0001}
h1{font-size:22px}h2{font-size:17px;margin:0 0 4px}.meta{color:#666;margin:0 0 12px;font-size:14px}
pre{white-space:pre-wrap;word-break:break-word;font:14px/1.5 ui-monospace,monospace;margin:0}
</style></head>
<body><h1>Dev outbox</h1>
<p>Mail the store would have sent (no SMTP_URL is set).</p>
<form method="get"><input name="to" placeholder="filter by address" aria-label="Filter by address"> <button>Filter</button></form>
${items.join('\n') || '<p>No mail yet.</p>'}
</body></html>`;
}

/** Makes the (already escaped) links of a text body clickable. */
function linkify(escaped: string): string {
  return escaped.replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}
