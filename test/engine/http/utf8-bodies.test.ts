// Large string bodies leave as UTF-8 bytes encoded by Buffer#write: the client must read exactly the text the
// route sent, with a Content-Length that counts bytes, whatever characters it holds.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUtf8Bodies, UTF8_BODY_MIN_LENGTH, utf8Bytes } from '../../../src/engine/http/utf8-bodies.ts';

// One-byte (ASCII, Latin-1) and two-byte strings (a BMP symbol, a surrogate pair) take different encoder paths.
const SAMPLES = {
  ascii: JSON.stringify({ names: Array.from({ length: 3000 }, (_, i) => `Team ${i}`) }),
  latin1: JSON.stringify({ names: Array.from({ length: 3000 }, (_, i) => `Équipe ñ ${i}`) }),
  twoByte: JSON.stringify({ names: Array.from({ length: 3000 }, (_, i) => `✓ Gol ⚽ 👍🏽 ${i}`) }),
  small: JSON.stringify({ name: 'Año ⚽' }),
};

describe('utf8Bytes', () => {
  it("encodes every kind of string as Buffer.from's UTF-8", () => {
    for (const text of Object.values(SAMPLES)) expect(utf8Bytes(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(utf8Bytes('').length).toBe(0);
    // A lone surrogate becomes U+FFFD in both.
    expect(utf8Bytes('a\ud800b').equals(Buffer.from('a\ud800b'))).toBe(true);
  });
});

describe('large string bodies over HTTP', () => {
  let app: FastifyInstance;
  let url: string;
  const seen: Record<string, string> = {};

  beforeAll(async () => {
    app = Fastify();
    registerUtf8Bodies(app);
    // A later onSend hook sees what goes to the socket.
    app.addHook('onSend', async (request, _reply, payload) => {
      seen[request.url] = Buffer.isBuffer(payload) ? 'buffer' : typeof payload;
      return payload;
    });
    app.get<{ Params: { name: keyof typeof SAMPLES } }>('/:name', async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(SAMPLES[request.params.name]),
    );
    app.get('/object', async () => ({ names: SAMPLES.twoByte }));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('arrive byte for byte, with the byte count as Content-Length', async () => {
    for (const name of ['ascii', 'latin1', 'twoByte', 'small'] as const) {
      const response = await fetch(`${url}/${name}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.equals(Buffer.from(SAMPLES[name], 'utf8')), name).toBe(true);
      expect(Number(response.headers.get('content-length')), name).toBe(bytes.length);
      expect(response.headers.get('content-type'), name).toBe('application/json; charset=utf-8');
    }
    expect(SAMPLES.twoByte.length).toBeGreaterThan(UTF8_BODY_MIN_LENGTH);
    expect(seen).toMatchObject({ '/ascii': 'buffer', '/latin1': 'buffer', '/twoByte': 'buffer', '/small': 'string' });
  });

  it('a serialized object answer too', async () => {
    const response = await fetch(`${url}/object`);
    expect(await response.json()).toEqual({ names: SAMPLES.twoByte });
    expect(seen['/object']).toBe('buffer');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
