// PostgreSQL connections of the server carry a statement_timeout: work whose request was abandoned (the request
// deadline returned 504, the client went away) stops in the database too instead of holding a connection.
import type { FastifyBaseLogger } from 'fastify';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { isStatementTimeout } from '../../src/db/errors.ts';
import { prepareDatabase } from '../../src/bootstrap/prepare.ts';
import { formatErrorFor } from '../../src/graphql/apollo.ts';
import { ERROR_STATUS, STATEMENT_TIMEOUT_MESSAGE } from '../../src/domain/errors.ts';
import { emptyTarget, suiteProvider } from '../helpers/db.ts';

describe.runIf(suiteProvider === 'postgresql')('statement_timeout on PostgreSQL', () => {
  async function serverDatabase(env: Record<string, string>) {
    const { target, drop } = await emptyTarget();
    const url = target.provider === 'postgresql' ? target.url : '';
    const config = loadConfig(
      { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), DATABASE_URL: url, SEED_ON_EMPTY: 'false', ...env },
      () => {},
    );
    const db = await prepareDatabase(config, { info() {}, warn() {} });
    return {
      db,
      drop: async () => {
        await db.close();
        await drop();
      },
    };
  }

  it('is DB_STATEMENT_TIMEOUT_MS on every connection, and cancels a statement that runs past it', async () => {
    const { db, drop } = await serverDatabase({ DB_STATEMENT_TIMEOUT_MS: '300' });
    try {
      expect(await db.prisma.$queryRawUnsafe('SHOW statement_timeout')).toEqual([{ statement_timeout: '300ms' }]);
      const started = Date.now();
      const stopped = await db.prisma.$queryRawUnsafe('SELECT pg_sleep(5)').then(
        () => null,
        (err: unknown) => err,
      );
      expect(Date.now() - started).toBeLessThan(3000);
      // Recognised as such, and reported as a timeout (504 REQUEST_TIMEOUT), not as our bug (500).
      expect(isStatementTimeout(stopped)).toBe(true);
      expect(isStatementTimeout(new Error('something else'))).toBe(false);
      const log = {
        warn: () => {},
        error: () => {
          throw new Error('logged as a bug');
        },
      } as unknown as FastifyBaseLogger;
      const format = formatErrorFor(
        loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) }, () => {}),
        log,
      );
      const error = new GraphQLError('wrapped', { path: ['myTournaments'], originalError: stopped as Error });
      expect(format({ message: 'wrapped', path: ['myTournaments'] }, error)).toEqual({
        message: STATEMENT_TIMEOUT_MESSAGE,
        path: ['myTournaments'],
        extensions: { code: 'REQUEST_TIMEOUT' },
      });
      expect(ERROR_STATUS.REQUEST_TIMEOUT).toBe(504);
      // The connection is usable afterwards.
      expect(await db.prisma.$queryRawUnsafe('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await drop();
    }
  });

  it('defaults to 25 s, under the request deadline', async () => {
    const { db, drop } = await serverDatabase({});
    try {
      expect(await db.prisma.$queryRawUnsafe('SHOW statement_timeout')).toEqual([{ statement_timeout: '25s' }]);
    } finally {
      await drop();
    }
  });
});
