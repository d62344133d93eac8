import { z } from 'zod';

export const healthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
export const startingSchema = z.object({ status: z.literal('starting') });

/** Settings of the server the web app reads at start. */
export const publicConfigSchema = z.object({ analyticsScriptUrl: z.string().nullable() }).meta({ id: 'PublicConfig' });
export type PublicConfig = z.infer<typeof publicConfigSchema>;
