// A soft-deleted company (Company.deletedAt set) is closed: its users can no longer log in (refused like a wrong
// password, or, where a header names the company, as a company that does not exist; counted as a failure either
// way), and their tokens stop working on the very next request after the write, with or without a tenant header,
// over GraphQL and REST, whatever the response and auth-row caches held.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY_JSON, DEFAULT_USER_JSON } from '../../src/domain/defaults.ts';
import {
  bearer,
  DEMO_PASSWORD,
  FULL_ENGINE,
  startTestServer,
  type GqlResult,
  type TestServer,
} from '../helpers/app.ts';
import { forgeInvitationLink } from '../helpers/tokens.ts';

const json = { 'content-type': 'application/json' };
const LOGIN = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }';
const ME = '{ me { email company { name } } }';
const codeOf = (r: GqlResult<unknown>) => r.errors?.[0]?.extensions.code ?? 'OK';

let s: TestServer;
let companyId: number;
beforeAll(async () => {
  // Full engine: it proves the deletion reaches sessions whose responses the response cache holds.
  s = await startTestServer({ env: { ...FULL_ENGINE, LOGIN_RATE_LIMIT_MAX: '4' } });
  const p = s.t.db.prisma;
  const hash = (await p.user.findFirstOrThrow({ where: { email: 'player1@demo.test' } })).passwordHash!;
  const doomed = await p.company.create({
    data: { ...DEFAULT_COMPANY_JSON, name: 'Doomed', code: 'DOOMED', appPath: 'doomed' },
  });
  companyId = doomed.id;
  for (const [email, role] of [
    ['boss@doomed.test', 'admin'],
    ['player@doomed.test', 'player'],
  ] as const) {
    await p.user.create({
      data: {
        ...DEFAULT_USER_JSON,
        companyId,
        email,
        name: email,
        role,
        passwordHash: hash,
        externalId: email,
        loginProviderId: email,
      },
    });
  }
});
afterAll(() => s.close());

const rest = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
  const r = await fetch(`${s.url}${path}`, {
    method,
    headers: { ...(body ? json : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: (await r.json()) as { code?: string } };
};

describe('a company soft-deleted under running sessions', () => {
  it(
    "refuses its tokens on the next request, and its users' logins like a wrong password or an unknown company, " +
      'counted as failures',
    async () => {
      const boss = await s.login('boss@doomed.test', 'doomed');
      const player = await s.login('player@doomed.test'); // no header: the e-mail is unique
      const routes = [
        () => s.gql(ME, {}, bearer(boss)),
        () => s.gql(ME, {}, { ...bearer(boss), 'x-app-path': 'doomed' }),
        () => s.gql('{ company { name } }', {}, bearer(player)),
      ];
      // Warm every cache: the same reads twice, the second served from memory (one statement: the data version).
      for (let i = 0; i < 2; i++) {
        for (const call of routes) {
          const r = await call();
          expect(codeOf(r)).toBe('OK');
          if (i === 1) expect(r.extensions?.sqlStatements).toBe(1);
        }
        expect((await rest('GET', '/companies/search', bearer(boss))).status).toBe(200);
        expect((await rest('GET', '/tournaments/me', { ...bearer(player), 'x-app-path': 'doomed' })).status).toBe(200);
      }

      await s.t.db.prisma.company.update({ where: { id: companyId }, data: { deletedAt: new Date() } });

      for (const call of routes) {
        const r = await call();
        expect(codeOf(r)).toBe('UNAUTHENTICATED');
        expect(r.data).toBeNull();
      }
      expect(await rest('GET', '/companies/search', bearer(boss))).toMatchObject({
        status: 401,
        body: { code: 'UNAUTHENTICATED' },
      });
      expect(await rest('GET', '/tournaments/me', { ...bearer(player), 'x-app-path': 'doomed' })).toMatchObject({
        status: 401,
        body: { code: 'UNAUTHENTICATED' },
      });

      // Logging in again: its path names no company now (as for any other request naming it), and without a
      // header the response to a wrong password.
      const withPath = await s.gql(LOGIN, { e: 'boss@doomed.test', p: DEMO_PASSWORD }, { 'x-app-path': 'doomed' });
      const neverWas = await s.gql(LOGIN, { e: 'boss@doomed.test', p: DEMO_PASSWORD }, { 'x-app-path': 'never-was' });
      expect(withPath.errors![0]).toMatchObject({
        message: 'company with x-app-path "doomed" not found',
        extensions: { code: 'NOT_FOUND' },
      });
      expect(neverWas.errors![0].message).toBe('company with x-app-path "never-was" not found');
      const noHeader = await s.gql(LOGIN, { e: 'boss@doomed.test', p: DEMO_PASSWORD });
      const unknown = await s.gql(LOGIN, { e: 'nobody@doomed.test', p: DEMO_PASSWORD });
      expect(codeOf(noHeader)).toBe('UNAUTHENTICATED');
      expect(noHeader.errors).toEqual(unknown.errors);
      expect(
        await rest(
          'POST',
          '/auth/login',
          { 'x-app-path': 'doomed' },
          { email: 'boss@doomed.test', password: DEMO_PASSWORD },
        ),
      ).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      // Four failures for boss@doomed.test (LOGIN_RATE_LIMIT_MAX=4): the fifth attempt is refused unchecked.
      expect(codeOf(await s.gql(LOGIN, { e: 'boss@doomed.test', p: DEMO_PASSWORD }, { 'x-app-path': 'doomed' }))).toBe(
        'RATE_LIMITED',
      );
    },
  );

  it('opens none of its invitation links: the lookup is NOT_FOUND and accepting creates nobody', async () => {
    const p = s.t.db.prisma;
    const invitation = await p.invitation.create({
      data: { companyId, email: 'late@doomed.test', name: 'Late Invitee' },
    });
    const jwt = await forgeInvitationLink(invitation.id);
    expect(await rest('GET', `/invitations/jwt/${jwt}`)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const accepted = await s.gql(
      'mutation($j: String!) { acceptInvitation(jwt: $j, name: "Late", password: "Long-enough-2026!") { token } }',
      { j: jwt },
    );
    expect(codeOf(accepted)).toBe('NOT_FOUND');
    expect(await p.user.count({ where: { email: 'late@doomed.test' } })).toBe(0);
    expect((await p.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).acceptedAt).toBeNull();
  });

  it("leaves the other companies' users alone", async () => {
    const token = await s.loginAs('player');
    expect((await s.gql(ME, {}, bearer(token))).data.me).toEqual({
      email: 'player1@demo.test',
      company: { name: 'Demo Corp' },
    });
  });
});
