// Leases (src/db/leases.ts): of processes asking at once, one takes the lease; it ends by itself. On SQLite, whose
// gateway is one process, the lease is always the asker's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { takeLease } from '../../src/db/leases.ts';
import { freshDatabase, suiteProvider, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;
let other: Database;
beforeAll(async () => {
  t = await freshDatabase();
  other = await openDatabase(t.target, { poolMax: 4 }); // a second process's client
});
afterAll(async () => {
  await other?.close();
  await t?.drop();
});

describe.runIf(suiteProvider === 'postgresql')('leases on PostgreSQL', () => {
  it('of 20 holders asking at once from two clients, one takes it; another once its term has ended', async () => {
    const now = new Date();
    const asks = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        takeLease((i % 2 ? other : t.db).prisma, 'test:once', `holder${i}`, 1000, now),
      ),
    );
    expect(asks.filter(Boolean)).toHaveLength(1);
    const at = (ms: number) => new Date(now.getTime() + ms);
    expect(await takeLease(t.db.prisma, 'test:once', 'late', 1000, at(999))).toBe(false);
    expect(await takeLease(t.db.prisma, 'test:once', 'late', 1000, at(1000))).toBe(true);
    expect(await takeLease(other.prisma, 'test:once', 'later', 1000, at(1500))).toBe(false);
    expect(await takeLease(other.prisma, 'test:other', 'later', 1000, at(1500))).toBe(true); // names are apart
  });
});

describe.runIf(suiteProvider === 'sqlite')('leases on SQLite', () => {
  it("are always the asker's", async () => {
    expect(await takeLease(t.db.prisma, 'test:once', 'a', 1000)).toBe(true);
    expect(await takeLease(t.db.prisma, 'test:once', 'b', 1000)).toBe(true);
  });
});
