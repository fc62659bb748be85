// Companies as operators run them (src/app/company-admin.ts): who creates, changes and deletes a company, each
// setting by whoever its authority names; a company the caller may not administer is NOT_FOUND and stays as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, deleteCompany, updateCompany } from '../../src/app/company-admin.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

const company = (id: number) => database.db.prisma.company.findUniqueOrThrow({ where: { id } });
const byCode = (code: string) => database.db.prisma.company.findFirst({ where: { code } });

describe('createCompany', () => {
  it('a reseller creates a company its own company manages', async () => {
    const made = await createCompany(await testScope(database, 'reseller'), { name: 'Acme', code: 'ACME' });
    expect(await company(made.id)).toMatchObject({ name: 'Acme', resellerCompanyId: database.demo.companies.PARTNERS });
  });

  it('an admin may not; a reseller may not name another reseller', async () => {
    await expect(createCompany(await testScope(database, 'admin'), { name: 'No', code: 'NOPE' })).rejects.toMatchObject(
      {
        extensions: { code: 'FORBIDDEN' },
      },
    );
    await expect(
      createCompany(await testScope(database, 'reseller'), {
        name: 'No',
        code: 'NOPE',
        resellerCompanyId: database.demo.companies.DEMO,
      }),
    ).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(await byCode('NOPE')).toBeNull();
  });

  it('refuses a bad or taken code, and a manager naming a company that is not a reseller', async () => {
    const manager = await testScope(database, 'manager');
    await expect(createCompany(manager, { name: 'Bad', code: 'no spaces' })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'code' },
    });
    await expect(createCompany(manager, { name: 'Twin', code: 'demo' })).rejects.toMatchObject({
      extensions: { code: 'CONFLICT', argumentName: 'code' },
    });
    await expect(
      createCompany(manager, { name: 'Odd', code: 'ODD', resellerCompanyId: database.demo.companies.GLOBEX }),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'resellerCompanyId' } });
    expect(await byCode('ODD')).toBeNull();
  });
});

describe('updateCompany', () => {
  it('an admin changes their company’s look; not its plan, and not another company', async () => {
    const admin = await testScope(database, 'admin');
    const { DEMO, GLOBEX } = database.demo.companies;
    await updateCompany(admin, DEMO, { loginText: 'Welcome, players' });
    expect((await company(DEMO)).loginText).toBe('Welcome, players');

    const before = await company(DEMO);
    await expect(updateCompany(admin, DEMO, { maxUsersAmount: 5000 })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    await expect(updateCompany(admin, DEMO, { resellerCompanyId: null })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    expect(await company(DEMO)).toEqual(before);

    const globex = await company(GLOBEX);
    await expect(updateCompany(admin, GLOBEX, { loginText: 'Taken over' })).rejects.toMatchObject({
      extensions: { code: 'NOT_FOUND' },
    });
    expect(await company(GLOBEX)).toEqual(globex);
  });

  it('the company’s reseller changes its limits; a bad value is refused by field', async () => {
    const reseller = await testScope(database, 'reseller');
    const { GLOBEX } = database.demo.companies;
    await updateCompany(reseller, GLOBEX, { maxUsersAmount: 40 });
    expect((await company(GLOBEX)).maxUsersAmount).toBe(40);
    await expect(updateCompany(reseller, GLOBEX, { maxUsersAmount: 0 })).rejects.toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', argumentName: 'maxUsersAmount' },
    });
    await expect(updateCompany(reseller, GLOBEX, { isReseller: true })).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    await expect(updateCompany(reseller, GLOBEX, { appPath: 'demo' })).rejects.toMatchObject({
      extensions: { code: 'CONFLICT', argumentName: 'appPath' },
    });
    expect(await company(GLOBEX)).toMatchObject({ maxUsersAmount: 40, isReseller: false, appPath: null });
  });

  it('refuses dream finals out of range, keeping the setting', async () => {
    const admin = await testScope(database, 'admin');
    const setting = await database.db.prisma.dreamFinalsSetting.findUniqueOrThrow({
      where: { id: database.demo.dreamFinals },
    });
    await expect(
      updateCompany(admin, database.demo.companies.DEMO, {
        dreamFinalsSettings: [
          {
            tournamentId: database.demo.tournament,
            awardedPositions: 9,
            awardedPoints: 10,
            limitRoundId: setting.limitRoundId,
          },
        ],
      }),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'dreamFinalsSettings' } });
    expect(await database.db.prisma.dreamFinalsSetting.findUniqueOrThrow({ where: { id: setting.id } })).toEqual(
      setting,
    );
  });
});

describe('deleteCompany', () => {
  it('only a manager closes a company; not their own, not one that manages others', async () => {
    const made = await createCompany(await testScope(database, 'manager'), { name: 'Short Lived', code: 'SHORT' });
    await expect(deleteCompany(await testScope(database, 'reseller'), made.id)).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
    expect((await company(made.id)).deletedAt).toBeNull();
    const now = new Date(Date.UTC(2026, 7, 1));
    const manager = await testScope(database, 'manager', { now });
    await expect(deleteCompany(manager, made.id)).resolves.toBe(true);
    expect((await company(made.id)).deletedAt).toEqual(now);
    await expect(deleteCompany(manager, database.demo.companies.PARTNERS)).rejects.toMatchObject({
      extensions: { code: 'CONFLICT' },
    });
    expect((await company(database.demo.companies.PARTNERS)).deletedAt).toBeNull();

    const reseller = await createCompany(manager, { name: 'Resells', code: 'RESELLS', isReseller: true });
    const child = await createCompany(manager, { name: 'Child', code: 'CHILD', resellerCompanyId: reseller.id });
    await expect(deleteCompany(manager, reseller.id)).rejects.toMatchObject({ extensions: { code: 'CONFLICT' } });
    expect((await company(reseller.id)).deletedAt).toBeNull();
    expect((await company(child.id)).resellerCompanyId).toBe(reseller.id);
  });
});
