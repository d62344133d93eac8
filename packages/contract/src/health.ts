import { z } from 'zod';

export const healthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
/** Not ready: still starting (migrations, catalogue index), the database unreachable, or shutting down. */
export const notReadySchema = z.object({ status: z.enum(['starting', 'database-unavailable', 'stopping']) }).meta({ id: 'NotReady' });

/** Settings of the server the web app reads at start. */
export const publicConfigSchema = z.object({ analyticsScriptUrl: z.string().nullable() }).meta({ id: 'PublicConfig' });
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** POST /api/client-errors: a page of the web app failed to render (its error boundary reports it). */
export const clientErrorReportSchema = z.object({
  message: z.string().max(1000),
  stack: z.string().max(8000).optional(),
  /** The page's path (no query: it may carry a code or a token). */
  path: z.string().max(500),
});
export type ClientErrorReport = z.infer<typeof clientErrorReportSchema>;
