// No log line carries an e-mail address (README "Logs"), on the ways one could reach a line: an SMTP server's
// refusal quoting its recipient ("550 <ann@...>: Recipient address rejected"), and the line development's mail folder
// writes for each message. The lines name the outbox row (emailId) instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b/i;

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}
function capture() {
  const lines: Line[] = [];
  return { lines, stream: { write: (l: string) => void lines.push(JSON.parse(l) as Line) } };
}
async function until(what: () => boolean, ms = 60_000) {
  for (const deadline = Date.now() + ms; !what();) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const RESET = 'mutation($e: String!) { requestPasswordReset(email: $e) }';
const INVITE = 'mutation($e: String!) { createInvitation(input: { email: $e }) { token } }';

describe('no e-mail address in a log line', () => {
  it("an SMTP server's refusal quoting the recipient is logged with the row's id, the address left out", async () => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        const err = Object.assign(new Error(`<${address.address}>: Recipient address rejected: User unknown`), {
          responseCode: 550,
        });
        callback(err);
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => refusing.close(() => resolve())));
    const { port } = refusing.server.address() as { port: number };
    const { lines, stream } = capture();
    const s: TestServer = await startTestServer({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, LOG_LEVEL: 'debug' },
      logStream: stream,
    });
    cleanups.push(() => s.close());
    const r = await s.gql(RESET, { e: 'player1@demo.test' }, { 'x-app-path': 'demo' });
    expect(r.data).toEqual({ requestPasswordReset: true });
    await until(() => lines.some((l) => l.msg === 'e-mail not sent'));
    const refused = lines.find((l) => l.msg === 'e-mail not sent')!;
    expect(refused).toMatchObject({ level: 40, kind: 'passwordReset', emailId: expect.any(Number) });
    expect(refused.err).toMatch(/550 <\[e-mail\]>: Recipient address rejected/);
    expect(lines.filter((l) => EMAIL.test(JSON.stringify(l)))).toEqual([]);
  });

  it("development's mail folder logs where each account e-mail is, by its row, not by its recipient", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'prode-log-privacy-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const { lines, stream } = capture();
    const s: TestServer = await startTestServer({
      env: { NODE_ENV: 'development', DATA_DIR: dataDir, LOG_LEVEL: 'debug' },
      logStream: stream,
    });
    cleanups.push(() => s.close());
    expect(s.config.mail.folder).toBe(join(dataDir, 'mail'));
    await s.gql(RESET, { e: 'player1@demo.test' }, { 'x-app-path': 'demo' });
    const admin = await s.login('admin@demo.test', 'demo');
    expect((await s.gql(INVITE, { e: 'guest@example.test' }, bearer(admin))).errors).toBeUndefined();
    const written = () => lines.filter((l) => l.msg.startsWith('e-mail written'));
    await until(() => written().length >= 2);
    expect(written().map((l) => l.kind)).toEqual(expect.arrayContaining(['passwordReset', 'invitation']));
    for (const line of written()) {
      expect(line).toMatchObject({ level: 30, emailId: expect.any(Number), file: expect.stringMatching(/^file:/) });
    }
    expect(lines.filter((l) => EMAIL.test(JSON.stringify(l)))).toEqual([]);
  });
});
