// The rows authentication reads on every request (src/engine/db/auth-rows.ts) are plain SQL: they must be the very
// objects Prisma's findFirst built for the same filters, and must leave out what it left out (a deleted user, a
// user of a deleted company, a deleted company), on both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCompanyBy, activeUser, companyById } from '../../../src/engine/db/auth-rows.ts';
import { seededDatabase, type TestDatabase } from '../../helpers/db.ts';
import { FULL_DB } from '../../../src/engine/index.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await seededDatabase(FULL_DB); // the engine part under test, whatever the run's ENGINE
}, 120_000);
afterAll(async () => {
  await t.drop();
});

describe('auth rows', () => {
  it('an active user: the object findFirst builds; deleted, or of a deleted company: none', async () => {
    const p = t.db.prisma;
    const demo = await p.company.findFirstOrThrow({ where: { appPath: 'demo' } });
    const [kept, deleted] = await p.user.findMany({ where: { companyId: demo.id }, orderBy: { id: 'asc' }, take: 2 });
    const globex = await p.company.findFirstOrThrow({ where: { appCustomDomain: 'prode.globex.test' } });
    const ofClosed = await p.user.findFirstOrThrow({ where: { companyId: globex.id } });
    const expected = await p.user.findFirst({ where: { id: kept.id, deletedAt: null, company: { deletedAt: null } } });
    expect(await activeUser(p, kept.id)).toStrictEqual(expected);

    await p.user.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    expect(await activeUser(p, deleted.id)).toBeNull();

    await p.company.update({ where: { id: ofClosed.companyId }, data: { deletedAt: new Date() } });
    expect(await activeUser(p, ofClosed.id)).toBeNull();
    expect(await activeUser(p, 2_000_000_000)).toBeNull();
    await p.company.update({ where: { id: globex.id }, data: { deletedAt: null } });
    expect(await activeUser(p, ofClosed.id)).toStrictEqual(await p.user.findUnique({ where: { id: ofClosed.id } }));
  });

  it('a company by id, domain or path: the objects findFirst builds; a deleted one only by companyById', async () => {
    const p = t.db.prisma;
    const byPath = await p.company.findFirstOrThrow({ where: { appPath: 'demo', deletedAt: null } });
    expect(await activeCompanyBy(p, 'appPath', 'demo')).toStrictEqual(byPath);
    expect(await activeCompanyBy(p, 'id', byPath.id)).toStrictEqual(byPath);
    expect(await companyById(p, byPath.id)).toStrictEqual(await p.company.findUnique({ where: { id: byPath.id } }));
    const byHost = await p.company.findFirstOrThrow({ where: { appCustomDomain: 'prode.globex.test' } });
    expect(await activeCompanyBy(p, 'appCustomDomain', 'prode.globex.test')).toStrictEqual(byHost);
    expect(await activeCompanyBy(p, 'appPath', 'no-such-path')).toBeNull();

    const closed = await p.company.update({ where: { appPath: 'partners' }, data: { deletedAt: new Date() } });
    expect(await activeCompanyBy(p, 'appPath', 'partners')).toBeNull();
    expect(await activeCompanyBy(p, 'id', closed.id)).toBeNull();
    expect(await companyById(p, closed.id)).toStrictEqual(await p.company.findUnique({ where: { id: closed.id } }));
  });
});
