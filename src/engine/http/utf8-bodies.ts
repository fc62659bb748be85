// A string body is encoded into a Buffer before it is written, which Node does faster than writing the string.
// Why: docs/decisions/0014-large-bodies-as-bytes.md.
import type { FastifyInstance } from 'fastify';

/** Below this many UTF-16 units the string path costs about the same, and a Buffer is one more allocation. */
export const UTF8_BODY_MIN_LENGTH = 16 * 1024;

/** The string's UTF-8 bytes, written by the fast encoder. */
export function utf8Bytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafe(Buffer.byteLength(text, 'utf8'));
  const written = bytes.write(text, 0, 'utf8');
  // Never send the unwritten rest of an unzeroed allocation, should the two counts ever differ.
  return written === bytes.length ? bytes : bytes.subarray(0, written);
}

/** Every large string body (a serialized JSON response, REST or GraphQL) leaves as its UTF-8 bytes. */
export function registerUtf8Bodies(app: FastifyInstance) {
  app.addHook('onSend', (_request, _reply, payload, done) => {
    done(null, typeof payload === 'string' && payload.length >= UTF8_BODY_MIN_LENGTH ? utf8Bytes(payload) : payload);
  });
}
