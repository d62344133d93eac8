// GET /api/visitor (issue 31): the visitor's country and the store's region for it, for the game
// page's and the cart's region warning. From the address when GEOIP_DB names a GeoLite2-style database
// and it knows the address, else from the browser's language ("en-US" says US); null when neither tells.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { regionOfCountry, visitorPlaceSchema, type VisitorPlace } from '@keystore/contract';
import { clientIp } from '../client-ip.ts';
import type { Places } from '../geoip.ts';
import { NO_AUTH } from '../openapi.ts';

export function registerVisitorPlace(app: FastifyInstance, places: Places | undefined): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/visitor',
    {
      schema: {
        tags: ['catalogue'],
        operationId: 'getVisitorPlace',
        summary: "Where the visitor seems to be: the country (from the address with GEOIP_DB, else the browser's language) and its region",
        security: NO_AUTH,
        response: { 200: visitorPlaceSchema },
      },
    },
    async (request, reply) => {
      void reply.header('Cache-Control', 'private, no-store').header('Vary', 'Accept-Language');
      return placeOf(request, places);
    },
  );
}

export function placeOf(request: FastifyRequest, places: Places | undefined): VisitorPlace {
  const country = places?.countryOf(clientIp(request)) ?? languageCountry(request.headers['accept-language']);
  return { country: country ?? null, region: country ? (regionOfCountry(country) ?? null) : null };
}

/** The country of the first language tag that names one ("de-AT,de;q=0.9" → AT). */
function languageCountry(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(',')) {
    const match = /^\s*[a-z]{2,3}(?:-[A-Za-z]{4})?-([A-Za-z]{2})\b/i.exec(part);
    if (match) return match[1]!.toUpperCase();
  }
  return undefined;
}
