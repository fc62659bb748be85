// Authentication and tenancy over HTTP: every case of the rule in src/auth/request-auth.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_JSON } from '../../src/domain/defaults.ts';
import { bearer, startTestServer, type TestServer } from '../helpers/app.ts';
import { forgeAccessToken } from '../helpers/tokens.ts';

let s: TestServer;
let tokens: Record<string, string>;
beforeAll(async () => {
  s = await startTestServer();
  // A company nobody in the demo manages, to prove a reseller's reach ends at its own managed companies.
  await s.t.db.prisma.company.create({
    data: { ...DEFAULT_COMPANY_JSON, name: 'Initech', code: 'INITECH', appPath: 'initech' },
  });
  tokens = {
    player: await s.loginAs('player'),
    admin: await s.loginAs('admin'),
    globex: await s.loginAs('globexPlayer'),
    reseller: await s.loginAs('reseller'),
    manager: await s.loginAs('manager'),
  };
});
afterAll(() => s.close());

const ME = '{ me { email company { name } } company { name } }';
const code = (r: { errors?: Array<{ extensions: { code: string } }> }) => r.errors?.[0]?.extensions.code;

describe('login', () => {
  it('returns a token and the user; the token works', async () => {
    const r = await s.gql(
      'mutation { login(email: "Player1@demo.test", password: "Prode-demo-2026!") { token user { email role company ' +
        '{ name } } } }',
      {},
      { 'x-app-path': 'demo' },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.login.user).toEqual({ email: 'player1@demo.test', role: 'player', company: { name: 'Demo Corp' } });
    const me = await s.gql(ME, {}, bearer(r.data.login.token));
    expect(me.data).toEqual({
      me: { email: 'player1@demo.test', company: { name: 'Demo Corp' } },
      company: { name: 'Demo Corp' },
    });
  });

  it('finds the company by x-app-host', async () => {
    const r = await s.gql(
      'mutation { login(email: "admin@globex.test", password: "Prode-demo-2026!") { user { email } } }',
      {},
      { 'x-app-host': 'prode.globex.test' },
    );
    expect(r.data.login.user.email).toBe('admin@globex.test');
  });

  it('refuses a wrong password, an unknown user and a user of another company alike', async () => {
    for (const [email, password, headers] of [
      ['player1@demo.test', 'wrong-password', { 'x-app-path': 'demo' }],
      ['nobody@demo.test', 'Prode-demo-2026!', { 'x-app-path': 'demo' }],
      ['player1@demo.test', 'Prode-demo-2026!', { 'x-app-host': 'prode.globex.test' }],
    ] as const) {
      const r = await s.gql(
        'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
        { e: email, p: password },
        headers,
      );
      expect(code(r)).toBe('UNAUTHENTICATED');
      expect(r.errors![0].message).toBe('e-mail or password is wrong');
      expect(r.data).toBeNull();
    }
  });

  it('counts logins', async () => {
    const before = await s.t.db.prisma.user.findFirstOrThrow({ where: { email: 'player2@demo.test' } });
    await s.login('player2@demo.test', 'demo');
    const after = await s.t.db.prisma.user.findFirstOrThrow({ where: { email: 'player2@demo.test' } });
    expect(after.loginCount).toBe(before.loginCount + 1);
    expect(after.lastActiveDate).toBeInstanceOf(Date);
  });
});

describe('credentials', () => {
  it('no token: UNAUTHENTICATED', async () => {
    expect(code(await s.gql(ME))).toBe('UNAUTHENTICATED');
  });

  it(
    'a malformed header, a bad token, a tampered signature, alg none, the wrong secret, an expired token: ' +
      'UNAUTHENTICATED',
    async () => {
      const [header, payload] = tokens.player.split('.');
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      const wrongSecret = await forgeAccessToken(
        { userId: 1, companyId: 1, role: 'manager' },
        { secret: 'another-secret-that-is-also-long-enough-000' },
      );
      const expired = await forgeAccessToken({ userId: 4, companyId: 2, role: 'player' }, { expiresIn: -60 });
      const cases: Array<[Record<string, string>, RegExp]> = [
        [{ authorization: 'Token abc' }, /Bearer <token>/],
        [bearer('not-a-jwt'), /invalid/],
        [bearer(`${header}.${payload}.${'A'.repeat(43)}`), /invalid/],
        [bearer(none), /invalid/],
        [bearer(wrongSecret), /invalid/],
        [bearer(expired), /expired/],
      ];
      for (const [headers, message] of cases) {
        const r = await s.gql(ME, {}, headers);
        expect(code(r)).toBe('UNAUTHENTICATED');
        expect(r.errors![0].message).toMatch(message);
      }
    },
  );

  it('a token whose claims disagree with the user (another company) is refused', async () => {
    const { users, companies } = s.demo;
    const forged = await forgeAccessToken({
      userId: users['player1@demo.test'],
      companyId: companies.DEMO + 1,
      role: 'player',
    });
    expect(code(await s.gql(ME, {}, bearer(forged)))).toBe('UNAUTHENTICATED');
  });
});

describe('tenancy', () => {
  const company = (token: string, headers: Record<string, string> = {}) =>
    s.gql('{ company { name } }', {}, { ...bearer(token), ...headers });

  it('without headers a caller acts on their own company; matching headers are accepted', async () => {
    expect((await company(tokens.player)).data.company.name).toBe('Demo Corp');
    expect((await company(tokens.player, { 'x-app-path': 'demo' })).data.company.name).toBe('Demo Corp');
    expect((await company(tokens.globex, { 'x-app-host': 'prode.globex.test' })).data.company.name).toBe('Globex');
  });

  it('a player or admin naming another company: FORBIDDEN; an unknown company: NOT_FOUND', async () => {
    expect(code(await company(tokens.player, { 'x-app-host': 'prode.globex.test' }))).toBe('FORBIDDEN');
    expect(code(await company(tokens.admin, { 'x-app-path': 'partners' }))).toBe('FORBIDDEN');
    expect(code(await company(tokens.player, { 'x-app-path': 'nope' }))).toBe('NOT_FOUND');
  });

  it('a reseller may act on the companies it manages, by path, host or x-app-company, and on no other', async () => {
    expect((await company(tokens.reseller, { 'x-app-path': 'demo' })).data.company.name).toBe('Demo Corp');
    expect((await company(tokens.reseller, { 'x-app-host': 'prode.globex.test' })).data.company.name).toBe('Globex');
    expect((await company(tokens.reseller, { 'x-app-company': 'GLOBEX' })).data.company.name).toBe('Globex');
    expect(code(await company(tokens.reseller, { 'x-app-path': 'initech' }))).toBe('FORBIDDEN');
    expect(code(await company(tokens.reseller, { 'x-app-company': 'INITECH' }))).toBe('FORBIDDEN');
  });

  it('a manager may act on any company', async () => {
    expect((await company(tokens.manager, { 'x-app-path': 'initech' })).data.company.name).toBe('Initech');
    expect((await company(tokens.manager, { 'x-app-company': String(s.demo.companies.DEMO) })).data.company.name).toBe(
      'Demo Corp',
    );
  });

  it('x-app-company is refused for players and admins, even for their own company', async () => {
    expect(code(await company(tokens.player, { 'x-app-company': 'DEMO' }))).toBe('FORBIDDEN');
    expect(code(await company(tokens.admin, { 'x-app-company': 'DEMO' }))).toBe('FORBIDDEN');
    expect(code(await s.gql('{ company { name } }', {}, { 'x-app-company': 'DEMO' }))).toBe('UNAUTHENTICATED');
  });
});
