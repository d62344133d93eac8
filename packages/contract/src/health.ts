import { z } from 'zod';

export const healthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
/** Not ready: still starting (migrations, catalogue index), the database unreachable, or shutting down. */
export const notReadySchema = z.object({ status: z.enum(['starting', 'database-unavailable', 'stopping']) }).meta({ id: 'NotReady' });

/** Settings of the server the web app reads at start. */
export const publicConfigSchema = z.object({ analyticsScriptUrl: z.string().nullable() }).meta({ id: 'PublicConfig' });
export type PublicConfig = z.infer<typeof publicConfigSchema>;
