// Companies the caller may see (src/app/companies.ts): managers all, a reseller the ones its company manages and
// its own, everyone else their own; the search is literal and bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companiesSearch, MAX_SEARCH_LENGTH } from '../../src/app/companies.ts';
import { DEFAULT_COMPANY_JSON } from '../../src/domain/defaults.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
let unmanaged: number; // managed by no reseller
let closed: number; // managed by Channel Partners, deleted
beforeAll(async () => {
  database = await appTestDatabase();
  const p = database.db.prisma;
  unmanaged = (await p.company.create({ data: { ...DEFAULT_COMPANY_JSON, name: 'Initech 100%', code: 'INITECH' } })).id;
  closed = (
    await p.company.create({
      data: {
        ...DEFAULT_COMPANY_JSON,
        name: 'Closed Co',
        code: 'CLOSED',
        resellerCompanyId: database.demo.companies.PARTNERS,
        deletedAt: new Date(),
      },
    })
  ).id;
});
afterAll(() => database.drop());

const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id).sort((a, b) => a - b);
const sorted = (...list: number[]) => [...list].sort((a, b) => a - b);

describe('companiesSearch', () => {
  it('refuses an anonymous caller', async () => {
    await expect(companiesSearch(await testScope(database, null), {})).rejects.toMatchObject({
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  it('a player and an admin see only their own company', async () => {
    const { DEMO, GLOBEX } = database.demo.companies;
    expect(ids(await companiesSearch(await testScope(database, 'player'), {}))).toEqual([DEMO]);
    expect(ids(await companiesSearch(await testScope(database, 'globexAdmin'), {}))).toEqual([GLOBEX]);
    // Searching for another company's name finds nothing rather than it.
    expect(await companiesSearch(await testScope(database, 'admin'), { search: 'Globex' })).toEqual([]);
  });

  it('a reseller sees its own company and those it manages, never a deleted one or another’s', async () => {
    const { PARTNERS, DEMO, GLOBEX } = database.demo.companies;
    const listed = ids(await companiesSearch(await testScope(database, 'reseller'), {}));
    expect(listed).toEqual(sorted(PARTNERS, DEMO, GLOBEX));
    expect(listed).not.toContain(unmanaged);
    expect(listed).not.toContain(closed);
  });

  it('a manager sees every open company, ordered by name', async () => {
    const listed = await companiesSearch(await testScope(database, 'manager'), {});
    expect(ids(listed)).toEqual(sorted(...Object.values(database.demo.companies), unmanaged));
    expect(listed.map((c) => c.name)).toEqual([...listed.map((c) => c.name)].sort());
  });

  it('searches name, code and appPath literally, without regard to case', async () => {
    const manager = await testScope(database, 'manager');
    expect(ids(await companiesSearch(manager, { search: 'globex' }))).toEqual([database.demo.companies.GLOBEX]);
    expect(ids(await companiesSearch(manager, { search: 'PARTNERS' }))).toEqual([database.demo.companies.PARTNERS]);
    // % is a character here, not a LIKE wildcard.
    expect(ids(await companiesSearch(manager, { search: '100%' }))).toEqual([unmanaged]);
    expect(await companiesSearch(manager, { search: '%' })).toHaveLength(1);
    expect(await companiesSearch(manager, { search: '_' })).toEqual([]);
  });

  it('refuses a search longer than the limit, and a page past the limit', async () => {
    const manager = await testScope(database, 'manager');
    await expect(companiesSearch(manager, { search: 'x'.repeat(MAX_SEARCH_LENGTH + 1) })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'search' },
    });
    await expect(companiesSearch(manager, { take: -1 })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'take' },
    });
  });
});
