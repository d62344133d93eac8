import type { FastifyReply } from 'fastify';

/**
 * Sends JSON the service already serialised (a hot read path built from cached fragments).
 * Fastify sends a string with a JSON content type as it is, skipping the schema serializer; the
 * route's response schema still documents the answer, and the fragments were made from typed values.
 */
export function sendPreparedJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json as never);
}
