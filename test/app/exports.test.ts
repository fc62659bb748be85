// The exports (src/app/exports.ts) written as CSV (src/rest/exports.ts csvStream) without HTTP: a large export is
// read a page at a time as its reader takes the text, never all at once, and every page arrives in the end.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankingExport, usersExport, type Export } from '../../src/app/exports.ts';
import { csvStream } from '../../src/rest/exports.ts';
import { appTestDatabase, testScope, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
const PEOPLE = 6000;
const PAGE = 50;
/** Long names, so that the export (about 1 MB) is many times what the stream buffers hold (64 KiB each). */
const nameOf = (i: number) => `Bulk ${String(i).padStart(5, '0')}, "the ${i}th" ${'of the long names '.repeat(6)}`;

beforeAll(async () => {
  database = await appTestDatabase();
  const companyId = database.demo.companies.DEMO;
  await database.db.prisma.user.createMany({
    data: Array.from({ length: PEOPLE }, (_, i) => ({
      companyId,
      name: nameOf(i),
      email: `bulk${i}@demo.test`,
      externalId: `bulk-${i}`,
      loginProviderId: `bulk${i}@demo.test`,
      extraFields: [],
      notificationSettings: {},
    })),
  });
});
afterAll(() => database.drop());

/** The export with its pages counted as the CSV writer pulls them. */
function counted(exported: Export) {
  const read = { pages: 0 };
  async function* pages() {
    for await (const page of exported.pages) {
      read.pages++;
      yield page;
    }
  }
  return { exported: { ...exported, pages: pages() }, read };
}

describe('an export streams with its reader', () => {
  for (const kind of ['users', 'ranking'] as const)
    it(`${kind}: reads a few pages while the reader waits, all of them once it reads on`, async () => {
      const scope = await testScope(database, 'admin');
      const { exported, read } = counted(
        kind === 'users'
          ? await usersExport(scope, false, PAGE)
          : await rankingExport(scope, { tournamentId: database.demo.tournament }, PAGE),
      );
      const text = csvStream(exported);
      const chunks = text[Symbol.asyncIterator]();
      const first = await chunks.next();
      expect(first.done).toBe(false);
      // The reader takes nothing more for a while: the writer fills its buffers and stops pulling pages.
      await new Promise((r) => setTimeout(r, 300));
      const whileWaiting = read.pages;
      expect(whileWaiting).toBeGreaterThan(0);
      expect(whileWaiting).toBeLessThan(PEOPLE / PAGE / 4);
      let csv = String(first.value);
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) csv += String(next.value);
      expect(read.pages).toBeGreaterThanOrEqual(PEOPLE / PAGE);
      const rows = parse(csv, { columns: true, record_delimiter: '\r\n' }) as Array<Record<string, string>>;
      const bulk = rows.filter((r) => r.name.startsWith('Bulk '));
      expect(bulk).toHaveLength(PEOPLE);
      expect(bulk[PEOPLE - 1].name).toBe(nameOf(PEOPLE - 1));
    });

  it('a reader that stops early stops the reading', async () => {
    const scope = await testScope(database, 'admin');
    const { exported, read } = counted(await usersExport(scope, false, PAGE));
    const text = csvStream(exported);
    for await (const chunk of text) {
      expect(String(chunk).length).toBeGreaterThan(0);
      break; // destroys the stream, as a response closed by its client does
    }
    await new Promise((r) => setTimeout(r, 200));
    const atStop = read.pages;
    await new Promise((r) => setTimeout(r, 200));
    expect(read.pages).toBe(atStop);
    expect(atStop).toBeLessThan(PEOPLE / PAGE / 4);
  });

  it('a player gets no export at all', async () => {
    const scope = await testScope(database, 'player');
    await expect(usersExport(scope, false, PAGE)).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    await expect(rankingExport(scope, { tournamentId: database.demo.tournament }, PAGE)).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
  });
});
