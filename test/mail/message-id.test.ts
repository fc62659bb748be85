// Delivery is at least once: a process that stops between the SMTP server's acceptance and the outbox update sends
// that e-mail again once its claim runs out. Every send of an outbox row carries the same Message-ID, so the resend
// is recognisable (and deduplicable) as the same message; two rows never share one. It is a keyed hash: the row's id
// (one counter for every company, which would tell how much mail the service sends) does not show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { claimInBatches, takeClaimed } from '../../src/db/claims.ts';
import { mailChannel, type MailChannel } from '../../src/mail/channel.ts';
import { deliverEmails } from '../../src/mail/delivery.ts';
import { queueEmail } from '../../src/mail/outbox.ts';
import { startTestServer, type TestServer } from '../helpers/app.ts';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../helpers/smtp.ts';

const quiet = () => {};
let smtp: TestSmtp;
let s: TestServer;
let channel: MailChannel;
beforeAll(async () => {
  smtp = await startTestSmtp();
  s = await startTestServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Prode <no-reply@prode.example>' } });
  channel = mailChannel(s.config.mail, quiet)!;
});
afterAll(async () => {
  channel?.close();
  await s?.close();
  await smtp?.close();
});

const messageIdOf = (mail: ReceivedMail) => /^Message-ID: (.*)$/im.exec(mail.raw.split('\r\n\r\n')[0])?.[1];

describe('Message-ID of outgoing e-mail', () => {
  it('is the same when a crash after the SMTP acceptance makes the sender send the row again', async () => {
    const p = s.t.db.prisma;
    await p.$transaction((tx) =>
      queueEmail(tx, { to: 'crash@example.test', subject: 'reset', text: 'your link', kind: 'test-crash' }),
    );
    // The sender's first steps, as deliverEmails takes them: claim the row, take it, send it. Then the process
    // dies: the outbox update that marks it SENT never runs, and the row stays PENDING under its claim.
    for await (const { ids, until } of claimInBatches(p, 'OutgoingEmail', {
      limit: 10,
      batchSize: 10,
      leaseMs: 60_000,
    })) {
      for (const email of await p.outgoingEmail.findMany({ where: { id: { in: ids } } })) {
        expect(await takeClaimed(p, 'OutgoingEmail', email.id, until, 60_000)).toBe(true);
        await channel.send(email);
      }
    }
    const [first] = await smtp.waitFor('crash@example.test');
    const row = await p.outgoingEmail.findFirstOrThrow({ where: { to: 'crash@example.test' } });
    expect(row).toMatchObject({ status: 'PENDING', sentAt: null });
    // While the claim holds, nobody sends it; once it has run out (a minute later), the next delivery does.
    expect(await deliverEmails(p, channel, quiet)).toEqual({ sent: 0, failed: 0 });
    await p.outgoingEmail.update({ where: { id: row.id }, data: { claimedUntil: new Date(Date.now() - 1) } });
    expect(await deliverEmails(p, channel, quiet)).toEqual({ sent: 1, failed: 0 });
    const [, second] = await smtp.waitFor('crash@example.test', 2);
    expect(messageIdOf(first)).toMatch(/^<[0-9a-f]{32}@prode\.example>$/);
    expect(messageIdOf(second)).toBe(messageIdOf(first));
    expect(await p.outgoingEmail.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: 'SENT' });
  });

  it('differs between rows with the same recipient, text and creation time; shows no row id', async () => {
    const p = s.t.db.prisma;
    // Ids of ten digits, which 32 random hex digits hold by chance about once in 10^9 times: a Message-ID built
    // from the id would contain it.
    const createdAt = new Date();
    const rowIds = [1_234_567_890, 1_234_567_891];
    for (const id of rowIds) {
      await p.outgoingEmail.create({
        data: { id, to: 'twin@example.test', subject: 'same', text: 'same', kind: 'test-twin', createdAt },
      });
    }
    expect(await deliverEmails(p, channel, quiet)).toEqual({ sent: 2, failed: 0 });
    const ids = (await smtp.waitFor('twin@example.test', 2)).map(messageIdOf);
    expect(ids.every((id) => /^<[0-9a-f]{32}@prode\.example>$/.test(id ?? ''))).toBe(true);
    for (const rowId of rowIds) expect(ids.join(' ')).not.toContain(String(rowId));
    expect(new Set(ids).size).toBe(2);
  });

  it('is keyed by the service secret: another JWT_SECRET gives another Message-ID for the same row', async () => {
    const p = s.t.db.prisma;
    await p.$transaction((tx) =>
      queueEmail(tx, { to: 'keyed@example.test', subject: 'k', text: 'k', kind: 'test-keyed' }),
    );
    const row = await p.outgoingEmail.findFirstOrThrow({ where: { to: 'keyed@example.test' } });
    const other = mailChannel(
      loadConfig(
        { NODE_ENV: 'test', SMTP_URL: smtp.url, JWT_SECRET: 'another-secret-of-at-least-32-characters!' },
        quiet,
      ).mail,
      quiet,
    )!;
    try {
      await channel.send(row);
      await other.send(row);
    } finally {
      other.close();
    }
    const [a, b] = (await smtp.waitFor('keyed@example.test', 2)).map(messageIdOf);
    expect(a).toMatch(/^<[0-9a-f]{32}@/);
    expect(b).toMatch(/^<[0-9a-f]{32}@/);
    expect(a).not.toBe(b);
  });
});
