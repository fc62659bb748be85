// Seats (src/app/seats.ts): a company holds at most maxUsersAmount active people unless allowExceedMaxUsers; the
// early check refuses before costly work, and the check in the write refuses and rolls the write back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refuseWhenFull, takeSeat } from '../../src/app/seats.ts';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
beforeAll(async () => {
  database = await appTestDatabase();
});
afterAll(() => database.drop());

/** A company of its own for each test, with `people` active users and `max` seats. */
async function companyWith(code: string, people: number, max: number, allowExceedMaxUsers = false) {
  const p = database.db.prisma;
  const company = await p.company.create({
    data: { ...DEFAULT_COMPANY_JSON, name: code, code, maxUsersAmount: max, allowExceedMaxUsers },
  });
  for (let i = 0; i < people; i++) {
    const email = `p${i}@${code.toLowerCase()}.test`;
    await p.user.create({
      data: {
        ...DEFAULT_USER_JSON,
        companyId: company.id,
        name: email,
        email,
        externalId: email,
        loginProviderId: email,
      },
    });
  }
  // A deactivated person holds no seat.
  const gone = `gone@${code.toLowerCase()}.test`;
  await p.user.create({
    data: {
      ...DEFAULT_USER_JSON,
      companyId: company.id,
      name: gone,
      email: gone,
      externalId: gone,
      loginProviderId: gone,
      deletedAt: new Date(),
    },
  });
  return company;
}

const newcomer = (companyId: number, code: string) => {
  const email = `new@${code.toLowerCase()}.test`;
  return { ...DEFAULT_USER_JSON, companyId, name: email, email, externalId: email, loginProviderId: email };
};

describe('seats', () => {
  it('a company with a free seat lets one more person in, inside the write', async () => {
    const company = await companyWith('ROOMY', 2, 3);
    const scope = await testScope(database, 'admin');
    await expect(refuseWhenFull(scope, company)).resolves.toBeUndefined();
    await scope.write(async (tx) => {
      await takeSeat(scope, tx, company.id);
      await tx.user.create({ data: newcomer(company.id, 'ROOMY') });
    });
    expect(await database.db.prisma.user.count({ where: { companyId: company.id, deletedAt: null } })).toBe(3);
  });

  it('a full company is refused early and in the write, and the write adds nobody', async () => {
    const company = await companyWith('FULL', 2, 2);
    const scope = await testScope(database, 'admin');
    await expect(refuseWhenFull(scope, company)).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
      message: 'FULL has reached its maximum of 2 users',
    });
    await expect(
      scope.write(async (tx) => {
        await tx.user.create({ data: newcomer(company.id, 'FULL') });
        await takeSeat(scope, tx, company.id);
      }),
    ).rejects.toMatchObject({ extensions: { code: 'FORBIDDEN' } });
    expect(await database.db.prisma.user.count({ where: { companyId: company.id } })).toBe(3);
  });

  it('the write reads the rule afresh: seats taken away since the early check still refuse', async () => {
    const company = await companyWith('SHRUNK', 2, 5);
    const scope = await testScope(database, 'admin');
    await refuseWhenFull(scope, company);
    await database.db.prisma.company.update({ where: { id: company.id }, data: { maxUsersAmount: 2 } });
    await expect(scope.write((tx) => takeSeat(scope, tx, company.id))).rejects.toMatchObject({
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('allowExceedMaxUsers lets a full company grow', async () => {
    const company = await companyWith('ELASTIC', 2, 2, true);
    const scope = await testScope(database, 'admin');
    await expect(refuseWhenFull(scope, company)).resolves.toBeUndefined();
    await scope.write(async (tx) => {
      await takeSeat(scope, tx, company.id);
      await tx.user.create({ data: newcomer(company.id, 'ELASTIC') });
    });
    expect(await database.db.prisma.user.count({ where: { companyId: company.id, deletedAt: null } })).toBe(3);
  });
});
