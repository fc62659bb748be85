import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { Provider } from './schema-files.ts';

export type DatabaseTarget = { provider: 'sqlite'; file: string } | { provider: 'postgresql'; url: string };

export function providerOf(target: DatabaseTarget): Provider {
  return target.provider;
}

/** A Prisma driver adapter factory for the target; used by both the client and the migration engine. */
export function adapterFactory(target: DatabaseTarget, options: { poolMax?: number } = {}) {
  if (target.provider === 'sqlite') {
    return new PrismaBetterSqlite3({ url: `file:${target.file}`, timeout: 5000 });
  }
  return new PrismaPg({
    connectionString: target.url,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: 5000,
  });
}

/** Redacts the password of a connection string for log lines and error messages. */
export function describeTarget(target: DatabaseTarget): string {
  if (target.provider === 'sqlite') return `sqlite:${target.file}`;
  try {
    const u = new URL(target.url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgresql:(unparseable url)';
  }
}
