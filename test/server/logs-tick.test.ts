// `npm run notifications:tick` logs as a person can live with: on a fresh demo database, one line at info with the
// counts, not one per notification. (logs-session.test.ts: the server's own session.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../prisma/seed/demo-seed.ts';
import { setPasswordHashCost } from '../../src/auth/passwords.ts';
import type { DatabaseTarget } from '../../src/db/adapters.ts';
import { TEST_JWT_SECRET } from '../helpers/app.ts';
import { freshDatabase } from '../helpers/db.ts';
import { jsonLines } from '../helpers/logs.ts';
import { runScript } from '../helpers/process.ts';
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
    expect(lines[0].sent).toBeGreaterThan(20);
    expect((lines[0].mail as { sent: number }).sent).toBe(lines[0].emails);
  }, 300_000);
});
