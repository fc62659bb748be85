// Logs a person can live with, read from the real entry points: a normal session of `src/server.ts` (start, logins,
// reads, e-mail, the first notifications tick of a fresh demo database, shutdown) logs nothing at warn, no e-mail
// address, and one line for the tick, not one per notification (those are at debug); `npm run notifications:tick`
// alike; a LOG_LEVEL or LOG_FORMAT the logger does not know stops the start with one line; LOG_FORMAT=pretty prints
// readable lines up to the last one before exit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../prisma/seed/demo-seed.ts';
import { setPasswordHashCost } from '../../src/auth/passwords.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import type { DatabaseTarget } from '../../src/db/adapters.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { DEMO_PASSWORD, TEST_JWT_SECRET } from '../helpers/app.ts';
import { emptyTarget, freshDatabase } from '../helpers/db.ts';
import { runScript, startService } from '../helpers/process.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

/** Anything that looks like an e-mail address (a database URL's user@127.0.0.1 does not). */
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b/i;

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}
const jsonLines = (output: string): Line[] =>
  output
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Line);

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'prode-logs-'));
  dirs.push(dir);
  return dir;
};
const drops: Array<() => Promise<void>> = [];
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp?.close();
  for (const drop of drops) await drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const urlOf = (target: DatabaseTarget) => ('url' in target ? target.url : `file:${target.file}`);

describe('LOG_LEVEL and LOG_FORMAT', () => {
  const base = { NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, DATA_DIR: tmpdir() };

  it("take the logger's words (any case); another word is a ConfigError of one line", () => {
    expect(loadConfig({ ...base, LOG_LEVEL: 'Debug', LOG_FORMAT: 'PRETTY' })).toMatchObject({
      logLevel: 'debug',
      logFormat: 'pretty',
    });
    expect(loadConfig(base)).toMatchObject({ logLevel: 'warn', logFormat: 'json' });
    expect(() => loadConfig({ ...base, LOG_LEVEL: 'verbose' })).toThrow(
      new ConfigError('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'),
    );
    expect(() => loadConfig({ ...base, LOG_FORMAT: 'xml' })).toThrow(
      new ConfigError('LOG_FORMAT must be one of json, pretty, got "xml"'),
    );
  });

  it.each([
    ['LOG_LEVEL', 'loud', /^configuration error: LOG_LEVEL must be one of fatal, .* got "loud"/],
    ['LOG_FORMAT', 'yaml', /^configuration error: LOG_FORMAT must be one of json, pretty, got "yaml"/],
  ])('%s=%s stops the server with one line and exit 1', async (name, value, message) => {
    const run = runScript('src/server.ts', { [name]: value, DATA_DIR: tempDir() });
    // A server that starts anyway is not left behind.
    const late = setTimeout(() => run.child.kill('SIGKILL'), 30_000);
    const code = await run.exited;
    clearTimeout(late);
    expect(code).toBe(1);
    const lines = run.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 60, msg: expect.stringMatching(message) });
  });

  it('LOG_FORMAT=pretty prints readable lines, the last ones before exit included', async () => {
    const service = await startService({
      DATA_DIR: tempDir(),
      LOG_FORMAT: 'pretty',
      LOG_LEVEL: 'info',
      SEED_ON_EMPTY: 'false',
      JWT_SECRET: TEST_JWT_SECRET,
    });
    expect(await service.stop('SIGTERM')).toBe(0);
    const lines = service.output().trim().split('\n');
    expect(lines.filter((l) => l.startsWith('{'))).toEqual([]);
    expect(service.output()).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: prode gateway ready$/m);
    expect(service.output()).toMatch(/^ {4}version: "\d+\.\d+\.\d+"$/m);
    expect(lines.at(-1)).toMatch(/^\[[\d:.]+\] INFO: SIGTERM: draining for \d+ ms, then closing$/);
  }, 120_000);
});

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
      // The first tick delivers the seed's pending notifications, each an e-mail for those who keep it on.
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
    expect(perNotification.length).toBeGreaterThan(100);
    expect(perNotification.every((l) => l.level === 20)).toBe(true);
    const ticks = lines.filter((l) => l.msg === 'notifications tick' && l.level >= 30);
    expect(ticks).toHaveLength(1);
    expect(ticks[0]).toMatchObject({ level: 30, sent: perNotification.length, failed: 0 });
    expect(ticks[0].emails).toBeGreaterThan(100);
    // The e-mails the tick queued went out in one run, logged once.
    const deliveries = lines.filter((l) => l.msg === 'e-mail delivery');
    expect(deliveries.some((l) => (l.sent as number) >= (ticks[0].emails as number))).toBe(true);
    expect(deliveries.every((l) => l.level === 30)).toBe(true);
    // Start-up, requests, the tick, delivery and shutdown: a page, not hundreds of lines.
    expect(lines.filter((l) => l.level >= 30).length).toBeLessThan(40);
  }, 300_000);
});

describe('npm run notifications:tick', () => {
  it('on a fresh demo database writes one line at info: the counts', async () => {
    const t = await freshDatabase();
    drops.push(() => t.drop());
    setPasswordHashCost(14);
    await seedDemo(t.db.prisma);
    const run = runScript('scripts/notifications-tick.ts', {
      DATABASE_URL: urlOf(t.target),
      DATA_DIR: tempDir(),
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'info',
      SMTP_URL: smtp.url,
    });
    expect(await run.exited, run.output()).toBe(0);
    const lines = jsonLines(run.output());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'notifications tick',
      rescoring: { done: 0, failed: 0 },
      sent: expect.any(Number),
      mail: { sent: expect.any(Number), failed: 0 },
    });
    expect(lines[0].sent).toBeGreaterThan(100);
    expect((lines[0].mail as { sent: number }).sent).toBe(lines[0].emails);
  }, 300_000);
});

describe('the logger', () => {
  it('replaces an e-mail address wherever it reaches a line, and drops the fields that hold one', () => {
    const written: string[] = [];
    const log = createLogger({ logLevel: 'info', logFormat: 'json' }, { write: (l) => void written.push(l) });
    log.info({ email: 'ann@example.test', user: { to: 'bob@example.test' } }, 'hello');
    log.warn({ err: '550 5.1.1 <carol.d+x@mail.example.co.uk>: Recipient address rejected' }, 'e-mail not sent');
    log.info('sent to dave@example.test');
    expect(written.join('')).not.toMatch(EMAIL);
    expect(JSON.parse(written[1]).err).toBe('550 5.1.1 <[e-mail]>: Recipient address rejected');
    expect(JSON.parse(written[2]).msg).toBe('sent to [e-mail]');
  });
});
