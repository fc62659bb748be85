// E-mail leaves through one channel and is sent once: concurrent deliveries (two gateway processes, a tick and a
// wake-up) claim each e-mail and each notification before sending it; a notification whose user keeps e-mail on
// becomes an e-mail in the transaction that marks it sent. Without SMTP in development, messages land as .eml files.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { mailChannel, type MailChannel } from '../../src/mail/channel.ts';
import { deliverEmails, MailDelivery } from '../../src/mail/delivery.ts';
import { runWithSqlStats } from '../../src/db/sql-stats.ts';
import { queueEmail } from '../../src/mail/outbox.ts';
import { deliverPending, type NotificationSender } from '../../src/notifications/sender.ts';
import { startTestServer, type TestServer } from '../helpers/app.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

const quiet = () => {};
let smtp: TestSmtp;
let s: TestServer;
let channel: MailChannel;
beforeAll(async () => {
  smtp = await startTestSmtp();
  // A second channel to the same server, as a second gateway process would have.
  s = await startTestServer({ env: { SMTP_URL: smtp.url } });
  channel = mailChannel(s.config.mail, quiet)!;
});
afterAll(async () => {
  channel?.close();
  await s?.close();
  await smtp?.close();
});

describe('e-mail delivery', () => {
  it("woken inside a request, sends outside it: the request's statements do not include delivery's", async () => {
    const p = s.t.db.prisma;
    await p.$transaction((tx) =>
      queueEmail(tx, { to: 'woken@example.test', subject: 'woken', text: 'hi', kind: 'test-woken' }),
    );
    const delivery = new MailDelivery(p, mailChannel(s.config.mail, quiet), quiet);
    const request = { statements: 0, tables: new Set<string>() };
    runWithSqlStats(request, () => delivery.wake());
    await delivery.idle();
    await smtp.waitFor('woken@example.test');
    expect(await p.outgoingEmail.count({ where: { subject: 'woken', status: 'SENT' } })).toBe(1);
    expect(request).toEqual({ statements: 0, tables: new Set() });
    await delivery.close();
  });

  it('two deliveries at once send every e-mail exactly once', async () => {
    const p = s.t.db.prisma;
    await p.$transaction(async (tx) => {
      for (let i = 0; i < 12; i++) {
        await queueEmail(tx, { to: `bulk${i}@example.test`, subject: `bulk ${i}`, text: 'hello', kind: 'test' });
      }
    });
    const [a, b] = await Promise.all([
      deliverEmails(p, channel, quiet),
      deliverEmails(p, mailChannel(s.config.mail, quiet)!, quiet),
    ]);
    expect(a.sent + b.sent).toBe(12);
    await smtp.waitFor('bulk11@example.test');
    const bulk = smtp.received.filter((m) => m.subject.startsWith('bulk'));
    expect(bulk.map((m) => m.subject).sort()).toEqual([...Array(12)].map((_, i) => `bulk ${i}`).sort());
    expect(await p.outgoingEmail.count({ where: { kind: 'test', status: 'SENT' } })).toBe(12);
  });

  it('a failing server leaves the e-mail pending with its error, retried later', async () => {
    const p = s.t.db.prisma;
    await p.$transaction((tx) =>
      queueEmail(tx, { to: 'retry@example.test', subject: 'retry', text: 'x', kind: 'test' }),
    );
    const down: MailChannel = {
      description: 'down',
      send: async () => {
        throw new Error('connection refused');
      },
      close: quiet,
    };
    expect(await deliverEmails(p, down, quiet)).toEqual({ sent: 0, failed: 1 });
    const row = await p.outgoingEmail.findFirstOrThrow({ where: { to: 'retry@example.test' } });
    expect(row).toMatchObject({ status: 'PENDING', attempts: 1, lastError: 'connection refused' });
    // Backed off: not claimable until its wait is over.
    expect(await deliverEmails(p, channel, quiet)).toEqual({ sent: 0, failed: 0 });
    await p.outgoingEmail.update({ where: { id: row.id }, data: { claimedUntil: new Date(Date.now() - 1) } });
    expect(await deliverEmails(p, channel, quiet)).toEqual({ sent: 1, failed: 0 });
    await smtp.waitFor('retry@example.test');
  });

  it('a notification is delivered once by concurrent runs, and e-mailed when the user keeps e-mail on', async () => {
    const p = s.t.db.prisma;
    const user = await p.user.findFirstOrThrow({ where: { email: 'player1@demo.test' } });
    await p.user.update({
      where: { id: user.id },
      data: { notificationSettings: { disabledTypes: [], emailEnabled: true } },
    });
    // The demo's pending notifications are delivered too (many, to test the claims); only this one is e-mailed.
    await p.notification.updateMany({ data: { sendEmail: false } });
    await p.notification.create({
      data: {
        companyId: user.companyId,
        userId: user.id,
        type: 'pendingDreamFinalPrediction',
        sendEmail: true,
        payload: { settingId: 1, closesAt: '2026-12-01T18:00:00.000Z' },
        dedupeKey: 'delivery-test:1',
      },
    });
    const pending = await p.notification.count({ where: { status: 'PENDING' } });
    const emailed = await p.notification.count({ where: { status: 'PENDING', sendEmail: true } });
    const pushed: number[] = [];
    const sender: NotificationSender = { send: async (n) => void pushed.push(n.id) };
    const runs = await Promise.all([deliverPending(p, sender), deliverPending(p, sender), deliverPending(p, sender)]);
    expect(runs.reduce((sum, r) => sum + r.sent, 0)).toBe(pending);
    expect(pushed).toHaveLength(pending);
    expect(new Set(pushed).size).toBe(pending);
    expect(emailed).toBe(1);
    expect(runs.reduce((sum, r) => sum + r.emails, 0)).toBe(emailed);
    expect(await p.outgoingEmail.count({ where: { kind: { startsWith: 'notification:' } } })).toBe(emailed);
    while ((await deliverEmails(p, channel, quiet)).sent > 0);
    const mails = await smtp.waitFor('player1@demo.test');
    const mail = mails.find((m) => m.subject === 'Your dream-final picks close soon')!;
    expect(mail.text).toContain('2026-12-01T18:00:00.000Z');
  });
});

describe('without SMTP', () => {
  it('development writes each e-mail as an .eml file and logs where', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'prode-mail-'));
    try {
      const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, JWT_SECRET: 'j'.repeat(40) }, quiet);
      expect(config.mail.folder).toBe(join(dataDir, 'mail'));
      const logged: Array<{ obj: object; msg: string }> = [];
      const folder = mailChannel(config.mail, (_level, obj, msg) => logged.push({ obj, msg }))!;
      await folder.send({
        id: 7,
        createdAt: new Date(),
        to: 'newcomer@example.test',
        subject: 'Welcome',
        text: 'Open me.',
      });
      folder.close();
      const [file] = readdirSync(join(dataDir, 'mail'));
      expect(file).toMatch(/-7\.eml$/);
      const eml = readFileSync(join(dataDir, 'mail', file), 'utf8');
      expect(eml).toMatch(/^Subject: Welcome$/m);
      expect(eml).toMatch(/^To: newcomer@example\.test$/m);
      expect(eml).toMatch(/^Message-ID: <[0-9a-f]{32}@localhost>$/m);
      expect(logged[0].obj).toMatchObject({ file: `file://${join(dataDir, 'mail', file)}` });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('production and tests keep e-mail in the outbox; a bad SMTP_URL or MAIL_FROM is one clear line', () => {
    const base = { JWT_SECRET: 'j'.repeat(40), DATA_DIR: tmpdir() };
    expect(mailChannel(loadConfig({ ...base, NODE_ENV: 'production' }, quiet).mail, quiet)).toBeNull();
    expect(() => loadConfig({ ...base, SMTP_URL: 'http://mail.example.test' }, quiet)).toThrow(
      /SMTP_URL must look like/,
    );
    expect(() => loadConfig({ ...base, MAIL_FROM: 'nobody' }, quiet)).toThrow(/MAIL_FROM must be an address/);
    expect(() => loadConfig({ ...base, APP_URL: 'ftp://x' }, quiet)).toThrow(/APP_URL must be an http\(s\) URL/);
  });
});
