// The last fence of the query limits: no JSON response larger than GRAPHQL_MAX_RESPONSE_BYTES leaves the server.
// Cost and object budget bound how many objects a response holds, not how long their strings are; this bounds the
// bytes a client can make us send (and a proxy or client buffer) for one request.
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../http/error-body.ts';

const JSON_TYPE = /^application\/(graphql-response\+)?json/;

export function registerResponseSizeLimit(app: FastifyInstance, maxBytes: number) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    // A string is at most 3 bytes per UTF-16 unit: only near the limit is it worth counting the bytes.
    if (payload.length * (typeof payload === 'string' ? 3 : 1) <= maxBytes) return payload;
    const bytes = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (bytes <= maxBytes || !JSON_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const message =
      `the response is ${bytes.toLocaleString('en-US')} bytes, over the limit of ` +
      `${maxBytes.toLocaleString('en-US')} (GRAPHQL_MAX_RESPONSE_BYTES): ask for less`;
    request.log.warn({ route: request.routeOptions.url, bytes, maxBytes }, 'response too large');
    request.outcome.errorCodes = ['RESPONSE_TOO_LARGE'];
    reply.code(400);
    if (request.routeOptions.url === '/graphql') {
      return JSON.stringify({
        errors: [{ message, extensions: { code: 'RESPONSE_TOO_LARGE', limit: 'bytes', maxBytes } }],
      });
    }
    return JSON.stringify(errorBody(400, 'RESPONSE_TOO_LARGE', message));
  });
}
