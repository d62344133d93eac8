import { z } from 'zod';

export const healthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
export const startingSchema = z.object({ status: z.literal('starting') });
