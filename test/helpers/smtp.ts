// A real SMTP server in the test process (smtp-server, on loopback), keeping every message it receives.
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The text body, decoded from quoted-printable. */
  text: string;
  raw: string;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  /** Resolves with the messages to `to` once `count` have arrived (or rejects after `ms`). */
  waitFor(to: string, count?: number, ms?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

const decodeQuotedPrintable = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

function parse(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '';
  const qp = /^Content-Transfer-Encoding: quoted-printable$/im.test(head);
  return { to, subject, text: qp ? decodeQuotedPrintable(body) : body, raw };
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push(
          parse(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async waitFor(to, count = 1, ms = 10_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const mine = received.filter((m) => m.to.includes(to));
        if (mine.length >= count) return mine;
        if (Date.now() > deadline) throw new Error(`${count} e-mail(s) to ${to} did not arrive in ${ms} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
