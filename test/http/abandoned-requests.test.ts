// A client that sends its request and hangs up before the response: the server still runs the request (it cannot
// know the response is unwanted until it writes), and must not take it for an internal error. Once the socket is
// closed its remote address is gone; reading it as a string was a 500 logged as "unexpected error".
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_ENGINE, startTestServer, type TestServer } from '../helpers/app.ts';

let s: TestServer;
const lines: string[] = [];
beforeAll(async () => {
  // Full engine: each request is held at its table-version read, which ENGINE=plain does not make.
  s = await startTestServer({
    env: { ...FULL_ENGINE, LOG_LEVEL: 'info' },
    logStream: { write: (line) => void lines.push(line) },
  });
});
afterAll(() => s.close());

/** Sends a whole POST and closes the socket in the same tick, before the server has read a byte of it. */
function sendAndHangUp(path: string, body: string): Promise<void> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nx-app-path: demo\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      socket.destroy();
    });
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}

describe('requests whose client hung up', () => {
  it('are served without an internal error, and the next request is served too', async () => {
    // Each request reads the table versions as it arrives (src/http/request-scope.ts): held there until its client
    // has gone, as a busy server holds it.
    const db = s.t.db;
    const read = db.tableVersions;
    let held = 0;
    db.tableVersions = async (duringTransaction) => {
      held++;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return read(duringTransaction);
    };
    try {
      const query = JSON.stringify({ query: '{ __typename }' });
      const login = JSON.stringify({
        query: 'mutation { login(email: "nobody@demo.test", password: "wrong-password") { token } }',
      });
      await Promise.all([sendAndHangUp('/graphql', query), sendAndHangUp('/graphql', login)]);
      await sendAndHangUp('/auth/login', JSON.stringify({ email: 'nobody@demo.test', password: 'wrong-password' }));
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(held).toBeGreaterThanOrEqual(3);
    } finally {
      db.tableVersions = read;
    }
    const errors = lines.filter((line) => JSON.parse(line).level >= 50);
    expect(errors).toEqual([]);
    const next = await s.gql('{ __typename }');
    expect(next.data).toEqual({ __typename: 'Query' });
  });
});
