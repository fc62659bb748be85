// A company that turns areas off (disableAreas) places nobody in an area and shows no area ranking: an admin's
// placement, a self-assignment at sign-up, an invitation's areas, a ranking of an area and the team ranking are each
// refused with FORBIDDEN; an invitation made before the switch still lets its person join, placed nowhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaRanking } from '../../src/app/area-rankings.ts';
import { acceptInvitation, createInvitation, updateInvitation } from '../../src/app/invitations.ts';
import { updateUser } from '../../src/app/people.ts';
import { deleteArea } from '../../src/app/structure.ts';
import { ranking } from '../../src/app/rankings.ts';
import { register } from '../../src/app/sign-up.ts';
import { signInvitationToken } from '../../src/auth/tokens.ts';
import { DEFAULT_FEATURE_SETTINGS } from '../../src/domain/defaults.ts';
import { MemoryLoginThrottle } from '../../src/security/memory-login-throttle.ts';
import { DEMO_EXTRA_FIELDS } from '../helpers/demo.ts';
import { testScope, appTestDatabase, type AppTestDatabase } from '../helpers/scope.ts';

let database: AppTestDatabase;
let demo: number;
const forbidden = { extensions: { code: 'FORBIDDEN' } };
const client = () => ({ ip: '198.51.100.70', throttle: new MemoryLoginThrottle(100, 60_000) });

beforeAll(async () => {
  database = await appTestDatabase();
  demo = database.demo.companies.DEMO;
  // Areas off, and people may otherwise pick their own at sign-up, so only the switch refuses them.
  await database.db.prisma.company.update({
    where: { id: demo },
    data: {
      disableAreas: true,
      featureSettings: {
        ...DEFAULT_FEATURE_SETTINGS,
        areas: { ...DEFAULT_FEATURE_SETTINGS.areas, selfAssignOnSignUp: true, minUsersForAreaRanking: 1 },
      },
    },
  });
});
afterAll(() => database.drop());

const area = (name: string) => database.demo.areas[name];
const user = (email: 'player2@demo.test') =>
  database.db.prisma.user.findUniqueOrThrow({ where: { id: database.demo.users[email] } });

describe('disableAreas', () => {
  it("refuses an admin's placement, and still lets the admin clear one", async () => {
    const admin = await testScope(database, 'admin');
    const target = database.demo.users['player2@demo.test'];
    const before = await user('player2@demo.test');
    await expect(updateUser(admin, target, { areaLevel1Id: area('Brasil') })).rejects.toMatchObject(forbidden);
    expect(await user('player2@demo.test')).toMatchObject({ areaLevel1Id: before.areaLevel1Id });
    const cleared = await updateUser(admin, target, { areaLevel1Id: null, areaLevel2Id: null, areaLevel3Id: null });
    expect(cleared).toMatchObject({ areaLevel1Id: null, areaLevel2Id: null, areaLevel3Id: null });
  });

  it('refuses a self-assignment at sign-up', async () => {
    const scope = await testScope(database, null);
    const input = {
      name: 'Placed',
      email: 'placed@demo.test',
      password: 'a fine password',
      areaLevel1Id: area('Brasil'),
      extraFields: DEMO_EXTRA_FIELDS,
    };
    await expect(register(scope, client(), input, { appPath: 'demo' })).rejects.toMatchObject(forbidden);
    expect(await database.db.prisma.user.count({ where: { email: 'placed@demo.test' } })).toBe(0);
  });

  it("refuses an invitation's areas, and places nobody through an invitation made before", async () => {
    const admin = await testScope(database, 'admin');
    const input = { email: 'placed.hire@demo.test', role: 'player', areaLevel1: { id: area('Brasil') } };
    await expect(createInvitation(admin, input)).rejects.toMatchObject(forbidden);
    expect(await database.db.prisma.invitation.count({ where: { email: 'placed.hire@demo.test' } })).toBe(0);

    // A change of an invitation made before the switch goes through and clears its areas; naming one is refused.
    const second = await database.db.prisma.invitation.findFirstOrThrow({ where: { email: 'new.hire2@demo.test' } });
    expect(second.areaLevel1Id).not.toBeNull();
    await expect(updateInvitation(admin, second.id, { areaLevel1: { id: area('Brasil') } })).rejects.toMatchObject(
      forbidden,
    );
    const renamed = await updateInvitation(admin, second.id, { name: 'New Hire Renamed' });
    expect(renamed).toMatchObject({ name: 'New Hire Renamed', areaLevel1Id: null, areaLevel2Id: null });

    const earlier = await database.db.prisma.invitation.findFirstOrThrow({ where: { email: 'new.hire1@demo.test' } });
    expect(earlier.areaLevel1Id).not.toBeNull();
    const jwt = await signInvitationToken(earlier.id, database.config.jwtSecret, 3600);
    const { user: joined } = await acceptInvitation(await testScope(database, null), client(), {
      jwt,
      name: 'New Hire One',
      password: 'a fine password',
      extraFields: DEMO_EXTRA_FIELDS,
    });
    expect(joined).toMatchObject({ companyId: demo, areaLevel1Id: null, areaLevel2Id: null, areaLevel3Id: null });
  });

  it("refuses moving an area's people to another when the area is deleted; emptied, it goes", async () => {
    const p = database.db.prisma;
    const [from, to] = await Promise.all(
      ['Closing office', 'Open office'].map((name) => p.area.create({ data: { companyId: demo, name, level: 1 } })),
    );
    const target = database.demo.users['player2@demo.test'];
    await p.user.update({
      where: { id: target },
      data: { areaLevel1Id: from.id, areaLevel2Id: null, areaLevel3Id: null },
    });
    const admin = await testScope(database, 'admin');
    await expect(deleteArea(admin, from.id, to.id)).rejects.toMatchObject(forbidden);
    expect(await user('player2@demo.test')).toMatchObject({ areaLevel1Id: from.id });
    await updateUser(admin, target, { areaLevel1Id: null });
    expect(await deleteArea(await testScope(database, 'admin'), from.id)).toBe(true);
    expect(await p.area.findUnique({ where: { id: from.id } })).toBeNull();
  });

  it("refuses an area's ranking and the team ranking, to admins too", async () => {
    const tournamentId = database.demo.tournament;
    for (const as of ['player', 'admin'] as const) {
      const scope = await testScope(database, as);
      await expect(ranking(scope, { tournamentId, areaId: area('Argentina') })).rejects.toMatchObject(forbidden);
      await expect(areaRanking(scope, { tournamentId, level: 1 })).rejects.toMatchObject(forbidden);
    }
    // The general ranking is not an area's: still shown.
    expect((await ranking(await testScope(database, 'player'), { tournamentId })).total).toBeGreaterThan(0);
  });
});
