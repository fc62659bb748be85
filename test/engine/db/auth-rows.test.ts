// The rows authentication reads on every request (LoaderRows, src/db/loader-rows.ts) are Prisma's findFirst, or
// plain SQL with the engine on (src/engine/db/auth-rows.ts): either must be the very objects findFirst built for the
// same filters, and must leave out what it left out (a deleted user, a user of a deleted company, a deleted
// company), on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loaderRowsOf } from '../../../src/db/client.ts';
import { prismaLoaderRows, type LoaderRows } from '../../../src/db/loader-rows.ts';
import { seededDatabase, type TestDatabase } from '../../helpers/db.ts';
import { FULL_DB } from '../../../src/engine/index.ts';

let t: TestDatabase | undefined;
afterAll(async () => {
  await t?.drop();
});

const implementations: Record<string, () => LoaderRows> = {
  prisma: () => prismaLoaderRows(t!.db.prisma),
  // What openDatabase hands out with every engine part on: the engine's SQL, sent by the row reader.
  sql: () => loaderRowsOf(t!.db.prisma),
};

// Each implementation on its own copy of the data: the cases write to it.
describe.each(Object.keys(implementations))('auth rows (%s)', (implementation) => {
  let rows: LoaderRows;
  beforeAll(async () => {
    await t?.drop();
    t = await seededDatabase(FULL_DB); // the engine part under test, whatever the run's ENGINE
    rows = implementations[implementation]();
  }, 120_000);

  it('an active user: the object findFirst builds; deleted, or of a deleted company: none', async () => {
    const p = t!.db.prisma;
    const demo = await p.company.findFirstOrThrow({ where: { appPath: 'demo' } });
    const [kept, deleted] = await p.user.findMany({ where: { companyId: demo.id }, orderBy: { id: 'asc' }, take: 2 });
    const globex = await p.company.findFirstOrThrow({ where: { appCustomDomain: 'prode.globex.test' } });
    const ofClosed = await p.user.findFirstOrThrow({ where: { companyId: globex.id } });
    const expected = await p.user.findFirst({ where: { id: kept.id, deletedAt: null, company: { deletedAt: null } } });
    expect(await rows.activeUser(kept.id)).toStrictEqual(expected);

    await p.user.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    expect(await rows.activeUser(deleted.id)).toBeNull();

    await p.company.update({ where: { id: ofClosed.companyId }, data: { deletedAt: new Date() } });
    expect(await rows.activeUser(ofClosed.id)).toBeNull();
    expect(await rows.activeUser(2_000_000_000)).toBeNull();
    await p.company.update({ where: { id: globex.id }, data: { deletedAt: null } });
    expect(await rows.activeUser(ofClosed.id)).toStrictEqual(await p.user.findUnique({ where: { id: ofClosed.id } }));
  });

  it('a company by id, domain or path: the objects findFirst builds; a deleted one only by companyById', async () => {
    const p = t!.db.prisma;
    const byPath = await p.company.findFirstOrThrow({ where: { appPath: 'demo', deletedAt: null } });
    expect(await rows.activeCompanyBy('appPath', 'demo')).toStrictEqual(byPath);
    expect(await rows.activeCompanyBy('id', byPath.id)).toStrictEqual(byPath);
    expect(await rows.companyById(byPath.id)).toStrictEqual(await p.company.findUnique({ where: { id: byPath.id } }));
    const byHost = await p.company.findFirstOrThrow({ where: { appCustomDomain: 'prode.globex.test' } });
    expect(await rows.activeCompanyBy('appCustomDomain', 'prode.globex.test')).toStrictEqual(byHost);
    expect(await rows.activeCompanyBy('appPath', 'no-such-path')).toBeNull();

    const closed = await p.company.update({ where: { appPath: 'partners' }, data: { deletedAt: new Date() } });
    expect(await rows.activeCompanyBy('appPath', 'partners')).toBeNull();
    expect(await rows.activeCompanyBy('id', closed.id)).toBeNull();
    expect(await rows.companyById(closed.id)).toStrictEqual(await p.company.findUnique({ where: { id: closed.id } }));
  });
});
