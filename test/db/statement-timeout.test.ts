// PostgreSQL connections of the server carry a statement_timeout: work whose request was abandoned (the request
// deadline answered 504, the client went away) stops in the database too instead of holding a connection.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { prepareDatabase } from '../../src/db/prepare.ts';
import { emptyTarget, suiteProvider } from '../helpers/db.ts';

describe.runIf(suiteProvider === 'postgresql')('statement_timeout on PostgreSQL', () => {
  async function serverDatabase(env: Record<string, string>) {
    const { target, drop } = await emptyTarget();
    const url = target.provider === 'postgresql' ? target.url : '';
    const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), DATABASE_URL: url, SEED_ON_EMPTY: 'false', ...env }, () => {});
    const db = await prepareDatabase(config, () => {});
    return { db, drop: async () => { await db.close(); await drop(); } };
  }

  it('is DB_STATEMENT_TIMEOUT_MS on every connection, and cancels a statement that runs past it', async () => {
    const { db, drop } = await serverDatabase({ DB_STATEMENT_TIMEOUT_MS: '300' });
    try {
      expect(await db.prisma.$queryRawUnsafe('SHOW statement_timeout')).toEqual([{ statement_timeout: '300ms' }]);
      const started = Date.now();
      await expect(db.prisma.$queryRawUnsafe('SELECT pg_sleep(5)')).rejects.toThrow(/statement timeout/);
      expect(Date.now() - started).toBeLessThan(3000);
      // The connection is usable afterwards.
      expect(await db.prisma.$queryRawUnsafe('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await drop();
    }
  });

  it('defaults to 30 s', async () => {
    const { db, drop } = await serverDatabase({});
    try {
      expect(await db.prisma.$queryRawUnsafe('SHOW statement_timeout')).toEqual([{ statement_timeout: '30s' }]);
    } finally {
      await drop();
    }
  });
});
