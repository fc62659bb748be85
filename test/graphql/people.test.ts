// People in a company over real HTTP: admins list and administer them within the role rules; each person edits
// their own profile within the company's switches, changes their password, and deletes their account where
// allowed. Deactivating locks a person out until reactivated; deleting erases them and keeps the game's history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, DEMO_PASSWORD, startTestServer, type TestServer } from '../helpers/app.ts';

const USERS =
  'query($s: String, $r: Role, $a: Int, $d: Boolean, $t: Int) { users(search: $s, role: $r, areaId: $a, deactivated: ' +
  '$d, take: $t) { email role } }';
const UPDATE = `mutation($id: Int!, $i: UpdateUserInput!) {
  updateUser(userId: $id, input: $i) { name role areaLevel1Id extraFields { name value } }
}`;
const ME =
  'mutation($i: UpdateMeInput!) { updateMe(input: $i) { name email emailVerified preferredLanguage timezone } }';

let s: TestServer;
let tokens: Record<'admin' | 'player' | 'player2' | 'reseller' | 'globexAdmin', string>;
beforeAll(async () => {
  s = await startTestServer();
  tokens = await s.loginAll(['admin', 'player', 'player2', 'reseller', 'globexAdmin']);
});
afterAll(() => s?.close());

type Errors = { errors?: Array<{ message: string; extensions: { code: string; argumentName?: string } }> };
const refusal = (r: Errors) =>
  r.errors?.[0] && { code: r.errors[0].extensions.code, field: r.errors[0].extensions.argumentName };
const as = (who: keyof typeof tokens) => ({ ...bearer(tokens[who]), 'x-app-path': 'demo' });
const idOf = async (email: string) => (await s.t.db.prisma.user.findFirstOrThrow({ where: { email } })).id;

describe('users', () => {
  it(
    'admins list their company by name, role and area; players may not; other companies see nothing of ' + 'it',
    async () => {
      const admins = await s.gql(USERS, { r: 'admin' }, as('admin'));
      expect(admins.data.users).toEqual([{ email: 'admin@demo.test', role: 'admin' }]);
      const found = await s.gql(USERS, { s: 'PLAYER1@' }, as('admin'));
      expect(found.data.users.map((u: { email: string }) => u.email)).toEqual(['player1@demo.test']);
      const literal = await s.gql(USERS, { s: '%' }, as('admin'));
      expect(literal.data.users).toEqual([]);
      const area = await s.t.db.prisma.area.findFirstOrThrow({ where: { companyId: s.demo.companies.DEMO, level: 1 } });
      const inArea = await s.gql(USERS, { a: area.id, t: 100 }, as('admin'));
      const placed = await s.t.db.prisma.user.count({
        where: { companyId: s.demo.companies.DEMO, deletedAt: null, OR: [{ areaLevel1Id: area.id }] },
      });
      expect(inArea.data.users).toHaveLength(placed);
      expect(refusal(await s.gql(USERS, {}, as('player')))?.code).toBe('FORBIDDEN');
      // Another company's admin naming Demo Corp is refused by the tenant rule before anything is read.
      expect(refusal(await s.gql(USERS, {}, as('globexAdmin')))?.code).toBe('FORBIDDEN');
      const foreign = await s.t.db.prisma.area.findFirstOrThrow({ where: { companyId: s.demo.companies.GLOBEX } });
      expect(refusal(await s.gql(USERS, { a: foreign.id }, as('admin')))).toEqual({
        code: 'BAD_USER_INPUT',
        field: 'areaId',
      });
    },
  );
});

describe('updateUser', () => {
  it('changes name, role, areas and extra fields, checked against the definitions', async () => {
    const id = await idOf('player2@demo.test');
    const area = await s.t.db.prisma.area.findFirstOrThrow({ where: { companyId: s.demo.companies.DEMO, level: 1 } });
    const r = await s.gql(
      UPDATE,
      {
        id,
        i: {
          name: 'Player Two',
          areaLevel1Id: area.id,
          extraFields: [
            { name: 'employeeNumber', value: 'E0002' },
            { name: 'favouriteTeam', value: 'Spain' },
          ],
        },
      },
      as('admin'),
    );
    expect(refusal(r)).toBeUndefined();
    expect(r.data.updateUser).toMatchObject({
      name: 'Player Two',
      areaLevel1Id: area.id,
      extraFields: [
        { name: 'employeeNumber', value: 'E0002' },
        { name: 'favouriteTeam', value: 'Spain' },
      ],
    });
    const cases: Array<[Record<string, unknown>, string, string | undefined]> = [
      // The required employeeNumber is missing.
      [{ extraFields: [{ name: 'favouriteTeam', value: 'Spain' }] }, 'BAD_USER_INPUT', 'extraFields'],
      [
        {
          extraFields: [
            { name: 'employeeNumber', value: 'E1' },
            { name: 'favouriteTeam', value: 'Narnia' },
          ],
        },
        'BAD_USER_INPUT',
        'extraFields',
      ],
      [{ extraFields: [{ name: 'shoeSize', value: 42 }] }, 'BAD_USER_INPUT', 'extraFields'],
      [{ areaLevel2Id: area.id }, 'BAD_USER_INPUT', 'areaLevel1Id'],
      [{ name: ' ' }, 'BAD_USER_INPUT', 'name'],
      [{ role: 'reseller' }, 'FORBIDDEN', undefined],
    ];
    for (const [input, code, field] of cases) {
      const refused = await s.gql(UPDATE, { id, i: input }, as('admin'));
      expect(refusal(refused), `${JSON.stringify(input)}: ${refused.errors?.[0]?.message}`).toEqual({ code, field });
    }
    expect(refusal(await s.gql(UPDATE, { id, i: { role: 'admin' } }, as('admin')))).toBeUndefined();
    await s.gql(UPDATE, { id, i: { role: 'player' } }, as('admin'));
  });

  it('nobody changes their own role or administers a higher role; another tenant gets NOT_FOUND', async () => {
    const adminId = await idOf('admin@demo.test');
    expect(refusal(await s.gql(UPDATE, { id: adminId, i: { role: 'player' } }, as('admin')))?.code).toBe('FORBIDDEN');
    const resellerId = await idOf('reseller@partners.test');
    expect(refusal(await s.gql(UPDATE, { id: resellerId, i: { name: 'x' } }, as('admin')))?.code).toBe('NOT_FOUND');
    const globexUser = await idOf('player1@globex.test');
    expect(refusal(await s.gql(UPDATE, { id: globexUser, i: { name: 'x' } }, as('admin')))?.code).toBe('NOT_FOUND');
    // The reseller acts on a company it manages.
    const player = await idOf('player1@demo.test');
    const byReseller = await s.gql(UPDATE, { id: player, i: { name: 'Renamed' } }, as('reseller'));
    expect(byReseller.data.updateUser.name).toBe('Renamed');
  });
});

describe('deactivate, reactivate, delete', () => {
  it('a deactivated person is locked out at once and signs in again when reactivated', async () => {
    const id = await idOf('player2@demo.test');
    const d = await s.gql('mutation($id: Int!) { deactivateUser(userId: $id) { id } }', { id }, as('admin'));
    expect(refusal(d)).toBeUndefined();
    expect(refusal(await s.gql('{ me { id } }', {}, as('player2')))?.code).toBe('UNAUTHENTICATED');
    const listed = await s.gql(USERS, { d: true }, as('admin'));
    expect(listed.data.users.map((u: { email: string }) => u.email)).toContain('player2@demo.test');
    await s.gql('mutation($id: Int!) { reactivateUser(userId: $id) { id } }', { id }, as('admin'));
    // The tokens held before stay revoked (test/security/session-revocation.test.ts): a new sign-in works.
    expect(refusal(await s.gql('{ me { id } }', {}, as('player2')))?.code).toBe('UNAUTHENTICATED');
    tokens.player2 = await s.loginAs('player2');
    expect(refusal(await s.gql('{ me { id } }', {}, as('player2')))).toBeUndefined();
    const self = await s.gql(
      'mutation($id: Int!) { deactivateUser(userId: $id) { id } }',
      { id: await idOf('admin@demo.test') },
      as('admin'),
    );
    expect(refusal(self)?.code).toBe('FORBIDDEN');
  });

  it('deleting erases the person and keeps their predictions out of rankings; the e-mail is free again', async () => {
    const p = s.t.db.prisma;
    const id = await idOf('player3@demo.test');
    const predictions = await p.prediction.count({ where: { userId: id } });
    const RANKING = 'query($t: Int!) { ranking(tournamentId: $t, take: 100) { total entries { user { id } } } }';
    const ranked = await s.gql(RANKING, { t: s.demo.tournament }, as('admin'));
    expect(ranked.data.ranking.entries.map((e: { user: { id: number } }) => e.user.id)).toContain(id);
    const post = await p.post.create({ data: { companyId: s.demo.companies.DEMO, userId: id, text: 'my last post' } });
    const r = await s.gql('mutation($id: Int!) { deleteUser(userId: $id) }', { id }, as('admin'));
    expect(r.data).toEqual({ deleteUser: true });
    const row = await p.user.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({
      name: 'Deleted user',
      email: `deleted ${id}@deleted.invalid`,
      passwordHash: null,
      extraFields: [],
    });
    expect(row.anonymizedAt).not.toBeNull();
    expect(await p.prediction.count({ where: { userId: id } })).toBe(predictions);
    // Rankings count active people only; the post stays, under "Deleted user".
    const after = await s.gql(RANKING, { t: s.demo.tournament }, as('admin'));
    expect(after.data.ranking.entries.map((e: { user: { id: number } }) => e.user.id)).not.toContain(id);
    expect(after.data.ranking.total).toBe(ranked.data.ranking.total - 1);
    const kept = await s.gql(
      'query($id: Int!) { post(id: $id) { text user { name email } } }',
      { id: post.id },
      as('admin'),
    );
    expect(kept.data.post).toEqual({ text: 'my last post', user: { name: 'Deleted user', email: row.email } });
    const listed = await s.gql(USERS, { d: true, t: 100 }, as('admin'));
    expect(listed.data.users.map((u: { email: string }) => u.email)).not.toContain(row.email);
    expect(refusal(await s.gql('mutation($id: Int!) { deleteUser(userId: $id) }', { id }, as('admin')))?.code).toBe(
      'NOT_FOUND',
    );
  });
});

describe("a person's own account", () => {
  it('updateMe within the company switches', async () => {
    const r = await s.gql(
      ME,
      { i: { preferredLanguage: 'pt-BR', timezone: 'America/Argentina/Buenos_Aires', name: 'P One' } },
      as('player'),
    );
    expect(r.errors?.[0]?.message).toBeUndefined();
    expect(r.data.updateMe).toMatchObject({
      preferredLanguage: 'pt-BR',
      timezone: 'America/Argentina/Buenos_Aires',
      name: 'P One',
    });
    expect(refusal(await s.gql(ME, { i: { email: 'new@demo.test' } }, as('player')))?.code).toBe('FORBIDDEN');
    await s.t.db.prisma.company.update({ where: { id: s.demo.companies.DEMO }, data: { allowUserEmailEdit: true } });
    const moved = await s.gql(ME, { i: { email: 'New@Demo.test' } }, as('player'));
    expect(moved.data.updateMe).toMatchObject({ email: 'new@demo.test', emailVerified: false });
    expect(refusal(await s.gql(ME, { i: { email: 'admin@demo.test' } }, as('player')))).toEqual({
      code: 'CONFLICT',
      field: 'email',
    });
    expect(refusal(await s.gql(ME, { i: { timezone: 'Mars/Olympus' } }, as('player')))).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'timezone',
    });
    const mine = await s.gql(ME, { i: { extraFields: [{ name: 'employeeNumber', value: 'E7' }] } }, as('player'));
    expect(refusal(mine)).toBeUndefined();
    const wrong = await s.gql(ME, { i: { extraFields: [{ name: 'favouriteTeam', value: 'Spain' }] } }, as('player'));
    expect(refusal(wrong)).toEqual({ code: 'BAD_USER_INPUT', field: 'extraFields' });
    expect(refusal(await s.gql(ME, { i: { profilePictureUrl: 'file:///etc/passwd' } }, as('player')))?.field).toBe(
      'profilePictureUrl',
    );
  });

  it('changePassword proves the current one; deleteMyAccount where allowed', async () => {
    const CHANGE = 'mutation($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) }';
    expect(refusal(await s.gql(CHANGE, { c: 'wrong', n: 'Another-pass-2026!' }, as('player2')))?.field).toBe(
      'currentPassword',
    );
    expect(refusal(await s.gql(CHANGE, { c: DEMO_PASSWORD, n: 'short' }, as('player2')))?.field).toBe('newPassword');
    expect((await s.gql(CHANGE, { c: DEMO_PASSWORD, n: 'Another-pass-2026!' }, as('player2'))).data).toEqual({
      changePassword: true,
    });
    // Every session ended with the change, this one included: the person signs in again.
    expect(refusal(await s.gql('{ me { id } }', {}, as('player2')))?.code).toBe('UNAUTHENTICATED');
    tokens.player2 = await s.login('player2@demo.test', 'demo', 'Another-pass-2026!');

    const DEL = 'mutation($p: String!) { deleteMyAccount(password: $p) }';
    await s.t.db.prisma.company.update({
      where: { id: s.demo.companies.DEMO },
      data: { allowUserDeleteAccount: false },
    });
    expect(refusal(await s.gql(DEL, { p: 'Another-pass-2026!' }, as('player2')))?.code).toBe('FORBIDDEN');
    await s.t.db.prisma.company.update({
      where: { id: s.demo.companies.DEMO },
      data: { allowUserDeleteAccount: true },
    });
    expect(refusal(await s.gql(DEL, { p: 'wrong' }, as('player2')))?.field).toBe('password');
    expect((await s.gql(DEL, { p: 'Another-pass-2026!' }, as('player2'))).data).toEqual({ deleteMyAccount: true });
    expect(refusal(await s.gql('{ me { id } }', {}, as('player2')))?.code).toBe('UNAUTHENTICATED');
  });
});
