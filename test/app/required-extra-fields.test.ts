// A company's required extra fields are required of everyone who joins it: at sign-up (register) and when an
// invitation is accepted, for the fields that apply to the areas the person is placed in (onlyForAreas). A refusal
// names the field and creates nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvitation, createInvitation } from '../../src/app/invitations.ts';
import { register } from '../../src/app/sign-up.ts';
import { MemoryLoginThrottle } from '../../src/security/memory-login-throttle.ts';
import { appTestDatabase, testScope, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
let argentina: number;
beforeAll(async () => {
  database = await appTestDatabase();
  const p = database.db.prisma;
  const demo = database.demo.companies.DEMO;
  argentina = database.demo.areas.Argentina;
  const company = await p.company.findUniqueOrThrow({ where: { id: demo } });
  const features = company.featureSettings as { areas: object };
  await p.company.update({
    where: { id: demo },
    data: { featureSettings: { ...features, areas: { ...features.areas, selfAssignOnSignUp: true } } },
  });
  const field = (name: string, order: number, extra: object) =>
    p.companyExtraField.create({
      data: { id: `required-${name}`, companyId: demo, name, kind: 'profile', order, type: 'string', ...extra },
    });
  // employeeNumber, required everywhere, is the seed's.
  await field('office', 101, {
    isRequired: true,
    type: 'select',
    settings: { options: ['BA', 'Rosario'] },
    onlyForAreas: [argentina],
  });
  await field('nickname', 102, { isRequired: false });
});
afterAll(() => database.drop());

const client = () => ({ ip: '198.51.100.70', throttle: new MemoryLoginThrottle(100, 60_000) });
const PASSWORD = 'a fine password';
const usersWith = (email: string) => database.db.prisma.user.findMany({ where: { email } });
const refusedOn = (name: string) => ({
  extensions: { code: 'BAD_USER_INPUT', argumentName: 'extraFields' },
  message: expect.stringContaining(`"${name}" is required`),
});

describe('register', () => {
  it('refuses a sign-up without a required field, naming it, and creates nothing', async () => {
    const scope = await testScope(database, null);
    const input = { name: 'New Hire', email: 'hire1@demo.test', password: PASSWORD };
    await expect(register(scope, client(), input, { appPath: 'demo' })).rejects.toMatchObject(
      refusedOn('employeeNumber'),
    );
    await expect(
      register(
        scope,
        client(),
        { ...input, extraFields: [{ name: 'employeeNumber', value: '  ' }] },
        { appPath: 'demo' },
      ),
    ).rejects.toMatchObject(refusedOn('employeeNumber'));
    expect(await usersWith('hire1@demo.test')).toEqual([]);
    const done = await register(
      scope,
      client(),
      { ...input, extraFields: [{ name: 'employeeNumber', value: 'E-17' }] },
      { appPath: 'demo' },
    );
    // office is asked only in Argentina, where this person is not placed.
    expect((await usersWith('hire1@demo.test'))[0]).toMatchObject({
      id: done.user!.id,
      extraFields: [{ name: 'employeeNumber', value: 'E-17' }],
    });
  });

  it('asks the fields of the areas the person picks', async () => {
    const scope = await testScope(database, null);
    const input = {
      name: 'Porteño',
      email: 'hire2@demo.test',
      password: PASSWORD,
      areaLevel1Id: argentina,
      extraFields: [{ name: 'employeeNumber', value: 'E-18' }],
    };
    await expect(register(scope, client(), input, { appPath: 'demo' })).rejects.toMatchObject(refusedOn('office'));
    const withOffice = { ...input, extraFields: [...input.extraFields, { name: 'office', value: 'BA' }] };
    await register(scope, client(), withOffice, { appPath: 'demo' });
    expect((await usersWith('hire2@demo.test'))[0].extraFields).toEqual([
      { name: 'employeeNumber', value: 'E-18' },
      { name: 'office', value: 'BA' },
    ]);
  });
});

describe('acceptInvitation', () => {
  it('refuses an accept without the required fields of the invitation’s areas, and the link still works', async () => {
    const admin = await testScope(database, 'admin');
    const { invitation, token } = await createInvitation(admin, {
      email: 'guest@demo.test',
      areaLevel1: { id: argentina },
    });
    const anonymous = await testScope(database, null);
    const input = { jwt: token, name: 'Guest', password: PASSWORD };
    await expect(acceptInvitation(anonymous, client(), input)).rejects.toMatchObject(refusedOn('employeeNumber'));
    await expect(
      acceptInvitation(anonymous, client(), { ...input, extraFields: [{ name: 'employeeNumber', value: 'E-19' }] }),
    ).rejects.toMatchObject(refusedOn('office'));
    const p = database.db.prisma;
    expect((await p.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).acceptedAt).toBeNull();
    expect(await usersWith('guest@demo.test')).toEqual([]);
    const { user } = await acceptInvitation(anonymous, client(), {
      ...input,
      extraFields: [
        { name: 'office', value: 'Rosario' },
        { name: 'employeeNumber', value: 'E-19' },
      ],
    });
    expect((await p.user.findUniqueOrThrow({ where: { id: user.id } })).extraFields).toEqual([
      { name: 'employeeNumber', value: 'E-19' },
      { name: 'office', value: 'Rosario' },
    ]);
  });

  it('asks no area’s fields when the company turned areas off after the invitation placed the person', async () => {
    const admin = await testScope(database, 'admin');
    const { token } = await createInvitation(admin, { email: 'unplaced@demo.test', areaLevel1: { id: argentina } });
    const p = database.db.prisma;
    const demo = database.demo.companies.DEMO;
    await p.company.update({ where: { id: demo }, data: { disableAreas: true } });
    try {
      const { user } = await acceptInvitation(await testScope(database, null), client(), {
        jwt: token,
        name: 'Unplaced',
        password: PASSWORD,
        extraFields: [{ name: 'employeeNumber', value: 'E-20' }],
      });
      expect(await p.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
        areaLevel1Id: null,
        extraFields: [{ name: 'employeeNumber', value: 'E-20' }],
      });
    } finally {
      await p.company.update({ where: { id: demo }, data: { disableAreas: false } });
    }
  });

  it('refuses a value for a field the company does not have, or one not asked in the areas', async () => {
    const admin = await testScope(database, 'admin');
    const { token } = await createInvitation(admin, { email: 'guest2@demo.test' });
    const anonymous = await testScope(database, null);
    const input = { jwt: token, name: 'Guest Two', password: PASSWORD };
    await expect(
      acceptInvitation(anonymous, client(), {
        ...input,
        extraFields: [
          { name: 'employeeNumber', value: 'E-20' },
          { name: 'office', value: 'BA' },
        ],
      }),
    ).rejects.toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'extraFields' } });
    const { user } = await acceptInvitation(anonymous, client(), {
      ...input,
      extraFields: [{ name: 'employeeNumber', value: 'E-20' }],
    });
    expect(user.extraFields).toEqual([{ name: 'employeeNumber', value: 'E-20' }]);
  });
});
