// A login whose x-app-path or x-app-host names no company is told so (NOT_FOUND), not that its password is wrong:
// a company's path and host are public (they are in the address people open), so the response tells nothing about
// accounts (it is the same for an e-mail that exists and one that does not, and no password is checked). The
// attempt still counts as a failed login, so probing company names is held to LOGIN_RATE_LIMIT_MAX like guessing
// passwords. A company code (x-app-company) is not public and keeps the credentials' response. Over GraphQL and REST.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestServer, type GqlResult, type TestServer } from '../helpers/app.ts';

const LOGIN = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }';
const LIMIT = 4;
const codeOf = (r: GqlResult<unknown>) => r.errors?.[0]?.extensions.code ?? 'OK';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ env: { LOGIN_RATE_LIMIT_MAX: String(LIMIT) } });
});
afterAll(() => s?.close());

const restLogin = async (headers: Record<string, string>, email: string, password = DEMO_PASSWORD) => {
  const r = await fetch(`${s.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email, password }),
  });
  return { status: r.status, body: (await r.json()) as { code?: string; message?: string } };
};

describe('login under a company that does not exist', () => {
  it('GraphQL: NOT_FOUND naming the path or host, alike for an account that exists and one that does not', async () => {
    const existing = await s.gql(LOGIN, { e: 'player1@demo.test', p: DEMO_PASSWORD }, { 'x-app-path': 'dem0' });
    const unknown = await s.gql(LOGIN, { e: 'nobody@demo.test', p: 'whatever-1' }, { 'x-app-path': 'dem0' });
    expect(existing.data).toBeNull();
    expect(existing.errors).toEqual(unknown.errors);
    expect(existing.errors![0]).toMatchObject({
      message: 'company with x-app-path "dem0" not found',
      extensions: { code: 'NOT_FOUND' },
    });
    expect(existing.errors![0].message).not.toMatch(/password/);

    const host = await s.gql(
      LOGIN,
      { e: 'admin@globex.test', p: DEMO_PASSWORD },
      { 'x-app-host': 'prode.gl0bex.test' },
    );
    expect(host.errors![0]).toMatchObject({
      message: 'company with x-app-host "prode.gl0bex.test" not found',
      extensions: { code: 'NOT_FOUND' },
    });
  });

  it('REST POST /auth/login: 404 NOT_FOUND', async () => {
    const r = await restLogin({ 'x-app-path': 'no-such-company' }, 'player2@demo.test');
    expect(r).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', message: 'company with x-app-path "no-such-company" not found' },
    });
  });

  it('a company that exists treats a wrong password as before, and an x-app-company code as credentials', async () => {
    const wrong = await s.gql(LOGIN, { e: 'player3@demo.test', p: 'wrong-password' }, { 'x-app-path': 'demo' });
    expect(wrong.errors![0]).toMatchObject({
      message: 'e-mail or password is wrong',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    const code = await s.gql(LOGIN, { e: 'player3@demo.test', p: DEMO_PASSWORD }, { 'x-app-company': 'NO-SUCH' });
    expect(code.errors![0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
    expect((await restLogin({ 'x-app-path': 'demo' }, 'player3@demo.test', 'wrong-password')).status).toBe(401);
  });

  it('counts each probe as a failed login of its e-mail: past the limit, the right company is refused', async () => {
    const email = 'player4@demo.test';
    for (let i = 0; i < LIMIT - 1; i++) {
      expect(codeOf(await s.gql(LOGIN, { e: email, p: DEMO_PASSWORD }, { 'x-app-path': `probe-${i}` }))).toBe(
        'NOT_FOUND',
      );
    }
    expect((await restLogin({ 'x-app-host': 'probe.example.test' }, email)).status).toBe(404);
    const refused = await s.gql(LOGIN, { e: email, p: DEMO_PASSWORD }, { 'x-app-path': 'demo' });
    expect(codeOf(refused)).toBe('RATE_LIMITED');
  });
});
