// Logs a person can live with, read from the real entry points: a normal session of `src/server.ts` (start, logins,
// reads, e-mail, the first notifications tick of a fresh demo database, shutdown) logs nothing at warn, no e-mail
// address, and one line for the tick, not one per notification (those are at debug). (logs-tick.test.ts: `npm run
// notifications:tick` alike; logs-format.test.ts: LOG_LEVEL, LOG_FORMAT and the e-mail filter.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseTarget } from '../../src/db/adapters.ts';
import { DEMO_PASSWORD, TEST_JWT_SECRET } from '../helpers/app.ts';
import { emptyTarget } from '../helpers/db.ts';
import { EMAIL, jsonLines } from '../helpers/logs.ts';
import { startService } from '../helpers/process.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { tempDirs } from '../helpers/temp.ts';

const tempDir = tempDirs('prode-logs-');
const drops: Array<() => Promise<void>> = [];
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp?.close();
  for (const drop of drops) await drop();
});

const urlOf = (target: DatabaseTarget) => ('url' in target ? target.url : `file:${target.file}`);

describe('a normal session of the server', () => {
  it('logs nothing at warn and no e-mail address; the first tick of a fresh demo database is one line', async () => {
    const { target, drop } = await emptyTarget();
    drops.push(drop);
    const service = await startService({
      DATA_DIR: tempDir(),
      DATABASE_URL: urlOf(target),
      JWT_SECRET: TEST_JWT_SECRET,
      PASSWORD_HASH_COST: '14',
      LOG_LEVEL: 'debug',
      SMTP_URL: smtp.url,
      NOTIFICATIONS_INTERVAL_SECONDS: '1',
    });
    let exit: number | null;
    try {
      const gql = async (query: string, headers: Record<string, string> = {}) => {
        const r = await fetch(`${service.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-app-path': 'demo', ...headers },
          body: JSON.stringify({ query }),
        });
        const body = (await r.json()) as { data: any; errors?: unknown };
        expect(body.errors).toBeUndefined();
        return body.data;
      };
      const login = async (email: string) =>
        (await gql(`mutation { login(email: "${email}", password: "${DEMO_PASSWORD}") { token } }`)).login.token;
      const player = { authorization: `Bearer ${await login('player1@demo.test')}` };
      expect((await gql('{ me { name } }', player)).me.name).toBeTruthy();
      expect(
        (await fetch(`${service.url}/tournaments/me`, { headers: { ...player, 'x-app-path': 'demo' } })).status,
      ).toBe(200);
      const admin = { authorization: `Bearer ${await login('admin@demo.test')}` };
      await gql('mutation { createInvitation(input: { email: "guest@example.test" }) { token } }', admin);
      await gql('mutation { requestPasswordReset(email: "player2@demo.test") }');
      await smtp.waitFor('guest@example.test', 1, 150_000);
      await smtp.waitFor('player2@demo.test', 1, 150_000);
      // The first tick delivers the seed's pending notifications (one rankingsUpdated a player and rescoring), each an
      // e-mail for those who keep it on.
      for (let i = 0; i < 600 && !/"msg":"notifications tick"/.test(service.output()); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      for (let i = 0; i < 600 && !/"sent":[1-9]\d\d,"failed":0,"msg":"e-mail delivery"/.test(service.output()); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      exit = await service.stop('SIGTERM');
    }
    expect(exit).toBe(0);
    const lines = jsonLines(service.output());
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(lines.filter((l) => EMAIL.test(JSON.stringify(l)))).toEqual([]);

    const perNotification = lines.filter((l) => l.msg === 'notification sent');
    expect(perNotification.length).toBeGreaterThan(20);
    expect(perNotification.every((l) => l.level === 20)).toBe(true);
    const ticks = lines.filter((l) => l.msg === 'notifications tick' && l.level >= 30);
    expect(ticks).toHaveLength(1);
    expect(ticks[0]).toMatchObject({ level: 30, sent: perNotification.length, failed: 0 });
    expect(ticks[0].emails).toBeGreaterThan(20);
    // The e-mails the tick queued went out in one run, logged once.
    const deliveries = lines.filter((l) => l.msg === 'e-mail delivery');
    expect(deliveries.some((l) => (l.sent as number) >= (ticks[0].emails as number))).toBe(true);
    expect(deliveries.every((l) => l.level === 30)).toBe(true);
    // Start-up, requests, the tick, delivery and shutdown: a page, not hundreds of lines.
    expect(lines.filter((l) => l.level >= 30).length).toBeLessThan(40);
  }, 300_000);
});
